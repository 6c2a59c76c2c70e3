package dev.loommcp.tasks;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The state of one task's handle that changes as the task is driven, with the lock that guards it and the condition
 * its waiters park on: the last snapshot, the failure that ended every wait, how many wait, and the poll
 * bookkeeping. The job classes of the handle ({@link TaskHandle} itself, {@link TaskDelivery}, {@link TaskPolls},
 * {@link TaskWait}) read and change it under {@link #lock} only, and call no user code or store while holding it.
 */
final class TaskState {

    final ReentrantLock lock = new ReentrantLock();
    final Condition changed = lock.newCondition();

    // guarded by lock
    TaskSnapshot snapshot;
    RuntimeException failure;
    int awaiters;
    boolean scheduled;
    boolean polling;
    long lastPollNanos;
    int backoffShift;
    int failedPolls;
    long polls;
    /** The status is not yet known from the server (a handle made from an id): the first poll goes out at once. */
    boolean statusUnknown;
    /** Made from an id and the server has not answered a poll of it yet: a refused first poll fails the waiters. */
    boolean neverHeard;
    /** The store is to hear no more of the task: its end or its removal is queued (or told) already. */
    boolean recordFinal;

    TaskState(TaskSnapshot first) {
        this.snapshot = first;
        this.lastPollNanos = System.nanoTime();
    }

    /** The last snapshot, read under the lock. */
    TaskSnapshot snapshot() {
        lock.lock();
        try {
            return snapshot;
        } finally {
            lock.unlock();
        }
    }

    /** Wakes every waiter (a change, a token that fired, the client's close). */
    void wake() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
