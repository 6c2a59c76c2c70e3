package dev.loommcp.auth.internal;

/**
 * Server- or user-supplied text made fit for an exception message: visible ASCII and spaces only (anything else
 * becomes {@code ?}), bounded in length. Callers decide separately whether the text may hold a secret. Stateless.
 */
final class SafeText {

    /** The longest text quoted, in characters. */
    static final int MAX = 200;

    private SafeText() {
    }

    /**
     * @param s the text, or {@code null}
     * @return {@code "s"} cleaned and cut to {@value #MAX} characters (with "..." when cut), or {@code null} as
     *         {@code "null"}
     */
    static String quote(String s) {
        if (s == null) {
            return "null";
        }
        return '"' + clean(s) + '"';
    }

    /** @return {@code s} with characters outside %x20-7E replaced by {@code ?}, cut to {@value #MAX} characters */
    static String clean(String s) {
        int n = Math.min(s.length(), MAX);
        StringBuilder sb = new StringBuilder(n + 3);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            sb.append(c >= 0x20 && c <= 0x7e ? c : '?');
        }
        if (s.length() > MAX) {
            sb.append("...");
        }
        return sb.toString();
    }
}
