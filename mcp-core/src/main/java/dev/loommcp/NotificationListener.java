package dev.loommcp;

import dev.loommcp.jsonrpc.JsonRpcMessage;

/**
 * Receives server notifications (every one but {@code notifications/progress} and {@code notifications/cancelled},
 * which the client handles itself). Called on the client's event thread, one at a time, in arrival order; it should
 * return promptly and may call the client (for example to list tools again). Whatever it throws, {@link Error}s
 * included, is logged at {@code WARNING} (without its message) and ignored: the next listener still runs.
 */
@FunctionalInterface
public interface NotificationListener {
    /**
     * Called for each notification.
     *
     * @param notification the notification
     */
    void onNotification(JsonRpcMessage.Notification notification);
}
