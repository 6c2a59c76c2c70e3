package dev.loommcp.policy;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * How much a client may take from its server: result bytes per request, and tool calls and result bytes over the
 * client's life (its "session": from {@code build()} to {@code close()}, across session renewals; a hosted server's
 * restart makes a new client with a new count). A request beyond a bound fails with
 * {@link dev.loommcp.McpBudgetExceededException}, which names the bound ({@link Kind}) and the numbers:
 * <ul>
 *   <li>{@link #maxToolCallsPerSession()}: counts {@code tools/call} requests only, the calls that make a server act
 *       and cost; a tool call when that many were made already is refused before anything is sent. A tool call
 *       counts once however many attempts its {@linkplain RetryPolicy retries} take, and once with the task polls
 *       ({@code tasks/get}, {@code tasks/result}) of a task-augmented call. Pings (a health check's), listings,
 *       reads, prompts and completions are not counted and never refused by this bound.</li>
 *   <li>{@link #maxResultBytesPerCall()}: the result of any request (a tool call, a read, a listing's page) larger
 *       than this fails its request once it arrived (the result is dropped; the transport's own message size limit
 *       bounds what is read).</li>
 *   <li>{@link #maxResultBytesPerSession()}: the results of every request count; the result that takes the total
 *       past this fails its request (and is dropped, its bytes still count); once the total reached it, every later
 *       request (a ping too) is refused before it is sent.</li>
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
        /** {@link Budget#maxToolCallsPerSession()}: {@code tools/call} requests only. */
        TOOL_CALLS_PER_SESSION,
        /** {@link Budget#maxResultBytesPerSession()}. */
        RESULT_BYTES_PER_SESSION
    }

    private final long maxResultBytesPerCall;
    private final long maxToolCallsPerSession;
    private final long maxResultBytesPerSession;

    private Budget(Builder b) {
        this.maxResultBytesPerCall = b.maxResultBytesPerCall;
        this.maxToolCallsPerSession = b.maxToolCallsPerSession;
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
     * Returns the most {@code tools/call} requests over the client's life (other requests are not counted).
     *
     * @return tool calls, or empty when unbounded
     */
    public OptionalLong maxToolCallsPerSession() {
        return maxToolCallsPerSession > 0 ? OptionalLong.of(maxToolCallsPerSession) : OptionalLong.empty();
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
                && b.maxToolCallsPerSession == maxToolCallsPerSession && b.maxResultBytesPerSession == maxResultBytesPerSession;
    }

    @Override
    public int hashCode() {
        return Objects.hash(maxResultBytesPerCall, maxToolCallsPerSession, maxResultBytesPerSession);
    }

    @Override
    public String toString() {
        return "budget: " + (maxResultBytesPerCall > 0 ? maxResultBytesPerCall : "unbounded") + " result bytes per call, "
                + (maxToolCallsPerSession > 0 ? maxToolCallsPerSession : "unbounded") + " tool calls and "
                + (maxResultBytesPerSession > 0 ? maxResultBytesPerSession : "unbounded") + " result bytes per session";
    }

    /** Builds a {@link Budget}. Not thread-safe. */
    public static final class Builder {
        private long maxResultBytesPerCall;
        private long maxToolCallsPerSession;
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
         * Sets the most {@code tools/call} requests over the client's life: the next tool call is refused before it
         * is sent. Pings, listings, reads and the other requests are not counted. Default unbounded.
         *
         * @param calls at least 1
         * @return this builder
         * @throws IllegalArgumentException if less than 1
         */
        public Builder maxToolCallsPerSession(long calls) {
            this.maxToolCallsPerSession = atLeastOne(calls, "maxToolCallsPerSession");
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
            if (maxResultBytesPerCall == 0 && maxToolCallsPerSession == 0 && maxResultBytesPerSession == 0) {
                throw new IllegalStateException("a budget needs at least one of maxResultBytesPerCall, "
                        + "maxToolCallsPerSession and maxResultBytesPerSession");
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
