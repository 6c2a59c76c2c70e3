package dev.loommcp.transport.http;

import dev.loommcp.Deadline;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Counts the one-way POSTs (notifications, responses) that run on threads of their sends, bounded, so that a server
 * that accepts none cannot make the client start threads forever, and so that close can let the ones already queued
 * go out ({@link #awaitIdle}) without owning their threads (the core's request scopes do). Thread-safe.
 */
final class InFlight {

    private final AtomicInteger count = new AtomicInteger();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition idle = lock.newCondition();

    /**
     * Counts one more in flight unless {@code limit} are already.
     *
     * @return whether it was counted (then {@link #exit()} must follow)
     */
    boolean tryEnter(int limit) {
        if (count.incrementAndGet() > limit) {
            count.decrementAndGet();
            return false;
        }
        return true;
    }

    /** One fewer in flight; the last one wakes {@link #awaitIdle}. */
    void exit() {
        if (count.decrementAndGet() == 0) {
            lock.lock();
            try {
                idle.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    /** How many are in flight. */
    int count() {
        return count.get();
    }

    /**
     * Waits until none is in flight or {@code deadline} passed. An interrupt does not cut the wait short.
     *
     * @return whether the calling thread was interrupted while waiting (the caller re-asserts it)
     */
    boolean awaitIdle(Deadline deadline) {
        boolean interrupted = false;
        lock.lock();
        try {
            while (count.get() > 0) {
                long left = deadline.remainingNanos();
                if (left <= 0) {
                    break;
                }
                try {
                    idle.awaitNanos(left);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            lock.unlock();
        }
        return interrupted;
    }
}
