package dev.loommcp.testing;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Bounded waits for conditions that have no event to block on (a counter going back to zero, a client becoming
 * closed). Like Awaitility, which mcp-core cannot depend on: polls with a short pause and fails with a description
 * after the bound. The bound is a safety net, never an assertion about speed.
 */
public final class Await {

    /** The default bound: generous, so that a slow shared machine never makes a test flaky. */
    public static final Duration DEFAULT = Duration.ofSeconds(10);

    private Await() {
    }

    /**
     * Waits until the condition holds, at most {@link #DEFAULT}.
     *
     * @param what      what is awaited, for the failure message
     * @param condition the condition
     * @throws AssertionError if it does not hold in time
     */
    public static void until(String what, BooleanSupplier condition) {
        until(what, DEFAULT, condition);
    }

    /**
     * Waits until the condition holds.
     *
     * @param what      what is awaited, for the failure message
     * @param max       the bound
     * @param condition the condition
     * @throws AssertionError if it does not hold in time
     */
    public static void until(String what, Duration max, BooleanSupplier condition) {
        untilValue(what, max, () -> condition.getAsBoolean() ? Boolean.TRUE : null);
    }

    /**
     * Waits until the supplier returns a non-null value and returns it.
     *
     * @param what     what is awaited
     * @param max      the bound
     * @param supplier the supplier
     * @param <T>      the type
     * @return the value
     * @throws AssertionError if none comes in time
     */
    public static <T> T untilValue(String what, Duration max, Supplier<T> supplier) {
        long end = System.nanoTime() + max.toNanos();
        while (true) {
            T v = supplier.get();
            if (v != null) {
                return v;
            }
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("timed out after " + max.toMillis() + " ms waiting for " + what);
            }
            try {
                TimeUnit.MILLISECONDS.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what, e);
            }
        }
    }

    /**
     * Waits (at most {@link #DEFAULT}) for a thread to end.
     *
     * @param what   what the thread is, for the failure message
     * @param thread the thread
     * @throws AssertionError if it is still alive after the bound
     */
    public static void ended(String what, Thread thread) {
        try {
            if (!thread.join(DEFAULT)) {
                throw new AssertionError(what + " (" + thread.getName() + ") did not end within " + DEFAULT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for " + what, e);
        }
    }
}
