package dev.loommcp;

/**
 * The server no longer knows the session a request was sent in (Streamable HTTP: HTTP 404 for a request that carried
 * {@code Mcp-Session-Id}). The transport has dropped the session; the client starts a new one (with the same checks
 * as {@code connect()}) and sends the request once more when that is safe (see {@code McpClient}'s "session
 * expiry" notes). A caller sees this exception when the request was not resent: it may have taken effect in the
 * old session, so whether to repeat it is the caller's decision. The client stays usable: later calls run in the
 * new session.
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
