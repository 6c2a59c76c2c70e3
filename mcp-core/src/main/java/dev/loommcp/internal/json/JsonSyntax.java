package dev.loommcp.internal.json;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.UnexpectedEndOfInputException;

/**
 * Says in words where and why JSON text a person wrote (a command-line argument, standard input, an
 * {@code mcpServers} file, a setting) is not valid JSON: {@code "line 3, column 14: expected a name in double quotes,
 * found '}' (a ',' before a closing '}' is not allowed)"}. The parser's own message names its internals (feature
 * flags, token classes, Java types), which mean nothing to the person who has to fix the text.
 *
 * <p>Only for text the user gave: the description may quote a single character or a short token of the text (a
 * name given twice, an unknown word), which for a server's output could be payload data. Stateless and thread-safe.
 */
public final class JsonSyntax {

    private static final Pattern UNEXPECTED_CHAR = Pattern.compile("^Unexpected character \\((.*) \\(code (\\d+)\\)\\)"
            + "(?:: (.*))?$", Pattern.DOTALL);
    private static final Pattern QUOTED = Pattern.compile("'((?:[^'\\\\]|\\\\.){0,40})'");
    private static final Pattern CODE = Pattern.compile("code (\\d+)");
    private static final int TOKEN_CHARS = 40;

    private JsonSyntax() {
    }

    /**
     * Describes a parse failure: where (line and column, both counted from 1, in characters of the text) and what,
     * in words; without a location when the parser gave none or the text is empty.
     *
     * @param e the parser's exception
     * @return for example {@code "line 1, column 8: expected ',' or '}' after a value, found 'x'"}
     */
    public static String describe(JacksonException e) {
        String what = what(e);
        TokenStreamLocation loc = e.getLocation();
        if (loc == null || loc.getLineNr() < 1 || what.startsWith("there is no JSON")) {
            return what;
        }
        return "line " + loc.getLineNr() + (loc.getColumnNr() > 0 ? ", column " + loc.getColumnNr() : "") + ": "
                + what;
    }

    private static String what(JacksonException e) {
        String m = e.getOriginalMessage();
        if (m == null) {
            return "not valid JSON";
        }
        if (e instanceof UnexpectedEndOfInputException || m.startsWith("Unexpected end-of-input")) {
            if (m.contains("for Object")) {
                return "the text ends inside an object (a closing '}' is missing)";
            }
            if (m.contains("for Array")) {
                return "the text ends inside an array (a closing ']' is missing)";
            }
            if (m.contains("String") || m.contains("string")) {
                return "the text ends inside a string (a closing '\"' is missing)";
            }
            return "the text ends before the JSON value is complete";
        }
        if (m.startsWith("No content to map")) {
            return "there is no JSON value (the text is empty)";
        }
        if (m.startsWith("Trailing token")) {
            return "there is more text after the JSON value (give one value)";
        }
        if (m.startsWith("Duplicate Object property")) {
            Matcher q = Pattern.compile("\"(.*)\"").matcher(m);
            String name = q.find() ? " \"" + cut(q.group(1)) + "\"" : "";
            return "the name" + name + " is given twice in one object";
        }
        Matcher uc = UNEXPECTED_CHAR.matcher(m);
        if (uc.find()) {
            String found = found(Integer.parseInt(uc.group(2)));
            String expecting = uc.group(3) == null ? "" : uc.group(3);
            if (expecting.contains("double-quote to start property name")) {
                return "expected a name in double quotes, found " + found
                        + (found.equals("'}'") ? " (a ',' before a closing '}' is not allowed)" : "");
            }
            if (expecting.contains("colon to separate")) {
                return "expected ':' after the name, found " + found;
            }
            if (expecting.contains("comma to separate Object")) {
                return "expected ',' or '}' after a value, found " + found;
            }
            if (expecting.contains("comma to separate Array")) {
                return "expected ',' or ']' after a value, found " + found;
            }
            if (expecting.contains("comment")) {
                return "comments are not allowed in JSON, found " + found;
            }
            if (expecting.contains("closing quote")) {
                return "expected a closing '\"', found " + found;
            }
            return "unexpected " + found + (found.equals("']'") ? " (a ',' before a closing ']' is not allowed)"
                    : "");
        }
        if (m.startsWith("Unexpected close marker")) {
            Matcher q = QUOTED.matcher(m);
            return (q.find() ? "'" + q.group(1) + "'" : "a closing bracket") + " closes nothing that is open";
        }
        if (m.startsWith("Unrecognized token") || m.startsWith("Non-standard token")) {
            Matcher q = QUOTED.matcher(m);
            String token = q.find() ? "'" + cut(q.group(1)) + "' " : "a word ";
            return token + "is not a JSON value (text needs double quotes; the other words are true, false and "
                    + "null)";
        }
        if (m.startsWith("Illegal unquoted character")) {
            Matcher c = CODE.matcher(m);
            String code = c.find() ? " (code " + c.group(1) + ")" : "";
            return "a control character" + code + " inside a string: write it escaped (\\n, \\t, \\u0001)";
        }
        if (m.startsWith("Unrecognized character escape")) {
            Matcher q = QUOTED.matcher(m);
            return "an unknown escape" + (q.find() ? " '\\" + q.group(1) + "'" : "") + " in a string (the escapes "
                    + "are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX)";
        }
        if (m.startsWith("Invalid numeric value") || m.startsWith("Invalid number")) {
            int colon = m.indexOf(": ");
            String detail = colon >= 0 ? m.substring(colon + 2) : m;
            return "not a valid number (" + words(detail) + ")";
        }
        return words(m);
    }

