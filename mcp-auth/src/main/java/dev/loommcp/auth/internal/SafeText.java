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

    /**
     * Names a failure for a message: the exception's class, and its message when that quotes nothing and holds only
     * visible ASCII and spaces (an HTTP client's message may quote a header value it refused, which may be a
     * secret), cut to {@value #MAX} characters.
     *
     * @param e the failure
     * @return for example {@code "ConnectException: Connection refused"}, or the class name alone
     */
    static String reason(Throwable e) {
        String name = e.getClass().getSimpleName();
        String m = e.getMessage() == null ? "" : e.getMessage().strip();
        if (m.isEmpty() || m.chars().anyMatch(c -> c < 0x20 || c > 0x7e || c == '"' || c == '\'')) {
            return name;
        }
        return name + ": " + clean(m);
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
