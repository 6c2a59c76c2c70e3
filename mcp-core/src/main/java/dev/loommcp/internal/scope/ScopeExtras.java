package dev.loommcp.internal.scope;

import dev.loommcp.Deadline;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * What a {@link Scope} needs only once something waits on it, registers a cancel action, forks or opens a scope under it:
 * the lock and condition of its waiters, its cancel actions, its children, its threads. A scope makes it on first use, so a
 * request's scope that none of that touches costs no more than its own fields. Also the waits on the condition (a
 * join's, a close's) and the running of the cancel actions. Thread-safe.
 */
final class ScopeExtras {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");

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

    /**
     * Waits on {@link #changed} while {@code waiting} holds, until {@code until} ({@link Deadline#NONE}: no bound):
     * a join's wait.
     *
     * @return {@code false} when the deadline passed first
     * @throws InterruptedException if the calling thread is interrupted before or while waiting
     */
    boolean await(BooleanSupplier waiting, Deadline until) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            while (waiting.getAsBoolean()) {
                if (!awaitOnce(until)) {
                    return false;
                }
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits like {@link #await} but ignores interrupts, noting them in {@code interrupted[0]} (the caller re-sets
     * the status once done): a close's wait for the forks.
     *
     * @return {@code false} when the deadline passed first
     */
    boolean awaitUninterruptibly(BooleanSupplier waiting, Deadline until, boolean[] interrupted) {
        lock.lock();
        try {
            while (waiting.getAsBoolean()) {
                try {
                    if (!awaitOnce(until)) {
                        return false;
                    }
                } catch (InterruptedException e) {
                    interrupted[0] = true;
                }
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Under the lock: one wait on {@link #changed} until {@code until}; {@code false} when it had passed. */
    private boolean awaitOnce(Deadline until) throws InterruptedException {
        if (until.isNone()) {
            changed.await();
            return true;
        }
        long left = until.remainingNanos();
        if (left <= 0) {
            return false;
        }
        changed.awaitNanos(left);
        return true;
    }

    /** Runs (and removes) the cancel actions registered so far, on the calling thread, under no lock. */
    void runActions(String scopeName) {
        Runnable r;
        while ((r = actions.poll()) != null) {
            runQuietly(r, scopeName);
        }
    }

    /** Runs a cancel action of the scope named {@code scopeName}; what it throws is logged (its class) and ignored. */
    static void runQuietly(Runnable r, String scopeName) {
        try {
            r.run();
        } catch (RuntimeException e) {
            // the class only: a message may carry what the action was handling
            LOG.log(System.Logger.Level.WARNING, "a cancel action of " + scopeName + " failed: "
                    + e.getClass().getName());
            LOG.log(System.Logger.Level.TRACE, "the cancel action's failure", e);
        }
    }
}
