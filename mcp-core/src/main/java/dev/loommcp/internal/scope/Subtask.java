package dev.loommcp.internal.scope;

import java.util.function.Supplier;

/**
 * A task forked in a {@link Scope}'s handle: its state, then its result or exception. Readable from any thread.
 *
 * @param <T> the result type
 */
public interface Subtask<T> extends Supplier<T> {

    /** The state of a subtask. */
    enum State {
        /**
         * Not completed, completed after the scope was cancelled (its outcome is not reported, as with the JDK's
         * scope), or never started because the scope was cancelled first.
         */
        UNAVAILABLE,
        /** Completed with a result. */
        SUCCESS,
        /** Completed with an exception. */
        FAILED
    }

    /**
     * Returns the state.
     *
     * @return the state
     */
    State state();

    /**
     * Returns the result of a subtask that succeeded.
     *
     * @return the result
     * @throws IllegalStateException if the subtask did not succeed
     */
    @Override
    T get();

    /**
     * Returns the exception of a subtask that failed.
     *
     * @return the exception
     * @throws IllegalStateException if the subtask did not fail
     */
    Throwable exception();
}
