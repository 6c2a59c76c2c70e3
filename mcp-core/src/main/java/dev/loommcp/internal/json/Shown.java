package dev.loommcp.internal.json;

/**
 * Server-chosen text made safe to show in a message, a log line or a {@code toString()}: control characters (C0, DEL,
 * C1, and the line and paragraph separators) escaped as {@code \}{@code uXXXX}, and the length capped with
 * {@code "..."}. Stateless.
 */
public final class Shown {

    /** The longest id shown, in characters, before {@code "..."}. */
    public static final int MAX_ID_CHARS = 64;

    private Shown() {
    }

    /**
     * An id (a task id, say) as messages show it: escaped, at most {@value #MAX_ID_CHARS} characters and
     * {@code "..."}.
     *
     * @param id the id, or {@code null}
     * @return the shown id ({@code "null"} for {@code null})
     */
    public static String id(String id) {
        return text(id, MAX_ID_CHARS);
    }

    /**
     * Text as messages show it: escaped, at most {@code max} characters of the original and {@code "..."}.
     *
     * @param text the text, or {@code null}
     * @param max  the most characters of the original shown
     * @return the shown text ({@code "null"} for {@code null})
     */
    public static String text(String text, int max) {
        if (text == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder(Math.min(text.length(), max) + 8);
        int n = Math.min(text.length(), max);
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return text.length() > max ? sb + "..." : sb.toString();
    }
}
