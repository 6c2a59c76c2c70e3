package dev.loommcp.internal.session;

import dev.loommcp.McpCancelledException;
import dev.loommcp.event.McpEventListener;
import dev.loommcp.internal.concurrent.UserCode;
import dev.loommcp.jsonrpc.RequestId;
import java.time.Duration;

/**
 * The one place that fires the application's {@link McpEventListener}: the session calls it when a request starts and
 * ends, and when the transport closed. Each call is guarded by {@link UserCode} (a throwing listener never breaks a
 * call), and with no listener set each is a single null check: no clock read, no allocation. Thread-safe (stateless
 * but for the listener).
 */
final class Events {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");

    private final McpEventListener listener;

    /**
     * Creates the events of one session.
     *
     * @param listener the application's listener, or {@code null}
     */
    Events(McpEventListener listener) {
        this.listener = listener;
    }

    /** A request is about to be sent. */
    void requestStart(String method, RequestId id) {
        if (listener != null) {
            UserCode.run(LOG, "the event listener", () -> listener.requestStart(method, id));
        }
    }

    /** A request got a successful response; {@code startNanos} is when it started ({@link System#nanoTime()}). */
    void requestEnd(String method, RequestId id, long startNanos) {
        if (listener != null) {
            Duration elapsed = since(startNanos);
            UserCode.run(LOG, "the event listener", () -> listener.requestEnd(method, id, elapsed));
        }
    }

    /**
     * A started request ends with {@code failure}: cancelled when the caller gave up (token or interrupt), failed
     * otherwise.
     *
     * @param cancelReason the reason the session gives on the wire, or {@code null} when it did not cancel
     */
    void requestFailed(String method, RequestId id, long startNanos, Throwable failure, String cancelReason) {
        if (listener == null) {
            return;
        }
        Duration elapsed = since(startNanos);
        if (failure instanceof McpCancelledException || failure instanceof InterruptedException) {
            String reason = cancelReason != null ? cancelReason
                    : failure instanceof InterruptedException ? "interrupted" : "cancelled";
            UserCode.run(LOG, "the event listener", () -> listener.requestCancelled(method, id, elapsed, reason));
        } else {
            UserCode.run(LOG, "the event listener", () -> listener.requestFailed(method, id, elapsed, failure));
        }
    }

    /** The transport was closed; {@code cause} is {@code null} when the application closed the client. */
    void transportClosed(Throwable cause) {
        if (listener != null) {
            UserCode.run(LOG, "the event listener", () -> listener.transportClosed(cause));
        }
    }

    private static Duration since(long startNanos) {
        return Duration.ofNanos(Math.max(0, System.nanoTime() - startNanos));
    }
}
