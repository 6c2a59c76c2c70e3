package dev.loommcp.internal.scope;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/** Tasks for the scope tests: forks that block until cancelled, or that are slow to react to a cancel. */
public final class Forks {

    private Forks() {
    }

    /**
     * A task that counts down {@code started}, then blocks until interrupted, counting the interrupt and rethrowing it.
     *
     * @param started    counted down when the task runs
     * @param interrupts counts the interrupts seen
     * @param <T>        the (never produced) result type
     * @return the task
     */
    public static <T> Callable<T> blockUntilInterrupted(CountDownLatch started, AtomicInteger interrupts) {
        return () -> {
            started.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupts.incrementAndGet();
                throw e;
            }
            throw new AssertionError("unreachable");
        };
    }

    /**
     * Sleeps for {@code d}, ignoring interrupts meanwhile (the status is set again at the end): a fork slow to react
     * to a cancel.
     *
     * @param d how long
     */
    public static void sleepIgnoringInterrupts(Duration d) {
        long end = System.nanoTime() + d.toNanos();
        boolean interrupted = false;
        long left;
        while ((left = end - System.nanoTime()) > 0) {
            try {
                Thread.sleep(Duration.ofNanos(left));
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