    /**
     * Decodes JSON text that must be UTF-8 (RFC 8259 section 8.1), refusing malformed bytes instead of turning them
     * into U+FFFD, which would then be sent or used as if the user had written that character. A leading byte order
     * mark is skipped (RFC 8259 allows a parser to ignore it; some editors write one).
     *
     * @param bytes the bytes, for example a file's or standard input's
     * @return the text
     * @throws IllegalArgumentException saying where the first malformed byte is ({@code "not valid UTF-8: byte 0xff
     *                                  at line 2, column 7 (byte offset 15)"}); the text around it is not quoted
     */
    public static String utf8(byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult r = decoder.decode(in, out, true);
        if (!r.isError()) {
            r = decoder.flush(out);
        }
        if (r.isError()) {
            int at = in.position();
            int line = 1;
            int lineStart = 0;
            for (int i = 0; i < at; i++) {
                if (bytes[i] == '\n') {
                    line++;
                    lineStart = i + 1;
                }
            }
            // the column counts the characters before the bad byte on its line (each whole UTF-8 sequence is one)
            int column = 1;
            for (int i = lineStart; i < at; i++) {
                if ((bytes[i] & 0xC0) != 0x80) {
                    column++;
                }
            }
            throw new IllegalArgumentException(String.format(Locale.ROOT, "not valid UTF-8: byte 0x%02x at line %d, "
                    + "column %d (byte offset %d); JSON text must be UTF-8", bytes[at] & 0xff, line, column, at));
        }
        out.flip();
        String text = out.toString();
        return text.startsWith("\uFEFF") ? text.substring(1) : text;
    }

    /** A character of the text for a message: quoted when printable, by name otherwise. */
    private static String found(int code) {
        if (code == '\'') {
            return "a single quote (text needs double quotes)";
        }
        if (code < 0x20 || code == 0x7f || (code >= 0x80 && code < 0xa0)) {
            return String.format(Locale.ROOT, "the control character U+%04X", code);
        }
        if (code == 0xfeff) {
            return "a byte order mark (U+FEFF)";
        }
        if (code >= 0xd800 && code <= 0xdfff) {
            return String.format(Locale.ROOT, "U+%04X", code);
        }
        return "'" + new String(Character.toChars(code)) + "'";
    }

    /** The parser's message without what names its internals: backquoted names, feature hints and locations. */
    private static String words(String m) {
        String s = m;
        int nl = s.indexOf('\n');
        if (nl >= 0) {
            s = s.substring(0, nl);
        }
        s = s.replaceAll("\\s*\\((?:start marker at )?\\[Source:.*$", "");
        s = s.replaceAll("[:;,]?\\s*(?:enable|not allowed as per|since Feature|\\(not recognized).*$", "");
        s = s.replaceAll("`[^`]*`", "").replaceAll("\\s+", " ").strip();
        if (s.isEmpty()) {
            return "not valid JSON";
        }
        return cut(Character.toLowerCase(s.charAt(0)) + s.substring(1));
    }

    private static String cut(String s) {
        String c = s.length() > TOKEN_CHARS * 3 ? s.substring(0, TOKEN_CHARS * 3) + "..." : s;
        return c.replaceAll("\\p{Cntrl}", "?");
    }
}
