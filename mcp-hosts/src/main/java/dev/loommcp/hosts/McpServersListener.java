package dev.loommcp.hosts;

/**
 * Hears what happens to the servers of a registry: each state change, each completed re-list of a server's tools
 * after it sent {@code notifications/tools/list_changed}, and each change of a server's circuit breaker. The registry's counterpart of the core's
 * {@link dev.loommcp.event.McpClientListener}, with the same shape: every method has an empty default, implement the
 * ones you need; the tools method bears the same name as the core's. Set one with
 * {@link McpServers.Builder#listener(McpServersListener)}.
 *
 * <p>Called on the registry's threads ({@code mcp-hosts-*}) or on a thread that changed a server's state (a caller
 * that started a lazy server, the closing thread), one change of a server at a time and in order for that server;
 * changes of different servers may be reported concurrently, so an implementation must be thread-safe. The registry
 * holds none of its locks while it calls the listener: the listener may read {@link McpServers#statuses()} (a
 * snapshot, never waiting for a server) and may even close the registry. Each server's changes are delivered by one
 * thread at a time; a change made while another thread is delivering that server's earlier ones is delivered by
 * that thread, after them, so the thread that made a change may return before the listener has heard of it. The
 * listener should be quick: while it runs, that server's later changes (or its next re-list) wait for it (other
 * servers' do not). Whatever it throws is logged at {@code WARNING} (class only) and ignored.
 */
public interface McpServersListener {

    /**
     * Called after a server changed state.
     *
     * @param change what changed
     */
    default void onStateChanged(ServerStateChange change) {
    }

    /**
     * Called after a re-list of a server's tools, caused by its {@code notifications/tools/list_changed}, completed,
     * for a host that passes the tools on to a model. Re-lists are coalesced: at most one runs per server and one
     * more waits, however many notifications arrive, so a server that sends a burst of them gets a few
     * {@code tools/list} requests and the listener is told once per completed re-list (the list may be the same: the
     * server said it changed). A re-list that failed is logged and not told.
     *
     * @param serverName the server's configured name
     */
    default void onToolsListChanged(String serverName) {
    }

    /**
     * Called after the circuit breaker of a server's connection changed state
     * ({@link McpServers.Builder#resilience(dev.loommcp.policy.ResiliencePolicy)}): opened after failures,
     * half-open for a probe, closed again. The core's {@link dev.loommcp.event.McpClientListener#onCircuitStateChanged}
     * with the server's name. A server's changes come in order; a restart starts a new breaker, closed, and tells no
     * change for that. {@link ServerStatus#circuit()} shows the state after the change by the time this is called.
     *
     * @param serverName the server's configured name
     * @param change     the states before and now, and for an opening the failure that opened it
     */
    default void onCircuitStateChanged(String serverName, dev.loommcp.policy.CircuitStateChange change) {
    }
}
