package dev.loommcp.event;

import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.schema.LoggingMessageNotification;
import dev.loommcp.McpClient;
import dev.loommcp.McpSessionExpiredException;
import dev.loommcp.policy.CircuitStateChange;

/**
 * Receives what a server tells the client on its own initiative: notifications, tool-list changes, log messages and
 * session restarts; and the changes of the client's circuit breaker. Set one with {@link McpClient.Builder#listener(McpClientListener)}; every method has a default
 * that does nothing, so an implementation overrides only what it needs.
 *
 * <p>Methods are called on the client's event thread ({@code mcp-events-N}), one at a time, in arrival order; they
 * should return promptly and may call the client (for example to list tools again, or to close it). Events that wait
 * for the listener are bounded ({@link McpClient.Builder#listenerQueueCapacity},
 * {@link McpClient.Builder#listenerQueueBytes}); beyond that the oldest are dropped and counted
 * ({@link McpClient#droppedEventCount()}). Whatever a method throws, {@link Error}s included, is logged at
 * {@code WARNING} (without its message) and ignored: the next event is still delivered.
 */
public interface McpClientListener {

    /**
     * Called for each server notification except {@code notifications/progress} and {@code notifications/cancelled},
     * which the client handles itself; also for the notifications that have a method of their own here (tool list
     * changed, log message), after that method.
     *
     * @param notification the notification as received
     */
    default void onNotification(JsonRpcMessage.Notification notification) {
    }

    /**
     * Called for {@code notifications/tools/list_changed}: the server's tool list changed. Until the tools are
     * listed again, output-schema checks are skipped for the stale definitions.
     */
    default void onToolsListChanged() {
    }

    /**
     * Called for each {@code notifications/message}: a log message of the server (see
     * {@link McpClient#setLoggingLevel}). A malformed one is logged and skipped here ({@link #onNotification} still
     * gets it).
     *
     * @param message the log message
     */
    default void onLog(LoggingMessageNotification message) {
    }

    /**
     * Called when the client started a new session after the transport reported the old one expired ({@link
     * McpSessionExpiredException}; Streamable HTTP: the server answered 404 and the client ran the handshake again).
     * Subscriptions of the old session are gone.
     */
    default void onSessionRestarted() {
    }

    /**
     * Called when the client's circuit breaker changed state ({@link McpClient.Builder#resilience}; the change is
     * queued when it happens and told here in order). Never called for a client without a breaker.
     *
     * @param change the states before and now, and for an opening the failure that opened it
     */
    default void onCircuitStateChanged(CircuitStateChange change) {
    }
}
