package dev.loommcp.internal.scope;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What a {@link Scope} needs only once something waits on it, registers a cancel action, forks or opens a scope under it:
 * the lock and condition of its waiters, its cancel actions, its children, its threads. A scope makes it on first use, so a
 * request's scope that none of that touches costs no more than its own fields. Thread-safe.
 */
final class ScopeExtras {

    final ReentrantLock lock = new ReentrantLock();
    final Condition changed = lock.newCondition();
    final ConcurrentLinkedQueue<Runnable> actions = new ConcurrentLinkedQueue<>();
    final Set<Scope<?, ?>> children = ConcurrentHashMap.newKeySet();
    /** The scope's threads: its executors, made on the first fork of each kind. */
    final ForkThreads threads = new ForkThreads();

    /** Wakes every thread waiting on {@link #changed}. */
    void signalAll() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
