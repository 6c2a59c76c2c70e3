package dev.loommcp.hosts;

/**
 * Receives every state change of every server of a registry. Set one with
 * {@link McpServers.Builder#listener(ServerStateListener)}.
 *
 * <p>Called on the registry's threads ({@code mcp-hosts-*}) or on the thread that caused the change (a caller that
 * started a lazy server, the closing thread), one change of a server at a time and in order for that server; changes
 * of different servers may be reported concurrently, so an implementation must be thread-safe. It must be quick and
 * must not wait for the registry. Whatever it throws is logged at {@code WARNING} (class only) and ignored.
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
