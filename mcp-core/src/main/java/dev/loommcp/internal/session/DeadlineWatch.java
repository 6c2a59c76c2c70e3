package dev.loommcp.internal.session;

import dev.loommcp.Deadline;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Ends the calls of one session whose deadline passed, from one background virtual thread, so that a caller can wait
 * for its answer without a timer of its own.
 *
 * <p>Why: a timed wait on a virtual thread ({@code future.get(timeout)}) registers a timer with the JDK's delay
 * scheduler and cancels it when the answer comes, which wakes the scheduler's thread and costs several microseconds
 * of CPU per call, about a fifth of a sequential stdio call. Here a call only records its deadline in its
 * {@link PendingCall} (already in the session's pending map); the watcher sleeps until the earliest deadline it knows
 * of and is woken early only when a call arrives with an earlier one. Calls of equal timeouts made one after another
 * therefore cost no wake-up at all; the watcher wakes about once per timeout period while calls are in flight, and
 * never while none is.
 *
 * <p>A call whose deadline passes is failed with {@link PendingCall.Expired}, which {@link PendingCall#await} turns
 * into the same timeout exception as a timed wait would. The deadline is the same; how late the failure comes is the
 * watcher's wake-up latency (a timed park), as it was the caller's own before.
 *
 * <p>Thread-safe. The watcher thread starts with the first watched call and ends when the session closes
 * ({@link ClientLife#startBackground}: interrupted and joined at release).
 */
final class DeadlineWatch {

    private final Map<Long, PendingCall> pending;
    private final ClientLife life;
    private final ReentrantLock startLock = new ReentrantLock();
    private volatile Thread watcher;
    /** Whether the watcher sleeps until {@link #wakeAt} (then a later deadline needs no wake-up). */
    private volatile boolean armed;
    /** The deadline the watcher sleeps until; meaningful only while {@link #armed}. */
    private volatile Deadline wakeAt = Deadline.NONE;
    /** How many times the watcher looked at the pending calls (for tests: calls must not wake it one by one). */
    private final AtomicLong scans = new AtomicLong();

    DeadlineWatch(Map<Long, PendingCall> pending, ClientLife life) {
        this.pending = pending;
        this.life = life;
    }

    /**
     * Watches {@code p} (already in the pending map) until it leaves the map: fails it with
     * {@link PendingCall.Expired} once {@code deadline} (not {@link Deadline#NONE}) passes. When the client closed
     * meanwhile, {@code p} stays unwatched and its caller waits with a timeout of its own ({@link PendingCall#watched}
     * stays {@code false}).
     */
    void watch(PendingCall p, Deadline deadline) {
        p.watchedDeadline = deadline;
        p.watched = true; // after the deadline: the watcher reads them in this order's reverse
        Thread w = watcher;
        if (w == null) {
            w = start();
            if (w == null) {
                p.watched = false;
                return;
            }
        }
        // the watcher sets armed to false before it scans: either its scan sees this call, or it slept (or will)
        // until a wakeAt that this call's deadline is compared with here
        if (!armed || deadline.compareTo(wakeAt) < 0) {
            LockSupport.unpark(w);
        }
    }

    private Thread start() {
        startLock.lock();
        try {
            if (watcher == null && !life.isClosed()) {
                watcher = life.startBackground("deadlines", this::run);
            }
            return watcher;
        } finally {
            startLock.unlock();
        }
    }

    private void run() {
        while (!Thread.currentThread().isInterrupted() && !life.isClosed()) {
            armed = false;
            scans.incrementAndGet();
            Deadline earliest = null;
            for (PendingCall p : pending.values()) {
                if (!p.watched) {
                    continue;
                }
                Deadline d = p.watchedDeadline;
                if (d.isExpired()) {
                    p.future.completeExceptionally(PendingCall.Expired.INSTANCE);
                } else if (earliest == null || d.compareTo(earliest) < 0) {
                    earliest = d;
                }
            }
            if (earliest != null) {
                wakeAt = earliest;
                armed = true;
                LockSupport.parkNanos(this, earliest.remainingNanos());
            } else {
                LockSupport.park(this);
            }
        }
    }

    /** How many times the watcher has looked at the pending calls so far. */
    long scans() {
        return scans.get();
    }
}
