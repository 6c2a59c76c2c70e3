package dev.loommcp.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.Locale;

/**
 * Keeps server-supplied text from driving the terminal: in human output every C0 control character other than
 * line feed and tab, every carriage return that does not end a line, DEL, every C1 control character, the
 * bidirectional formatting characters and the line and paragraph separators are shown as a visible escape such as
 * {@code \x1b} (ESC; above U+00FF a backslash, u and four hex digits); a CR LF pair becomes a plain line feed. JSON
 * output is escaped as JSON instead ({@link #jsonSafe}). Also cuts long server messages ({@link #cap}). Stateless
 * and thread-safe; the writers it makes are as thread-safe as {@link PrintWriter}.
 */
final class TerminalText {

    /** The most characters of one server message printed in human mode. */
    static final int MAX_MESSAGE = 2000;

    private TerminalText() {
    }

    /**
     * Returns whether a character is shown as an escape: a C0 control other than {@code \n} and {@code \t}, DEL, or
     * a C1 control ({@code U+0080} to {@code U+009F}). Carriage returns are handled by the callers.
     *
     * @param c the character
     * @return whether it must not reach the terminal as it is
     */
    static boolean isUnsafe(char c) {
        return (c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7f && c <= 0x9f) || isBidiOrSeparator(c);
    }

    /**
     * The bidirectional formatting characters (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069), which
     * reorder what follows them on the line (U+202E followed by "gnp.exe" shows as "exe.png"), and the line and
     * paragraph separators U+2028 and U+2029, which some terminals break lines at.
     */
    private static boolean isBidiOrSeparator(char c) {
        return c == 0x061c || c == 0x200e || c == 0x200f || (c >= 0x2028 && c <= 0x202e)
                || (c >= 0x2066 && c <= 0x2069);
    }

