package dev.loommcp.hosts;

/**
 * Receives every state change of every server of a registry. Set one with
 * {@link McpServers.Builder#listener(ServerStateListener)}.
 *
 * <p>Called on the registry's threads ({@code mcp-hosts-*}) or on a thread that changed a server's state (a caller
 * that started a lazy server, the closing thread), one change of a server at a time and in order for that server;
 * changes of different servers may be reported concurrently, so an implementation must be thread-safe. The registry
 * holds none of its locks while it calls the listener: the listener may read {@link McpServers#statuses()} (a
 * snapshot, never waiting for a server) and may even close the registry. Each server's changes are delivered by one
 * thread at a time; a change made while another thread is delivering that server's earlier ones is delivered by
 * that thread, after them, so the thread that made a change may return before the listener has heard of it. The
 * listener should be quick: while it runs, that server's later changes wait for it (other servers' do not). Whatever
 * it throws is logged at {@code WARNING} (class only) and ignored.
 */
@FunctionalInterface
public interface ServerStateListener {

    /**
     * Called after a server changed state.
     *
     * @param change what changed
     */
    void stateChanged(ServerStateChange change);
}
