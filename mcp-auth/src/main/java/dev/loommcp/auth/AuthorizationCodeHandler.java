package dev.loommcp.auth;

import dev.loommcp.Deadline;
import java.io.IOException;
import java.net.URI;

/**
 * Lets a user (or an automated approver) complete an authorization-code grant (OAuth 2.1 section 4.1): the client
 * hands over the authorization URL, and the handler returns the redirect URI the authorization server sent the
 * user agent back to, with its {@code code}, {@code state} and (RFC 9207) {@code iss} query parameters, or its
 * {@code error}. The client checks {@code state} and {@code iss} itself; the handler need not.
 *
 * <p>{@link LoopbackReceiver} serves desktop and CLI use (RFC 8252 loopback redirect);
 * {@link #nonInteractive(URI)} serves authorization servers that approve without a user (tests, the conformance
 * suite). Implementations must be thread-safe; {@link McpOAuth} never runs two authorizations for one resource at
 * once.
 *
 * <p>Implements MCP "Authorization" section "Authorization Code Grant" (seed feature: OAuth authorization).
 */
public interface AuthorizationCodeHandler {

    /**
     * The redirect URI registered for the client and sent in every authorization and token request. Must stay the
     * same for the handler's life (a loopback receiver's port included).
     *
     * @return the redirect URI, absolute
     */
    URI redirectUri();

    /**
     * Runs one authorization: open (or show) {@code authorizationUrl}, wait for the redirect to
     * {@link #redirectUri()} carrying {@code state}, and return it.
     *
     * @param authorizationUrl the authorization request URL (contains the PKCE challenge and {@code state}; no secret)
     * @param state            the {@code state} value the redirect must carry
     * @param deadline         how long the client waits at most ({@link Deadline#NONE}: no bound of its own)
     * @return the full redirect URI received (query included)
     * @throws IOException          if the authorization could not be run (the receiver failed, the server answered
     *                              other than with a redirect)
     * @throws InterruptedException if interrupted while waiting
     * @throws McpAuthorizationException if the user did not complete it before {@code deadline}
     */
    URI authorize(URI authorizationUrl, String state, Deadline deadline) throws IOException, InterruptedException;

    /**
     * A handler for authorization servers that approve at once: it sends a GET to the authorization URL without
     * following redirects and returns the {@code Location} of the 302/303 answer. For tests and automated
     * environments (the conformance suite's authorization server works so); never for a real user.
     *
     * @param redirectUri the redirect URI to register and send (nothing needs to listen there)
     * @return the handler
     * @throws NullPointerException     if {@code redirectUri} is {@code null}
     * @throws IllegalArgumentException if it is not absolute
     */
    static AuthorizationCodeHandler nonInteractive(URI redirectUri) {
        return dev.loommcp.auth.internal.NonInteractiveHandler.create(redirectUri);
    }
}
