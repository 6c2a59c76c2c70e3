package dev.loommcp.internal.concurrent;

import dev.loommcp.CancellationToken;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The {@code StructuredTaskScope} contract of DESIGN.md section 3, on stable Java 21 APIs.
 *
 * <ul>
 *   <li>Opened by its owner thread with a name, a deadline ({@link System#nanoTime()} based) and an optional
 *       {@link CancellationToken}.</li>
 *   <li>Only the owner forks, joins and closes; any other thread gets {@link WrongThreadException}.
 *       {@link #cancel(String)} and {@link #onCancel(Runnable)} may be called from any thread.</li>
 *   <li>{@link #fork} runs the task on a new virtual thread named {@code mcp-<scope name>-<n>}.</li>
 *   <li>{@link #join()} returns when every child is done, the first child fails, the deadline passes, the owner is
 *       interrupted or the token fires; in the last four cases it cancels the rest.</li>
 *   <li>Cancelling interrupts every child and runs the registered cancel hooks once each (to close streams or
 *       processes that ignore interrupts).</li>
 *   <li>{@link #close()} always cancels and then waits for every child; no child thread outlives the scope.</li>
 * </ul>
 *
 * <p>It is the seam to swap for {@code java.util.concurrent.StructuredTaskScope} once that API is final.
 */
public final class RequestScope implements AutoCloseable {

    /** How {@link #join()} ended. */
    public enum Outcome {
        /** Every child completed successfully. */
        COMPLETED,
        /** A child failed; the others were cancelled. {@link #firstFailure()} tells which exception. */
        FAILED,
        /** The deadline passed; the children were cancelled. */
        DEADLINE,
        /** The token fired or {@link #cancel(String)} was called; the children were cancelled. */
        CANCELLED
    }

    /** The state of one forked task. */
    public enum State {
        /** Still running. */
        RUNNING,
        /** Returned a value. */
        SUCCESS,
        /** Threw. */
        FAILED
    }

    /**
     * A forked task.
     *
     * @param <T> its result type
     */
    public static final class Subtask<T> {
        private volatile State state = State.RUNNING;
        private volatile T value;
        private volatile Throwable exception;

        private Subtask() {
        }

        /**
         * Returns the state.
         *
         * @return the state
         */
        public State state() {
            return state;
        }

        /**
         * Returns the value of a successful task.
         *
         * @return the value
         * @throws IllegalStateException if the task did not succeed
         */
        public T get() {
            if (state != State.SUCCESS) {
                throw new IllegalStateException("subtask " + state);
            }
            return value;
        }

        /**
         * Returns the exception of a failed task.
         *
         * @return the exception
         * @throws IllegalStateException if the task did not fail
         */
        public Throwable exception() {
            if (state != State.FAILED) {
                throw new IllegalStateException("subtask " + state);
            }
            return exception;
        }
    }

    private final String name;
    private final long deadlineNanos;
    private final Thread owner;
    private final ThreadFactory factory;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final List<Thread> children = new ArrayList<>();
    private final ConcurrentLinkedQueue<Runnable> cancelHooks = new ConcurrentLinkedQueue<>();
    private final AtomicReference<String> cancelReason = new AtomicReference<>();
    private final CancellationToken.Registration tokenRegistration;
    private int running;
    private Throwable firstFailure;
    private boolean closed;

    private RequestScope(String name, long deadlineNanos, CancellationToken token) {
        this.name = Objects.requireNonNull(name, "name");
        this.deadlineNanos = deadlineNanos;
        this.owner = Thread.currentThread();
        this.factory = McpThreads.factory(name);
        this.tokenRegistration = token == null ? null : token.onCancel(() -> cancel("token"));
    }

    /**
     * Opens a scope owned by the calling thread.
     *
     * @param name          the scope's name, used in thread names ({@code mcp-<name>-<n>})
     * @param deadlineNanos the {@link System#nanoTime()} deadline, {@link Long#MAX_VALUE} for none
     * @param token         a token that cancels the scope when it fires, or {@code null}
     * @return the scope
     */
    public static RequestScope open(String name, long deadlineNanos, CancellationToken token) {
        return new RequestScope(name, deadlineNanos, token);
    }

    /**
     * Runs a task on a new virtual thread of this scope.
     *
     * @param task the task
     * @param <T>  its result type
     * @return the subtask
     * @throws WrongThreadException  if the caller is not the owner
     * @throws IllegalStateException if the scope is closed
     */
    public <T> Subtask<T> fork(Callable<? extends T> task) {
        checkOwner();
        Subtask<T> sub = new Subtask<>();
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("scope " + name + " is closed");
            }
            running++;
            Thread t = factory.newThread(() -> runChild(sub, task));
            children.add(t);
            // start under the lock so that cancel() sees the thread and an interrupt cannot precede start
            t.start();
            if (isCancelled()) {
                t.interrupt();
            }
        } finally {
            lock.unlock();
        }
        return sub;
    }

    private <T> void runChild(Subtask<T> sub, Callable<? extends T> task) {
        try {
            if (isCancelled()) {
                throw new InterruptedException("scope " + name + " cancelled before start");
            }
            sub.value = task.call();
            sub.state = State.SUCCESS;
        } catch (Throwable e) {
            sub.exception = e;
            sub.state = State.FAILED;
            lock.lock();
            try {
                if (firstFailure == null && !isCancelled()) {
                    firstFailure = e;
                }
            } finally {
                lock.unlock();
            }
        } finally {
            lock.lock();
            try {
                running--;
                children.remove(Thread.currentThread());
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Waits until every child is done, the first child fails, the deadline passes, or the scope is cancelled.
     * In every case but the first the remaining children are cancelled (they may still be finishing: {@link #close()}
     * waits for them).
     *
     * @return how the wait ended
     * @throws InterruptedException if the owner is interrupted; the scope is cancelled first
     * @throws WrongThreadException if the caller is not the owner
     */
    public Outcome join() throws InterruptedException {
        checkOwner();
        lock.lock();
        try {
            while (true) {
                if (firstFailure != null) {
                    lock.unlock();
                    try {
                        cancel("a subtask failed");
                    } finally {
                        lock.lock();
                    }
                    return Outcome.FAILED;
                }
                if (isCancelled()) {
                    return Outcome.CANCELLED;
                }
                if (running == 0) {
                    return Outcome.COMPLETED;
                }
                long left = deadlineNanos == Long.MAX_VALUE ? Long.MAX_VALUE : deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    lock.unlock();
                    try {
                        cancel("deadline");
                    } finally {
                        lock.lock();
                    }
                    return Outcome.DEADLINE;
                }
                try {
                    if (left == Long.MAX_VALUE) {
                        changed.await();
                    } else {
                        changed.awaitNanos(left);
                    }
                } catch (InterruptedException e) {
                    lock.unlock();
                    try {
                        cancel("interrupted");
                    } finally {
                        lock.lock();
                    }
                    throw e;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Cancels the scope: interrupts every child and runs every cancel hook once. Idempotent, callable from any
     * thread, never blocks on the children.
     *
     * @param reason why, for diagnostics
     */
    public void cancel(String reason) {
        if (!cancelReason.compareAndSet(null, reason == null ? "cancelled" : reason)) {
            return;
        }
        List<Thread> snapshot;
        lock.lock();
        try {
            snapshot = List.copyOf(children);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        for (Thread t : snapshot) {
            t.interrupt();
        }
        Runnable hook;
        while ((hook = cancelHooks.poll()) != null) {
            try {
                hook.run();
            } catch (RuntimeException ignored) {
                // a hook's failure must not stop the others
            }
        }
    }

    /**
     * Registers an action to run when the scope is cancelled; it runs at once if the scope already was. Callable from
     * any thread. Hooks must not block.
     *
     * @param hook the action
     */
    public void onCancel(Runnable hook) {
        cancelHooks.add(hook);
        if (isCancelled() && cancelHooks.remove(hook)) {
            hook.run();
        }
    }

    /**
     * Returns whether the scope was cancelled (by {@link #cancel}, the token, the deadline, an interrupt of the
     * owner in {@link #join()}, a failed child, or {@link #close()}).
     *
     * @return whether it was cancelled
     */
    public boolean isCancelled() {
        return cancelReason.get() != null;
    }

    /**
     * Returns why the scope was cancelled.
     *
     * @return the reason, or {@code null} if it was not
     */
    public String cancelReason() {
        return cancelReason.get();
    }

    /**
     * Returns the first exception a child threw, if any.
     *
     * @return the exception or {@code null}
     */
    public Throwable firstFailure() {
        lock.lock();
        try {
            return firstFailure;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Returns the deadline.
     *
     * @return the {@link System#nanoTime()} deadline, {@link Long#MAX_VALUE} for none
     */
    public long deadlineNanos() {
        return deadlineNanos;
    }

    /**
     * Returns the scope's name.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * Cancels the scope (a no-op when it already was) and waits for every child to finish. An interrupt while
     * waiting is remembered and re-asserted after the wait; close never returns while a child runs.
     *
     * @throws WrongThreadException if the caller is not the owner
     */
    @Override
    public void close() {
        checkOwner();
        boolean interrupted = false;
        lock.lock();
        try {
            lock.unlock();
            try {
                cancel("closed");
            } finally {
                lock.lock();
            }
            closed = true;
            while (running > 0) {
                try {
                    changed.await(100, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            lock.unlock();
            if (tokenRegistration != null) {
                tokenRegistration.close();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void checkOwner() {
        if (Thread.currentThread() != owner) {
            throw new WrongThreadException("scope " + name + " is owned by " + owner.getName());
        }
    }

    @Override
    public String toString() {
        return "RequestScope[" + name + (isCancelled() ? ", cancelled: " + cancelReason.get() : "") + "]";
    }
}
