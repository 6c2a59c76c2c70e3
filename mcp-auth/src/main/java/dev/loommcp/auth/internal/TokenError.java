package dev.loommcp.auth.internal;

/**
 * A token request that gave no tokens: either the token endpoint (or registration endpoint) refused it with an OAuth
 * error response (RFC 6749 section 5.2): the {@code error} code, the HTTP status and the {@code error_description}
 * when it holds no secret; or the server answered with success and this client refused the answer
 * ({@link #answerRefused()}: not JSON, no usable {@code access_token}, a wrong {@code token_type}, a negative
 * {@code expires_in}, ...). The message never contains a token, code, secret or assertion.
 */
public final class TokenError extends Exception {

    private static final long serialVersionUID = 1L;
    private final int status;
    private final String error;
    private final boolean answerRefused;

    /**
     * A refusal by the server.
     *
     * @param status  the HTTP status
     * @param error   the {@code error} code, or {@code null} when the body had none
     * @param message what failed, for people
     */
    public TokenError(int status, String error, String message) {
        this(status, error, message, false);
    }

    private TokenError(int status, String error, String message, boolean answerRefused) {
        super(message);
        this.status = status;
        this.error = error;
        this.answerRefused = answerRefused;
    }

    /**
     * A successful answer this client refuses.
     *
     * @param status  the HTTP status of the answer
     * @param message what is wrong with it, for people
     * @return the error ({@link #answerRefused()} true, no {@code error} code)
     */
    public static TokenError answerRefused(int status, String message) {
        return new TokenError(status, null, message, true);
    }

    /**
     * @return whether the server answered with success and this client refused the answer (rather than the server
     *         refusing the request)
     */
    public boolean answerRefused() {
        return answerRefused;
    }

    /**
     * Says who refused what, for an exception message: {@code the authorization server "X" refused the token
     * request: ...}, or {@code this client refused the answer to the token request at the authorization server "X":
     * ...}.
     *
     * @param issuer  the authorization server's issuer (quoted, cleaned)
     * @param request what was asked, for example {@code "token request"} or {@code "refresh"}
     * @return the text
     */
    public String describe(String issuer, String request) {
        String server = "the authorization server " + SafeText.quote(issuer);
        return (answerRefused ? "this client refused the answer to the " + request + " at " + server
                : server + " refused the " + request) + ": " + getMessage();
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
