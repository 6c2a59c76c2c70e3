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
 *
 * <p>A request the transport refused without sending it, because the session had expired already and the new one
 * was not started yet ({@link #wasSent()} {@code false}), cannot have taken effect: the client waits for the new
 * session (within the call's deadline) and sends it there whatever the replay policy. Over Streamable HTTP a 404 to
 * any request that carried the session (a POST, the GET that resumes a response stream, the GET stream) counts as
 * the expiry; no request goes out without a session while the new one starts.
 */
public class McpSessionExpiredException extends McpTransportException {

    private final boolean sent;

    /**
     * Creates the exception for a request that was sent in the expired session.
     *
     * @param message what expired, naming the request (never the session id)
     */
    public McpSessionExpiredException(String message) {
        this(message, true);
    }

    /**
     * Creates the exception.
     *
     * @param message what expired, naming the request (never the session id)
     * @param sent    whether the request reached the server in the expired session ({@code false}: the transport
     *                refused it unsent, since the session had expired already)
     */
    public McpSessionExpiredException(String message, boolean sent) {
        super(message, null);
        this.sent = sent;
    }

    /**
     * Returns whether the request went out in the expired session (and so may have taken effect there).
     *
     * @return {@code false} when the transport refused it unsent
     */
    public boolean wasSent() {
        return sent;
    }
}
