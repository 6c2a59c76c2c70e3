package dev.loommcp.internal.session;

import dev.loommcp.event.McpEventListener;
import dev.loommcp.internal.concurrent.UserCode;
import dev.loommcp.jsonrpc.RequestId;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The event listeners of one client as one ({@code McpClient.Builder.eventListener} and {@code addEventListener}):
 * each event goes to each listener in order, each call guarded on its own by {@link UserCode}, so a listener that
 * throws neither stops the call nor keeps the next listener from hearing it. Immutable, thread-safe.
 */
public final class EventListeners implements McpEventListener {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");

    private final List<McpEventListener> listeners;

    private EventListeners(List<McpEventListener> listeners) {
        this.listeners = listeners;
    }

    /**
     * Returns the listeners as one: {@code null} for none, the listener itself for one.
     *
     * @param first the listener set with {@code eventListener}, or {@code null}
     * @param added the listeners added with {@code addEventListener}, in order
     * @return the listener, or {@code null}
     */
    public static @Nullable McpEventListener of(@Nullable McpEventListener first, List<McpEventListener> added) {
        List<McpEventListener> all = new ArrayList<>(added.size() + 1);
        if (first != null) {
            all.add(first);
        }
        all.addAll(added);
        return switch (all.size()) {
            case 0 -> null;
            case 1 -> all.getFirst();
            default -> new EventListeners(List.copyOf(all));
        };
    }

    @Override
    public void requestStart(String method, RequestId id) {
        for (McpEventListener l : listeners) {
            UserCode.run(LOG, "the event listener", () -> l.requestStart(method, id));
        }
    }

    @Override
    public void requestEnd(String method, RequestId id, Duration elapsed) {
        for (McpEventListener l : listeners) {
            UserCode.run(LOG, "the event listener", () -> l.requestEnd(method, id, elapsed));
        }
    }

    @Override
    public void requestFailed(String method, RequestId id, Duration elapsed, Throwable failure) {
        for (McpEventListener l : listeners) {
            UserCode.run(LOG, "the event listener", () -> l.requestFailed(method, id, elapsed, failure));
        }
    }

    @Override
    public void requestCancelled(String method, RequestId id, Duration elapsed, String reason) {
        for (McpEventListener l : listeners) {
            UserCode.run(LOG, "the event listener", () -> l.requestCancelled(method, id, elapsed, reason));
        }
    }

    @Override
    public void transportClosed(@Nullable Throwable cause) {
        for (McpEventListener l : listeners) {
            UserCode.run(LOG, "the event listener", () -> l.transportClosed(cause));
        }
    }
}
