package dev.loommcp.internal.session;

import dev.loommcp.Deadline;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.policy.RateLimit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A client's {@link RateLimit}: the rate as a token bucket kept as one theoretical arrival time (GCRA: a caller
 * reserves the next free slot, at most {@code burst - 1} intervals ahead of the bucket's pace, and parks until it),
 * the concurrency as a count of calls in flight with a condition the callers park on. A caller whose slot would come
 * after its deadline fails at once. Waits are {@link CallWaits}': parked, bounded by the deadline, ended by a cancel.
 * Thread-safe: one {@link ReentrantLock}, never held while anything but this state is touched.
 */
final class RatePermits {

    private final RateLimit limit;
    private final String server;
    /** Nanoseconds between two calls at the rate, or 0 for no rate. */
    private final long interval;
    /** How far ahead of the bucket's pace a call may go: {@code (burst - 1) * interval}. */
    private final long tolerance;
    private final int maxConcurrent;
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when a slot of the concurrency frees. */
    private final Condition slotFree = lock.newCondition();
    /** Never signalled but by a cancel: a caller parks on it until its reserved slot of the rate comes. */
    private final Condition turn = lock.newCondition();
    /** The theoretical arrival time of the next call (nanoTime), under {@link #lock}. */
    private long tat = System.nanoTime();
    /** Calls in flight, under {@link #lock}. */
    private int inFlight;

    RatePermits(RateLimit limit, String server) {
        this.limit = limit;
        this.server = server;
        this.interval = limit.callsPerSecond().isPresent()
                ? Math.max(1, (long) (1_000_000_000L / limit.callsPerSecond().getAsDouble())) : 0;
        this.tolerance = interval * (limit.burst() - 1L);
        this.maxConcurrent = limit.maxConcurrent().orElse(0);
    }

    /**
     * Takes a permit: waits for the call's slot of the rate, then for a slot of the concurrency; within the call's
     * deadline and cancellation. The caller calls {@link #release()} once the attempt ended.
     *
     * @throws McpTimeoutException                if the deadline passes first, or the rate's slot would come after it
     * @throws dev.loommcp.McpCancelledException if the request ends first
     * @throws InterruptedException               if the thread is interrupted
     */
    void acquire(CallWaits waits) throws InterruptedException {
        lock.lock();
        try {
            if (interval > 0) {
                awaitRate(waits);
            }
            if (maxConcurrent > 0) {
                awaitSlot(waits);
            }
        } finally {
            lock.unlock();
        }
    }

    private void awaitRate(CallWaits waits) throws InterruptedException {
        long now = System.nanoTime();
        long slot = Math.max(now, tat - tolerance);
        Deadline deadline = waits.deadline();
        if (!deadline.isNone() && slot - deadline.nanoTime() > 0) {
            throw new McpTimeoutException(waits.method() + " not sent: its turn under the rate limit of " + server + " ("
                    + limit + ") would come " + (slot - now) / 1_000_000 + " ms from now, after the call's deadline");
        }
        long reserved = Math.max(tat, slot) + interval;
        tat = reserved;
        boolean took = false;
        try {
            long left;
            while ((left = slot - System.nanoTime()) > 0) {
                waits.check(rateWhat());
                waits.await(lock, turn, left);
            }
            took = true;
        } finally {
            if (!took && tat == reserved) {
                tat -= interval; // the last reservation gives its slot back
            }
        }
    }

    private void awaitSlot(CallWaits waits) throws InterruptedException {
        boolean took = false;
        try {
            while (inFlight >= maxConcurrent) {
                waits.check("a free slot of the concurrency limit of " + server + " (" + limit + ")");
                waits.await(lock, slotFree, Long.MAX_VALUE);
            }
            inFlight++;
            took = true;
        } finally {
            if (!took && inFlight < maxConcurrent) {
                slotFree.signal(); // it may have taken a signal meant for a slot it leaves: pass it on
            }
        }
    }

    /** Gives back the concurrency slot of an attempt that ended. */
    void release() {
        if (maxConcurrent == 0) {
            return;
        }
        lock.lock();
        try {
            inFlight--;
            slotFree.signal();
        } finally {
            lock.unlock();
        }
    }

    private String rateWhat() {
        return "its turn under the rate limit of " + server + " (" + limit + ")";
    }
}
