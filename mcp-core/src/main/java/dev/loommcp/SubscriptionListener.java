package dev.loommcp;

import dev.loommcp.jsonrpc.JsonRpcMessage;

/**
 * Receives what a {@link Subscription} delivers. Every method has an empty default: implement what you need. Called
 * on the client's listener thread, one event at a time in arrival order (like {@link McpClientListener}); a slow
 * listener delays later events of this client, never the transport. A listener that throws is logged and the
 * subscription goes on.
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
     * Any notification of this subscription, including the ones above and kinds this interface does not name, after
     * the specific method was called.
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
     * closed, or {@link Subscription#close()} was called. Called once, last.
     *
     * @param cause why, or {@code null} when it was closed by the caller or ended normally by the server
     */
    default void onEnded(McpException cause) {
    }
}