    /**
     * Returns the text with every unsafe character replaced by its escape ({@code ESC} becomes {@code \x1b}); a
     * {@code \r\n} pair becomes {@code \n}.
     *
     * @param s the text, or {@code null}
     * @return the text safe to print, {@code null} for {@code null}
     */
    static String escape(String s) {
        if (s == null) {
            return null;
        }
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean crlf = c == '\r' && i + 1 < s.length() && s.charAt(i + 1) == '\n';
            if (crlf || isUnsafe(c)) {
                if (sb == null) {
                    sb = new StringBuilder(s.length() + 16).append(s, 0, i);
                }
                if (!crlf) {
                    appendEscape(sb, c);
                }
            } else if (sb != null) {
                sb.append(c);
            }
        }
        return sb == null ? s : sb.toString();
    }

    private static void appendEscape(StringBuilder sb, char c) {
        sb.append(String.format(Locale.ROOT, c <= 0xff ? "\\x%02x" : "\\u%04x", (int) c));
    }

    /**
     * Escapes DEL, the C1 control characters and the bidirectional formatting characters and line separators in JSON
     * text as {@code \}{@code u007f} and so on. Jackson already escapes the C0 controls; these are legal raw in JSON
     * strings but some terminals act on them. The JSON stays equal: in JSON text these characters can only occur
     * inside strings.
     *
     * @param json JSON text
     * @return the same JSON value with those characters escaped
     */
    static String jsonSafe(String json) {
        StringBuilder sb = null;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if ((c >= 0x7f && c <= 0x9f) || isBidiOrSeparator(c)) {
                if (sb == null) {
                    sb = new StringBuilder(json.length() + 16).append(json, 0, i);
                }
                sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else if (sb != null) {
                sb.append(c);
            }
        }
        return sb == null ? json : sb.toString();
    }

    /**
     * Returns how many terminal columns a text takes: East Asian wide and fullwidth characters (CJK ideographs,
     * Hangul, kana, fullwidth forms, most emoji) take two, combining marks, format characters (such as the zero-width
     * joiner) and variation selectors none, every other code point one. Control characters count as one (callers
     * escape them first).
     *
     * @param s the text
     * @return its display width in columns
     */
    static int displayWidth(String s) {
        int w = 0;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            w += columns(cp);
            i += Character.charCount(cp);
        }
        return w;
    }

    /**
     * Returns the columns one code point takes on a terminal: 0, 1 or 2 (see {@link #displayWidth}).
     *
     * @param cp the code point
     * @return its width
     */
    static int columns(int cp) {
        int type = Character.getType(cp);
        if (type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK || type == Character.FORMAT
                || (cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0xE0100 && cp <= 0xE01EF)) {
            return 0;
        }
        boolean wide = (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0x303E)
                || (cp >= 0x3041 && cp <= 0x33FF) || (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x4E00 && cp <= 0x9FFF)
                || (cp >= 0xA000 && cp <= 0xA4CF) || (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF)
                || (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) || (cp >= 0xFFE0 && cp <= 0xFFE6)
                || (cp >= 0x1F300 && cp <= 0x1F64F) || (cp >= 0x1F900 && cp <= 0x1F9FF)
                || (cp >= 0x20000 && cp <= 0x3FFFD);
        return wide ? 2 : 1;
    }

    /**
     * Cuts a text to at most {@code max} terminal columns ({@link #displayWidth}), ending it with {@code "..."} when
     * cut; a character is never split (neither a surrogate pair nor a wide character).
     *
     * @param s   the text
     * @param max the most columns, at least 4
     * @return the text, cut if needed
     */
    static String fitWidth(String s, int max) {
        if (displayWidth(s) <= max) {
            return s;
        }
        int budget = Math.max(0, max - 3);
        int w = 0;
        int end = 0;
        while (end < s.length()) {
            int cp = s.codePointAt(end);
            int cw = columns(cp);
            if (w + cw > budget) {
                break;
            }
            w += cw;
            end += Character.charCount(cp);
        }
        return s.substring(0, end).stripTrailing() + "...";
    }

    /**
     * Cuts a message to {@code max} characters, saying how many were left out.
     *
     * @param s   the message, or {@code null}
     * @param max the most characters kept
     * @return the message, or its first {@code max} characters followed by {@code "... (N more characters)"}
     */
    static String cap(String s, int max) {
        if (s == null || s.length() <= max) {
            return s;
        }
        int keep = max;
        if (Character.isHighSurrogate(s.charAt(keep - 1))) {
            keep--;
        }
        return s.substring(0, keep) + "... (" + String.format(Locale.ROOT, "%,d", s.length() - keep)
                + " more characters)";
    }

    /**
     * Cuts a server message to {@value #MAX_MESSAGE} characters ({@link #cap}).
     *
     * @param s the message, or {@code null}
     * @return the message, cut if needed
     */
    static String cap(String s) {
        return cap(s, MAX_MESSAGE);
    }

    /**
     * Wraps a writer so that everything printed through the result is {@linkplain #escape escaped}. The wrapper
     * does not buffer: what it is given reaches {@code raw} at once (except a trailing carriage return, held until
     * the next character or flush shows whether a line feed follows), so output through it and through {@code raw}
     * stays in order.
     *
     * @param raw the writer to protect
     * @return a print writer that escapes
     */
    static PrintWriter writer(Writer raw) {
        return new PrintWriter(new EscapingWriter(raw), false);
    }

    /** Escapes what passes through it; see {@link #writer}. */
    private static final class EscapingWriter extends Writer {
        private final Writer raw;
        private boolean pendingCr;

        EscapingWriter(Writer raw) {
            super(raw);
            this.raw = raw;
        }

        @Override
        public void write(char[] buf, int off, int len) throws IOException {
            // the PrintWriter around this one serializes the calls
            StringBuilder sb = new StringBuilder(len + 8);
            for (int i = off; i < off + len; i++) {
                char c = buf[i];
                if (pendingCr) {
                    pendingCr = false;
                    if (c != '\n') {
                        appendEscape(sb, '\r');
                    }
                }
                if (c == '\r') {
                    pendingCr = true;
                } else if (isUnsafe(c)) {
                    appendEscape(sb, c);
                } else {
                    sb.append(c);
                }
            }
            raw.write(sb.toString());
        }

        @Override
        public void flush() throws IOException {
            if (pendingCr) {
                pendingCr = false;
                raw.write("\\x0d");
            }
            raw.flush();
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
