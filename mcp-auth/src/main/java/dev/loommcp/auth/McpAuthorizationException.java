package dev.loommcp.auth;

import dev.loommcp.McpTransportException;

/**
 * The authorization of an HTTP request could not be obtained: discovery failed or found metadata that must be
 * refused (a protected resource whose {@code resource} is another server, an authorization server whose
 * {@code issuer} differs from the one asked), registration or a grant was refused, the authorization response was
 * refused ({@code state} or RFC 9207 {@code iss} mismatch, an {@code error}), the user did not complete the
 * authorization in time, or the server kept refusing after the allowed number of authorizations. The message names
 * what was wrong and never contains a token, secret, key, code or assertion.
 *
 * <p>Thrown out of the call whose request needed the authorization (the client stays usable: a later call tries
 * again).
 */
public class McpAuthorizationException extends McpTransportException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what was wrong (never a secret)
     */
    public McpAuthorizationException(String message) {
        super(message);
    }

    /**
     * Creates the exception.
     *
     * @param message what was wrong (never a secret)
     * @param cause   the cause
     */
    public McpAuthorizationException(String message, Throwable cause) {
        super(message, cause);
    }
}
