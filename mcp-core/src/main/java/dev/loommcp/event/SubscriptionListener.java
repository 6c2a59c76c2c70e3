package dev.loommcp.event;

import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.McpClosedException;
import dev.loommcp.McpException;
import org.jspecify.annotations.Nullable;

/**
 * Receives what a {@link Subscription} delivers. Every method has an empty default: implement what you need. Called
 * on the client's listener thread, one event at a time in arrival order (like {@link McpClientListener}); a slow
 * listener delays later events of this client, never the transport. A listener that throws (an {@link Error}
 * included) is logged and the subscription goes on. One exception to the thread: when the client closes,
 * {@link #onEnded} runs on the thread that closes it, after the listener thread ended (events still queued then are
 * not delivered).
 */
public interface SubscriptionListener {

    /** The server's tool list changed ({@code notifications/tools/list_changed}); list the tools again. */
    default void onToolsListChanged() {
    }

    /** The server's prompt list changed ({@code notifications/prompts/list_changed}). */
    default void onPromptsListChanged() {
    }

    /** The server's resource list changed ({@code notifications/resources/list_changed}). */
    default void onResourcesListChanged() {
    }

    /**
     * A subscribed resource changed ({@code notifications/resources/updated}); read it again.
     *
     * @param uri the resource's URI
     */
    default void onResourceUpdated(String uri) {
    }

    /**
     * Any notification of this subscription, including the ones above and kinds this interface does not name (such
     * as {@code notifications/tasks}), after the specific method was called (even when that one threw). The
     * acknowledgment is not delivered here: it is {@link Subscription#acknowledged()}.
     *
     * @param notification the notification as received
     */
    default void onNotification(JsonRpcMessage.Notification notification) {
    }

    /**
     * The stream of the subscription broke (the HTTP response stream ended, the server process was restarted); the
     * client re-establishes it with backoff, then calls {@link #onReestablished}. Notifications sent while it was
     * down are lost: re-read what matters.
     *
     * @param cause what broke it
     */
    default void onInterrupted(McpException cause) {
    }

    /**
     * The subscription is active again after {@link #onInterrupted}, with what the server acknowledged this time.
     *
     * @param acknowledged the acknowledged filter
     */
    default void onReestablished(SubscriptionFilter acknowledged) {
    }

    /**
     * The subscription ended for good: the server ended it, the client gave up re-establishing it, the client was
     * closed, or {@link Subscription#close()} was called. Called once, last; never for a subscription whose
     * {@code listen} call threw.
     *
     * @param cause why, or {@code null} when it was closed by the caller (the subscription or the client) or ended
     *              normally by the server (a result for the listen request, or its {@code notifications/cancelled});
     *              otherwise the failure: the last one of the re-establishing attempts, the server's error answer,
     *              or an {@link McpClosedException} whose cause is the loss of the transport
     */
    default void onEnded(@Nullable McpException cause) {
    }
}
