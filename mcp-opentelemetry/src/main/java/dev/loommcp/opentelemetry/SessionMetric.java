package dev.loommcp.opentelemetry;

import dev.loommcp.event.McpEventListener;
import dev.loommcp.intercept.McpConnection;
import dev.loommcp.jsonrpc.RequestId;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.metrics.DoubleHistogram;
import org.jspecify.annotations.Nullable;

import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code mcp.client.session.duration} of one client: from the first request it sends (the handshake's
 * {@code initialize} or {@code server/discover}) until its transport closes, with {@code error.type} when it closed
 * for a failure (the class name of the cause), and the connection's attributes as the client's first intercepted
 * request saw them ({@link #note}). It is the client's {@link McpEventListener}. Thread-safe.
 */
final class SessionMetric implements McpEventListener {

    private static final long NOT_STARTED = Long.MIN_VALUE;

    private final DoubleHistogram duration;
    private final AtomicLong start = new AtomicLong(NOT_STARTED);
    private volatile @Nullable McpConnection connection;

    SessionMetric(DoubleHistogram duration) {
        this.duration = duration;
    }

    @Override
    public void requestStart(String method, RequestId id) {
        if (start.get() == NOT_STARTED) {
            start.compareAndSet(NOT_STARTED, System.nanoTime());
        }
    }

    /** Notes the client's connection (the first time; it is the same object for the client's life). */
    void note(McpConnection seen) {
        if (connection == null) {
            connection = seen;
        }
    }

    @Override
    public void transportClosed(@Nullable Throwable cause) {
        long started = start.getAndSet(NOT_STARTED);
        if (started == NOT_STARTED) {
            return; // never sent anything: no session
        }
        AttributesBuilder attributes = Attributes.builder();
        McpConnection seen = connection;
        if (seen != null) {
            Conventions.putConnection(attributes, seen);
        }
        if (cause != null) {
            attributes.put(Conventions.ERROR_TYPE, cause.getClass().getName());
        }
        duration.record((System.nanoTime() - started) / 1e9, attributes.build());
    }
}
