package dev.loommcp.policy;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * How much a client may take from its server: result bytes per call, and calls and result bytes over the client's
 * life (its "session": from {@code build()} to {@code close()}, across session renewals; a hosted server's restart
 * makes a new client with a new count). A call beyond a bound fails with
 * {@link dev.loommcp.McpBudgetExceededException}, which names the bound ({@link Kind}) and the numbers:
 * <ul>
 *   <li>{@link #maxCallsPerSession()}: a call when that many were made already is refused before anything is sent.
 *       A call counts once however many attempts its {@linkplain RetryPolicy retries} take.</li>
 *   <li>{@link #maxResultBytesPerCall()}: a result larger than this fails its call once it arrived (the result is
 *       dropped; the transport's own message size limit bounds what is read).</li>
 *   <li>{@link #maxResultBytesPerSession()}: the result that takes the total past this fails its call (and is
 *       dropped, its bytes still count); once the total reached it, later calls are refused before they are
 *       sent.</li>
 * </ul>
 * Sizes are estimated as JSON text of the decoded result (strings one byte per character). Requests the client sends
 * itself (the handshake, {@code notifications/cancelled}) and a modern subscription's listen stream do not count; a
 * task driver's requests ({@code tasks/get}, {@code tasks/result}) are requests to the server and count like any.
 *
 * <p>Immutable and thread-safe. Built with {@link #newBuilder()}; a budget with no bound is refused.
 */
public final class Budget {

    /** The bounds of a budget, as {@link dev.loommcp.McpBudgetExceededException#kind()} names them. */
    public enum Kind {
        /** {@link Budget#maxResultBytesPerCall()}. */
        RESULT_BYTES_PER_CALL,
        /** {@link Budget#maxCallsPerSession()}. */
        CALLS_PER_SESSION,
        /** {@link Budget#maxResultBytesPerSession()}. */
        RESULT_BYTES_PER_SESSION
    }

    private final long maxResultBytesPerCall;
    private final long maxCallsPerSession;
    private final long maxResultBytesPerSession;

    private Budget(Builder b) {
        this.maxResultBytesPerCall = b.maxResultBytesPerCall;
        this.maxCallsPerSession = b.maxCallsPerSession;
        this.maxResultBytesPerSession = b.maxResultBytesPerSession;
    }

    /**
     * Returns a new builder, with no bound set.
     *
     * @return the builder
     */
    public static Builder newBuilder() {
        return new Builder();
    }

    /**
     * Returns the most bytes one call's result may have.
     *
     * @return bytes, or empty when unbounded
     */
    public OptionalLong maxResultBytesPerCall() {
        return maxResultBytesPerCall > 0 ? OptionalLong.of(maxResultBytesPerCall) : OptionalLong.empty();
    }

    /**
     * Returns the most calls over the client's life.
     *
     * @return calls, or empty when unbounded
     */
    public OptionalLong maxCallsPerSession() {
        return maxCallsPerSession > 0 ? OptionalLong.of(maxCallsPerSession) : OptionalLong.empty();
    }

    /**
     * Returns the most result bytes over the client's life.
     *
     * @return bytes, or empty when unbounded
     */
    public OptionalLong maxResultBytesPerSession() {
        return maxResultBytesPerSession > 0 ? OptionalLong.of(maxResultBytesPerSession) : OptionalLong.empty();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Budget b && b.maxResultBytesPerCall == maxResultBytesPerCall
                && b.maxCallsPerSession == maxCallsPerSession && b.maxResultBytesPerSession == maxResultBytesPerSession;
    }

    @Override
    public int hashCode() {
        return Objects.hash(maxResultBytesPerCall, maxCallsPerSession, maxResultBytesPerSession);
    }

    @Override
    public String toString() {
        return "budget: " + (maxResultBytesPerCall > 0 ? maxResultBytesPerCall : "unbounded") + " result bytes per call, "
                + (maxCallsPerSession > 0 ? maxCallsPerSession : "unbounded") + " calls and "
                + (maxResultBytesPerSession > 0 ? maxResultBytesPerSession : "unbounded") + " result bytes per session";
    }

    /** Builds a {@link Budget}. Not thread-safe. */
    public static final class Builder {
        private long maxResultBytesPerCall;
        private long maxCallsPerSession;
        private long maxResultBytesPerSession;

        private Builder() {
        }

        /**
         * Sets the most bytes one call's result may have. Default unbounded.
         *
         * @param bytes at least 1
         * @return this builder
         * @throws IllegalArgumentException if less than 1
         */
        public Builder maxResultBytesPerCall(long bytes) {
            this.maxResultBytesPerCall = atLeastOne(bytes, "maxResultBytesPerCall");
            return this;
        }

        /**
         * Sets the most calls over the client's life. Default unbounded.
         *
         * @param calls at least 1
         * @return this builder
         * @throws IllegalArgumentException if less than 1
         */
        public Builder maxCallsPerSession(long calls) {
            this.maxCallsPerSession = atLeastOne(calls, "maxCallsPerSession");
            return this;
        }

        /**
         * Sets the most result bytes over the client's life. Default unbounded.
         *
         * @param bytes at least 1
         * @return this builder
         * @throws IllegalArgumentException if less than 1
         */
        public Builder maxResultBytesPerSession(long bytes) {
            this.maxResultBytesPerSession = atLeastOne(bytes, "maxResultBytesPerSession");
            return this;
        }

        /**
         * Builds the budget.
         *
         * @return the budget
         * @throws IllegalStateException if no bound was set
         */
        public Budget build() {
            if (maxResultBytesPerCall == 0 && maxCallsPerSession == 0 && maxResultBytesPerSession == 0) {
                throw new IllegalStateException("a budget needs at least one of maxResultBytesPerCall, "
                        + "maxCallsPerSession and maxResultBytesPerSession");
            }
            return new Budget(this);
        }

        private static long atLeastOne(long value, String what) {
            if (value < 1) {
                throw new IllegalArgumentException(what + " must be at least 1: " + value);
            }
            return value;
        }
    }
}
