package dev.loommcp;

/**
 * The server no longer knows the session a request was sent in (Streamable HTTP: HTTP 404 for a request that carried
 * {@code Mcp-Session-Id}, or a 400 whose JSON-RPC error says the session is unknown, as servers on the TypeScript SDK
 * answer). A transport throws it from {@code send} (or fails the request with it) after dropping the
 * session; it never re-initialises by itself.
 *
 * <p>The client then starts a new session, once per expired session however many calls saw the expiry, with the
 * same checks as {@code connect()} (a failure of that renewal fails the call, the client stays usable and the next
 * expiry tries again), fires the session-restarted listener, and sends the request once more only when that is
 * safe: {@code ping}, {@code tools/list}, {@code resources/list}, {@code resources/templates/list},
 * {@code prompts/list}, {@code resources/read}, {@code prompts/get}, {@code completion/complete},
 * {@code logging/setLevel}, {@code resources/subscribe}, {@code resources/unsubscribe}, and {@code tools/call} of a
 * tool whose last listing declared {@code annotations.idempotentHint: true}. A caller sees this exception when the
 * request was not sent again (it may have taken effect in the old session, so repeating it is the caller's decision:
 * {@link RequestOptions.Builder#resendOnSessionExpiry(boolean)} decides per call) or when it expired a second time;
 * later calls run in the new session.
 */
public class McpSessionExpiredException extends McpTransportException {

    /**
     * Creates the exception.
     *
     * @param message what expired, naming the request (never the session id)
     */
    public McpSessionExpiredException(String message) {
        super(message, null);
    }
}
