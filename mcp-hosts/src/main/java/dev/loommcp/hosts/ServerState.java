package dev.loommcp.hosts;

/**
 * The state of one server in a registry ({@link McpServers}). A server starts in {@link #IDLE}; a start goes through
 * {@link #CONNECTING} to {@link #READY} or {@link #FAILED}; a crash of a ready server leads to {@link #RESTARTING}
 * and from there to {@link #READY} again or, when the restart policy gives up, {@link #FAILED}; {@link #CLOSED} is
 * final. Every change is reported to the registry's {@link McpServersListener}.
 */
public enum ServerState {
    /** Not started yet (a lazy registry starts a server on its first use). */
    IDLE,
    /** Starting: the transport opens and the client connects, within the server's startup deadline. */
    CONNECTING,
    /** Connected and its tools listed: calls are served. */
    READY,
    /** Its connection failed (the stdio process exited, the client gave up on the HTTP connection); waiting out the
     *  backoff before the next start. Calls wait for it within their own deadline. */
    RESTARTING,
    /** It could not be started, or the restart policy gave up; calls fail at once. */
    FAILED,
    /** The registry was closed. */
    CLOSED;

    /**
     * Tells whether the state is final for the registry's life ({@link #FAILED} and {@link #CLOSED}).
     *
     * @return whether no further change will come (except {@code FAILED} to {@code CLOSED})
     */
    public boolean isTerminal() {
        return this == FAILED || this == CLOSED;
    }
}
