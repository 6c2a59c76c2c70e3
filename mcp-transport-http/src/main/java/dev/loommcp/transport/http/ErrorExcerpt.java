package dev.loommcp.transport.http;

import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A short, one-line excerpt of an error answer's body for an exception message: an HTML page's {@code <title>} (or
 * its text without tags, scripts and styles), any other text as it is; whitespace runs made one space, control,
 * format and bidirectional characters escaped as {@code \\uXXXX}, at most {@value #MAX_CHARS} characters. The body is
 * the server's text (never anything the client sent); it is never logged above TRACE. Stateless.
 */
final class ErrorExcerpt {

    /** The most characters of an excerpt. */
    static final int MAX_CHARS = 200;
    /** The most bytes read from an error body for its excerpt (an HTML page's title may come after its head). */
    static final int MAX_BYTES = 8 * 1024;

    private static final Pattern TITLE = Pattern.compile("<title[^>]*>(.*?)</title", Pattern.CASE_INSENSITIVE
            | Pattern.DOTALL);
    private static final Pattern HIDDEN = Pattern.compile("<(script|style|head)\\b.*?(</\\1\\s*>|\\z)",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern TAG = Pattern.compile("<[^>]*>?|<!--.*?(-->|\\z)", Pattern.DOTALL);

    private ErrorExcerpt() {
    }

    /**
     * The excerpt of a body, or {@code null} when there is nothing readable to show.
     *
     * @param body      the first bytes of the body (at most {@link #MAX_BYTES} used)
     * @param mediaType the answer's media type ({@link Exchange#mediaType}), lower case
     * @return the excerpt, one line, at most {@value #MAX_CHARS} characters plus "..."; or {@code null}
     */
    static String of(byte[] body, String mediaType) {
        if (body == null || body.length == 0 || !textual(mediaType)) {
            return null;
        }
        String text = utf8(body);
        if (text == null) {
            return null; // not text, whatever the header said
        }
        boolean html = mediaType.contains("html") || text.stripLeading().startsWith("<");
        if (html) {
            Matcher t = TITLE.matcher(text);
            String title = t.find() ? oneLine(entities(TAG.matcher(t.group(1)).replaceAll(" "))) : "";
            text = !title.isEmpty() ? title
                    : entities(TAG.matcher(HIDDEN.matcher(text).replaceAll(" ")).replaceAll(" "));
        }
        String line = oneLine(text);
        return line.isEmpty() ? null : escapeAndCut(line);
    }

    /** Whether a media type may hold text worth showing (none at all is taken as text). */
    private static boolean textual(String t) {
        return t.isEmpty() || t.startsWith("text/") || Exchange.isJson(t) || t.endsWith("+xml")
                || t.equals("application/xml") || t.equals("application/problem+json");
    }

    /** The bytes as UTF-8, a sequence cut at the end forgiven; {@code null} when they are not UTF-8 text. */
    private static String utf8(byte[] body) {
        int n = Math.min(body.length, MAX_BYTES);
        try {
            String s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body, 0, n)).toString();
            return s.indexOf('\0') >= 0 ? null : s;
        } catch (java.nio.charset.CharacterCodingException e) {
            // a sequence cut by the byte limit: decode leniently; anything else is not text
            String s = new String(body, 0, n, StandardCharsets.UTF_8);
            int bad = (int) s.chars().filter(c -> c == 0xFFFD).count();
            return bad > 3 || s.indexOf('\0') >= 0 ? null : s;
        }
    }

    private static String oneLine(String s) {
        return s.replaceAll("\\s+", " ").strip();
    }

    private static String entities(String s) {
        return s.replace("&nbsp;", " ").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"")
                .replace("&#39;", "'").replace("&apos;", "'").replace("&amp;", "&");
    }

    private static String escapeAndCut(String s) {
        StringBuilder b = new StringBuilder(Math.min(s.length(), MAX_CHARS) + 16);
        int chars = 0;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            if (chars >= MAX_CHARS) {
                return b.append("...").toString();
            }
            int type = Character.getType(cp);
            if (type == Character.CONTROL || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                    || type == Character.PARAGRAPH_SEPARATOR || type == Character.PRIVATE_USE
                    || type == Character.SURROGATE || type == Character.UNASSIGNED) {
                String hex = Integer.toHexString(cp).toUpperCase(Locale.ROOT);
                b.append("\\u").append("0".repeat(Math.max(0, 4 - hex.length()))).append(hex);
            } else {
                b.appendCodePoint(cp);
            }
            chars++;
        }
        return b.toString();
    }
}
