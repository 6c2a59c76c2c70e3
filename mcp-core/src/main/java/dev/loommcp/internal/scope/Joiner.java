package dev.loommcp.internal.scope;

import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Decides the outcome of {@link Scope#join} and when it stops waiting, like {@code StructuredTaskScope.Joiner}.
 * {@link #onFork} is called on the forking thread, {@link #onComplete} on the fork's thread as it ends (not once
 * the scope was cancelled); both must be fast and thread-safe, and run under no lock; returning {@code true}
 * cancels the scope. {@link #result} runs on the owner at the end of {@link Scope#join}.
 *
 * @param <T> the forks' result type
 * @param <R> the join result type
 */
public interface Joiner<T, R> {

    /**
     * Called when a subtask is forked.
     *
     * @param subtask the new subtask
     * @return {@code true} to cancel the scope
     */
    default boolean onFork(Subtask<? extends T> subtask) {
        return false;
    }

    /**
     * Called when a subtask completed.
     *
     * @param subtask the completed subtask
     * @return {@code true} to cancel the scope (the join then stops waiting)
     */
    default boolean onComplete(Subtask<? extends T> subtask) {
        return false;
    }

    /**
     * Returns the outcome once the join stopped waiting.
     *
     * @return the result
     * @throws Throwable the failure to report (wrapped in {@link FailedException} unless unchecked)
     */
    R result() throws Throwable;

    /**
     * Waits for all subtasks, whatever their outcome; the result is {@code null}.
     *
     * @param <T> the forks' result type
     * @return the joiner
     */
    static <T> Joiner<T, Void> awaitAll() {
        return () -> null;
    }

    /**
     * Waits for all subtasks to succeed; the first failure cancels the scope and is thrown by {@link Scope#join} in a
     * {@link FailedException}. The result is the subtasks, in fork order (empty when none was forked).
     *
     * @param <T> the forks' result type
     * @return the joiner (one per scope)
     */
    static <T> Joiner<T, List<Subtask<T>>> allSuccessfulOrThrow() {
        return new AllSuccessful<>();
    }

    /**
     * Waits for the first subtask to succeed, then cancels the rest; {@link Scope#join} returns its result, or throws
     * a {@link FailedException} with a failed subtask's exception when none succeeded (with a
     * {@link NoSuchElementException} when nothing was forked), as the JDK's joiner of that name.
     *
     * @param <T> the forks' result type
     * @return the joiner (one per scope)
     */
    static <T> Joiner<T, T> anySuccessfulResultOrThrow() {
        return new AnySuccessful<>();
    }

    /** {@link #allSuccessfulOrThrow()}: nested, so that the interface and its policies form no class cycle. */
    final class AllSuccessful<T> implements Joiner<T, List<Subtask<T>>> {
        private final ConcurrentLinkedQueue<Subtask<T>> forked = new ConcurrentLinkedQueue<>();
        private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();

        @SuppressWarnings("unchecked")
        @Override
        public boolean onFork(Subtask<? extends T> subtask) {
            forked.add((Subtask<T>) subtask);
            return false;
        }

        @Override
        public boolean onComplete(Subtask<? extends T> subtask) {
            return subtask.state() == Subtask.State.FAILED && firstFailure.compareAndSet(null, subtask.exception());
        }

        @Override
        public List<Subtask<T>> result() {
            Throwable f = firstFailure.get();
            if (f != null) {
                throw new ScopeFailedException(f);
            }
            return List.copyOf(forked);
        }
    }

    /** {@link #anySuccessfulResultOrThrow()}. */
    final class AnySuccessful<T> implements Joiner<T, T> {
        private final AtomicReference<Subtask<? extends T>> success = new AtomicReference<>();
        private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();
        private volatile boolean anyForked;

        @Override
        public boolean onFork(Subtask<? extends T> subtask) {
            anyForked = true;
            return false;
        }

        @Override
        public boolean onComplete(Subtask<? extends T> subtask) {
            if (subtask.state() == Subtask.State.SUCCESS) {
                return success.compareAndSet(null, subtask);
            }
            firstFailure.compareAndSet(null, subtask.exception());
            return false;
        }

        @Override
        public T result() {
            Subtask<? extends T> s = success.get();
            if (s != null) {
                return s.get();
            }
            if (!anyForked) {
                throw new ScopeFailedException(new NoSuchElementException("no subtask was forked"));
            }
            throw new ScopeFailedException(firstFailure.get());
        }
    }
}
