package dev.loommcp.internal.session.base;

import dev.loommcp.internal.concurrent.BoundedQueue;
import dev.loommcp.internal.concurrent.UserCode;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The listener event loop a session owns: listener calls queue here (bounded by count and bytes, dropping the
 * oldest) and run one at a time on the client's event thread ({@code mcp-events-N}), whatever they throw.
 */
public final class EventLoop {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");
    /** What a listener event without a message (list changed, session restarted) counts in the byte budget. */
    public static final long SMALL_EVENT_BYTES = 64;

    private final BoundedQueue<Runnable> events;
    private final AtomicLong droppedEvents;
    private final int capacity;
    private final long bytes;
    private final Supplier<String> describe;
    private final BooleanSupplier closed;
    private volatile Thread thread;

    /**
     * A loop whose queue holds at most {@code capacity} events and {@code bytes} estimated bytes; what it drops is
     * counted in {@code droppedEvents}; nothing is queued once {@code closed} says so.
     */
    public EventLoop(int capacity, long bytes, AtomicLong droppedEvents, Supplier<String> describe,
                     BooleanSupplier closed) {
        this.events = new BoundedQueue<>(capacity, bytes, droppedEvents);
        this.droppedEvents = droppedEvents;
        this.capacity = capacity;
        this.bytes = bytes;
        this.describe = describe;
        this.closed = closed;
    }

    /** The event thread, or {@code null} before {@link #start()}. */
    Thread thread() {
        return thread;
    }

    /** Queues a listener call that counts {@code size} bytes, unless the client is closed. */
    public void dispatch(Runnable r, long size) {
        if (closed.getAsBoolean()) {
            return;
        }
        int dropped = events.offer(r, size);
        if (dropped > 0) {
            // listeners fell far behind a flood of notifications: drop the oldest rather than grow without bound
            long total = droppedEvents.get();
            if (total == dropped || (total - dropped) / 10_000 != total / 10_000) {
                LOG.log(System.Logger.Level.WARNING, () -> "listeners of the client for " + describe.get()
                        + " fell behind (more than " + capacity + " events or " + bytes
                        + " bytes queued); " + total + " events dropped so far");
            }
        }
    }

    /** Starts the loop's thread through {@code starter} (the client's: a fork of its scope). */
    public void start(java.util.function.BiFunction<String, Runnable, Thread> starter) {
        thread = starter.apply("events", () -> {
            while (!closed.getAsBoolean()) {
                Runnable r;
                try {
                    r = events.take();
                } catch (InterruptedException e) {
                    if (closed.getAsBoolean()) {
                        return;
                    }
                    continue;
                }
                try {
                    r.run();
                } catch (Throwable t) {
                    // Errors included: a failing listener must not end the loop for the others
                    UserCode.failed(LOG, "a listener of the client for " + describe.get(), t);
                }
                Thread.interrupted(); // a listener's stray interrupt must not end the loop
            }
        });
    }
}
