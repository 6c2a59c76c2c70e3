package dev.loommcp.transport.http;

import java.util.Map;

/**
 * Authorizes the HTTP requests of an {@link HttpTransport} (MCP "Authorization": OAuth 2.1 bearer or DPoP-bound access
 * tokens, RFC 6750 / RFC 9449). The transport asks it for credentials on every request it makes (each POST, the GET
 * stream and its reconnections, resumption GETs, the closing DELETE, and every hop of a followed redirect), and hands
 * it the parsed challenge when the server refuses one with HTTP 401 or 403, so it can refresh its token or
 * (re)authorize; when it says so, the transport sends the request again with fresh credentials. The module
 * {@code dev.loommcp.auth} ({@code McpOAuth}) implements it; without a provider (the default) the transport adds no
 * credentials and fails a 401 or 403 with {@link McpHttpStatusException}.
 *
 * <p>Order per request: caller headers, the transport's own headers, then {@link #credentials} (replacing a caller
 * header of the same name, such as a static {@code Authorization}), then the {@link RequestSigner} (which sees the
 * credentials). A request is retried at most {@value #MAX_RETRIES} times
 * because of 401/403, whatever the provider answers; after that the last 401/403 fails it with
 * {@link McpHttpStatusException}.
 *
 * <p>Implementations must be thread-safe: requests are authorized concurrently from many (virtual) threads, on the
 * thread sending the request. They may block (a token refresh, an interactive authorization), preferably no longer
 * than {@link AuthorizationRequest#deadline()}; the transport's own wait for the response is still bounded by the
 * request's deadline, and when that deadline passes while the provider works the request is not sent: it fails with
 * {@link dev.loommcp.McpTimeoutException}. The transport never logs what they return.
 *
 * <p>Exceptions: an {@link dev.loommcp.McpException} thrown by the provider fails the request unchanged (an
 * authorization that cannot succeed should throw one naming why); an {@link InterruptedException} propagates; any
 * other runtime exception fails the request with an {@link dev.loommcp.McpTransportException} whose cause it is. In
 * every case the request is not sent (again).
 */
public interface AuthorizationProvider {

    /** How many times one request is sent again after a 401 or 403 at most: {@value}. */
    int MAX_RETRIES = 3;

    /**
     * Returns the credentials for one request: typically {@code Authorization: Bearer <token>}, or
     * {@code Authorization: DPoP <token>} plus a {@code DPoP} proof for {@link AuthorizationRequest#method()} and
     * {@link AuthorizationRequest#uri()}. Empty when the provider has no credentials yet (the server's 401 then starts
     * the authorization).
     *
     * @param request the request about to be sent
     * @return header name to value, not {@code null}; the names the transport owns and the JDK restricts are refused
     *         as for a {@link RequestSigner}
     * @throws InterruptedException if interrupted while waiting (for a refresh another thread makes, say)
     */
    Map<String, String> credentials(AuthorizationRequest request) throws InterruptedException;

    /**
     * Handles a 401 or 403 answer to a request: refresh the token, step up the scopes or authorize afresh, as the
     * challenge asks. Called at most {@value #MAX_RETRIES} times per request (see
     * {@link AuthorizationRequest#attempt()}).
     *
     * @param request the request that was refused
     * @param failure the status, the parsed {@code WWW-Authenticate} challenges and the response headers
     * @return {@code true} to send the request again (with new {@link #credentials}), {@code false} to fail it with
     *         the status
     * @throws InterruptedException if interrupted
     */
    boolean onChallenge(AuthorizationRequest request, AuthorizationFailure failure) throws InterruptedException;

    /**
     * Sees the status and headers of every response the transport receives with this provider's credentials, before
     * any other handling (a resource server may rotate its DPoP nonce in any answer: RFC 9449 section 8). The
     * default does nothing. Must not block.
     *
     * @param request the request answered
     * @param status  the HTTP status
     * @param headers the response headers (names compare without case)
     */
    default void onResponse(AuthorizationRequest request, int status, java.net.http.HttpHeaders headers) {
    }
}
