package dev.loommcp.internal.concurrent;

import java.time.Duration;

/**
 * Waits for threads to end in close paths, where an interrupt of the closing thread must not cut the wait short:
 * {@code close()} called from an interrupted thread (a task cancelled with {@code Future.cancel(true)} that closes
 * its resources) still waits, within its bound, for what it closes, and only then re-asserts the interrupt.
 */
public final class Joins {

    private Joins() {
    }

    /**
     * Joins each thread in turn until all have ended or the deadline passes. An interrupt of the calling thread,
     * pending on entry or received while waiting, does not end the wait; it is cleared and reported instead. The
     * calling thread itself, {@code null} entries and threads never started are skipped.
     *
     * @param threads       the threads to wait for
     * @param deadlineNanos the {@link System#nanoTime()} value after which to stop waiting
     * @return whether the calling thread was interrupted (on entry or while waiting); the caller must re-assert it
     *         with {@code Thread.currentThread().interrupt()} once its own close path is done
     */
    public static boolean joinAll(Iterable<Thread> threads, long deadlineNanos) {
        boolean interrupted = Thread.interrupted();
        Thread self = Thread.currentThread();
        for (Thread t : threads) {
            if (t == null || t == self) {
                continue;
            }
            while (t.isAlive()) {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    return interrupted;
                }
                try {
                    t.join(Duration.ofNanos(left));
                } catch (InterruptedException e) {
                    interrupted = true; // keep waiting within the bound; the caller re-asserts it
                }
            }
        }
        return interrupted;
    }
}
