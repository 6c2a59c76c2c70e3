package dev.loommcp.auth.internal;

/**
 * A token endpoint (or registration endpoint) refused a request with an OAuth error response (RFC 6749 section 5.2):
 * the {@code error} code, the HTTP status and the {@code error_description} when it holds no secret. The message
 * never contains a token, code, secret or assertion.
 */
public final class TokenError extends Exception {

    private static final long serialVersionUID = 1L;
    private final int status;
    private final String error;

    /**
     * @param status  the HTTP status
     * @param error   the {@code error} code, or {@code null} when the body had none
     * @param message what failed, for people
     */
    public TokenError(int status, String error, String message) {
        super(message);
        this.status = status;
        this.error = error;
    }

    /** @return the HTTP status */
    public int status() {
        return status;
    }

    /** @return the OAuth {@code error} code ({@code invalid_grant}, ...), or {@code null} */
    public String error() {
        return error;
    }
}
