package dev.loommcp.testing;

import dev.loommcp.event.McpClientListener;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.schema.LoggingMessageNotification;
import java.util.function.Consumer;

/** A {@link McpClientListener} for tests, assembled from lambdas: {@code new Listen().notifications(n -> ...)}. */
public final class Listen implements McpClientListener {
    private Consumer<JsonRpcMessage.Notification> notifications = n -> { };
    private Runnable toolsChanged = () -> { };
    private Consumer<LoggingMessageNotification> logs = m -> { };
    private Runnable restarts = () -> { };

    public Listen notifications(Consumer<JsonRpcMessage.Notification> c) {
        this.notifications = c;
        return this;
    }

    public Listen toolsChanged(Runnable r) {
        this.toolsChanged = r;
        return this;
    }

    public Listen logs(Consumer<LoggingMessageNotification> c) {
        this.logs = c;
        return this;
    }

    public Listen restarts(Runnable r) {
        this.restarts = r;
        return this;
    }

    @Override
    public void onNotification(JsonRpcMessage.Notification notification) {
        notifications.accept(notification);
    }

    @Override
    public void onToolsListChanged() {
        toolsChanged.run();
    }

    @Override
    public void onLog(LoggingMessageNotification message) {
        logs.accept(message);
    }

    @Override
    public void onSessionRestarted() {
        restarts.run();
    }
}
