package dev.loommcp.internal.concurrent;

import dev.loommcp.CancellationToken;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
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
 *       interrupted or the token fires; in the last four cases it cancels the rest. A failing child cancels the
 *       scope itself, at once, whether or not the owner is in {@code join()}.</li>
 *   <li>Cancelling interrupts every child and runs the registered cancel hooks once each (to close streams or
 *       processes that ignore interrupts). A child forked after the cancel is interrupted at once (its task does
 *       not run).</li>
 *   <li>{@link #close()} always cancels and then waits for every child; no child thread outlives the scope.</li>
 * </ul>
 *
 * <p>Thread-safety: the owner-only methods check their caller; every other method is safe from any thread. The
 * deadline is enforced by {@link #join()} only: a scope whose owner does not join is cancelled by {@link #close()}.
 *
 * <p>It is the seam to swap for {@code java.util.concurrent.StructuredTaskScope} once that API is final. The shared
 * contract is checked, not claimed: the tests' {@code ScopeContractTest} runs against this class and, on a JDK 25+
 * build, against the JDK's preview {@code StructuredTaskScope}; the differences that remain are listed there.
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

    private static final System.Logger LOG = System.getLogger(RequestScope.class.getName());

    private final String name;
    private final long deadlineNanos;
    private final Thread owner;
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when a child exits, the first failure is recorded, or the scope is cancelled. */
    private final Condition changed = lock.newCondition();
    /** Started children that have not exited yet; guarded by {@link #lock}. */
    private final Set<Thread> children = new HashSet<>();
    private final ConcurrentLinkedQueue<Hook> cancelHooks = new ConcurrentLinkedQueue<>();
    private final AtomicReference<String> cancelReason = new AtomicReference<>();
    private final CancellationToken.Registration tokenRegistration;
    /** Number of entries in {@link #children}; guarded by {@link #lock}. */
    private int running;
    /** Guarded by {@link #lock}. */
    private Throwable firstFailure;
    /** Guarded by {@link #lock}. */
    private boolean closed;
    /** Set by the owner in {@link #join()} when it cancelled the scope because the deadline passed. */
    private boolean deadlineExpired;

    private RequestScope(String name, long deadlineNanos, CancellationToken token) {
        this.name = Objects.requireNonNull(name, "name");
        this.deadlineNanos = deadlineNanos;
        this.owner = Thread.currentThread();
        // last: if the token has already fired this cancels the scope at once
        this.tokenRegistration = token == null ? null : token.onCancel(() -> cancel("token"));
    }

    /**
     * Opens a scope owned by the calling thread. If {@code token} has already fired the scope starts cancelled.
     * The token's listener is removed again by {@link #close()}.
     *
     * @param name          the scope's name, used in thread names ({@code mcp-<name>-<n>}); not {@code null}
     * @param deadlineNanos the {@link System#nanoTime()} deadline, {@link Long#MAX_VALUE} for none
     * @param token         a token that cancels the scope when it fires, or {@code null}
     * @return the scope
     * @throws NullPointerException if {@code name} is {@code null}
     */
    public static RequestScope open(String name, long deadlineNanos, CancellationToken token) {
        return new RequestScope(name, deadlineNanos, token);
    }

    /**
     * Runs a task on a new virtual thread of this scope, named {@code mcp-<scope name>-<n>}. If the scope is already
     * cancelled the task is not run: the subtask fails at once with an {@link InterruptedException} (which does not
     * count as a failure for {@link #firstFailure()}). A task that throws while the scope is not cancelled becomes
     * the first failure (if it is the first) and cancels the scope at once, from its own thread.
     *
     * @param task the task, not {@code null}
     * @param <T>  its result type
     * @return the subtask, whose state is final once {@link #join()} returned or {@link #close()} returned
     * @throws WrongThreadException  if the caller is not the owner
     * @throws IllegalStateException if the scope is closed
     */
    public <T> Subtask<T> fork(Callable<? extends T> task) {
        checkOwner();
        Objects.requireNonNull(task, "task");
        Subtask<T> sub = new Subtask<>();
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("scope " + name + " is closed");
            }
            Thread t = McpThreads.newThread(name, () -> runChild(sub, task), this::childExited);
            children.add(t);
            running++;
            // Read before the start: a cancel that comes later takes its snapshot of the children after this lock
            // is released, so it interrupts t itself. Reading it after the start instead would interrupt a child
            // that has already cancelled the scope itself (a cancel never interrupts the thread that calls it).
            boolean cancelledBefore = isCancelled();
            try {
                // start under the lock so that cancel() sees the thread and an interrupt cannot precede start
                t.start();
            } catch (Throwable e) {
                children.remove(t);
                running--;
                McpThreads.discard(t);
                throw e;
            }
            if (cancelledBefore) {
                t.interrupt();
            }
        } finally {
            lock.unlock();
        }
        return sub;
    }

    private <T> void runChild(Subtask<T> sub, Callable<? extends T> task) {
        Throwable failure;
        try {
            if (isCancelled()) {
                throw new InterruptedException("scope " + name + " cancelled before the subtask started");
            }
            T v = task.call();
            sub.value = v;
            sub.state = State.SUCCESS;
            return;
        } catch (Throwable e) {
            sub.exception = e;
            sub.state = State.FAILED;
            failure = e;
        }
        boolean first;
        lock.lock();
        try {
            first = firstFailure == null && !isCancelled();
            if (first) {
                firstFailure = failure;
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
        if (first) {
            // the class only: an exception message may carry payload
            cancel("subtask " + Thread.currentThread().getName() + " failed: " + failure.getClass().getName());
        }
    }

    /** Runs on a child as its last action, after it left {@link McpThreads#live()}. */
    private void childExited() {
        lock.lock();
        try {
            children.remove(Thread.currentThread());
            running--;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until every child is done, the first child fails, the deadline passes, the owner is interrupted or the
     * scope is cancelled (by {@link #cancel(String)} or the token). In every case but the first the remaining
     * children are cancelled (they may still be finishing: {@link #close()} waits for them). A scope with no
     * running child returns at once. Called again, it reports the same outcome, except that
     * {@link Outcome#COMPLETED} can turn into another one if the scope was cancelled in between.
     *
     * @return how the wait ended: {@link Outcome#COMPLETED} (all children done and none failed first),
     *         {@link Outcome#FAILED} (see {@link #firstFailure()}), {@link Outcome#DEADLINE} (this join cancelled the
     *         scope because the deadline passed) or {@link Outcome#CANCELLED} (cancelled by anything else)
     * @throws InterruptedException  if the owner is interrupted while waiting; the scope is cancelled first
     * @throws WrongThreadException  if the caller is not the owner
     * @throws IllegalStateException if the scope is closed
     */
    public Outcome join() throws InterruptedException {
        checkOwner();
        while (true) {
            InterruptedException interrupted = null;
            boolean failed = false;
            lock.lock();
            try {
                if (closed) {
                    throw new IllegalStateException("scope " + name + " is closed");
                }
                while (true) {
                    if (firstFailure != null) {
                        failed = true;
                        break;
                    }
                    if (isCancelled()) {
                        return deadlineExpired ? Outcome.DEADLINE : Outcome.CANCELLED;
                    }
                    if (running == 0) {
                        return Outcome.COMPLETED;
                    }
                    long left = deadlineNanos == Long.MAX_VALUE ? Long.MAX_VALUE : deadlineNanos - System.nanoTime();
                    if (left <= 0) {
                        break;
                    }
                    try {
                        if (left == Long.MAX_VALUE) {
                            changed.await();
                        } else {
                            changed.awaitNanos(left);
                        }
                    } catch (InterruptedException e) {
                        interrupted = e;
                        break;
                    }
                }
            } finally {
                lock.unlock();
            }
            // cancel outside the lock: hooks run on this thread and must not run under it
            if (interrupted != null) {
                cancel("interrupted");
                throw interrupted;
            }
            if (failed) {
                cancel("a subtask failed");
                return Outcome.FAILED;
            }
            if (tryCancel("deadline")) {
                deadlineExpired = true;
                return Outcome.DEADLINE;
            }
            // something else cancelled it first: look again
        }
    }

    /**
     * Cancels the scope: interrupts every child (except the calling thread, when a child cancels its own scope) and
     * runs every cancel hook once, on the calling thread. Idempotent: only the first call has an effect and sets
     * {@link #cancelReason()}. Callable from any thread; never waits for the children.
     *
     * @param reason why, for diagnostics (it may appear in messages: no payloads, no secrets); {@code null} means
     *               "cancelled"
     */
    public void cancel(String reason) {
        tryCancel(reason);
    }

    private boolean tryCancel(String reason) {
        if (!cancelReason.compareAndSet(null, reason == null ? "cancelled" : reason)) {
            return false;
        }
        List<Thread> snapshot;
        lock.lock();
        try {
            snapshot = List.copyOf(children);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        Thread self = Thread.currentThread();
        for (Thread t : snapshot) {
            if (t != self) {
                t.interrupt();
            }
        }
        Error error = null;
        Hook hook;
        while ((hook = cancelHooks.poll()) != null) {
            try {
                hook.run();
            } catch (Error e) {
                if (error == null) {
                    error = e;
                }
            }
        }
        if (error != null) {
            throw error;
        }
        return true;
    }

    /**
     * Registers an action to run once when the scope is cancelled, on the thread that cancels it; it runs at once on
     * the calling thread if the scope already was. Every registration runs exactly once, however many threads cancel
     * at the same time. A {@link RuntimeException} thrown by the action is logged (at {@code DEBUG}, its class only)
     * and does not stop the other actions. Callable from any thread. Hooks must not block: they are meant to close
     * streams or kill processes that ignore interrupts.
     *
     * @param hook the action, not {@code null}
     * @throws NullPointerException if {@code hook} is {@code null}
     */
    public void onCancel(Runnable hook) {
        Hook h = new Hook(Objects.requireNonNull(hook, "hook"));
        cancelHooks.add(h);
        // if cancel() polled it first, it runs it; otherwise we take it back and run it
        if (isCancelled() && cancelHooks.remove(h)) {
            h.run();
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
     * Cancels the scope (a no-op when it already was, so the hooks run once in all) and waits for every child to
     * exit: when it returns, no child runs any more and none is listed by {@link McpThreads#live()}. It waits as long
     * as a child takes (a child that ignores interrupts must be stopped by a cancel hook). An interrupt received
     * while waiting does not stop the wait; it is re-asserted on the owner before returning. Removes the scope's
     * listener from its token. Idempotent.
     *
     * @throws WrongThreadException if the caller is not the owner
     */
    @Override
    public void close() {
        checkOwner();
        boolean interrupted = false;
        try {
            cancel("closed");
        } finally {
            lock.lock();
            try {
                closed = true;
                while (running > 0) {
                    try {
                        changed.await();
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
            } finally {
                lock.unlock();
            }
            if (tokenRegistration != null) {
                tokenRegistration.close();
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** A registered cancel hook; a class of its own (identity equality) so that each registration runs once. */
    private static final class Hook implements Runnable {
        private final Runnable action;

        Hook(Runnable action) {
            this.action = action;
        }

        @Override
        public void run() {
            try {
                action.run();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, () -> "cancel hook failed: " + e.getClass().getName());
            }
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
