package dev.loommcp.internal.scope;

import java.util.concurrent.Callable;

/**
 * One task started in a {@link Scope}: as a {@link Subtask} (from {@code fork}, told to the scope's joiner) or as a
 * plain task (from {@code start}, whose failure goes to the thread's uncaught-exception handler). It runs with the
 * scope as the thread's current scope and tells the scope when it has run its last statement. Thread-safe.
 *
 * @param <U> the result type
 */
final class Forked<U> implements Subtask<U>, Runnable {
    private final Scope<?, ?> scope;
    private final Callable<? extends U> task;
    private final boolean subtask;
    private volatile Subtask.State state = Subtask.State.UNAVAILABLE;
    private volatile U result;
    private volatile Throwable failure;

    Forked(Scope<?, ?> scope, Callable<? extends U> task, boolean subtask) {
        this.scope = scope;
        this.task = task;
        this.subtask = subtask;
    }

    @Override
    public void run() {
        ScopeThreads.entered(scope);
        Throwable uncaught = null;
        // a subtask that completes once its scope was cancelled stays UNAVAILABLE, as the JDK's does: the join
        // reports the outcome the joiner saw, not a failure the cancel caused
        boolean wasOpen = true;
        try {
            U r = task.call();
            wasOpen = !subtask || scope.isOpen();
            result = r;
            if (wasOpen) {
                state = Subtask.State.SUCCESS;
            }
        } catch (Throwable t) {
            wasOpen = !subtask || scope.isOpen();
            failure = t;
            if (wasOpen) {
                state = Subtask.State.FAILED;
            }
            uncaught = subtask ? null : t;
        } finally {
            ScopeThreads.left();
            try {
                if (subtask && scope.isOpen() && scope.onComplete(this)) {
                    scope.cancelForJoiner();
                }
            } finally {
                scope.finished();
            }
        }
        if (uncaught instanceof RuntimeException e) { // a started task's failure: the thread's handler reports it
            throw e;
        }
        if (uncaught instanceof Error e) {
            throw e;
        }
    }

    @Override
    public Subtask.State state() {
        return state;
    }

    @Override
    public U get() {
        if (state != Subtask.State.SUCCESS) {
            throw new IllegalStateException("the subtask has no result (" + state + ")");
        }
        return result;
    }

    @Override
    public Throwable exception() {
        if (state != Subtask.State.FAILED) {
            throw new IllegalStateException("the subtask did not fail (" + state + ")");
        }
        return failure;
    }

    @Override
    public String toString() {
        return "subtask (" + state + ")";
    }
}
