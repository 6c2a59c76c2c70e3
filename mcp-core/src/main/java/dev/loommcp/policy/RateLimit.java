package dev.loommcp.policy;

import java.util.Objects;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * How fast and how many at once a client sends its requests to its server: a token bucket of
 * {@link #callsPerSecond()} with room for {@link #burst()} calls, and at most {@link #maxConcurrent()} calls in
 * flight. Either bound may be left unset; a limit with neither is refused.
 *
 * <p>A request waits for its permit on the caller's thread, parked (no thread per waiter, no polling), in the order
 * the callers came for the rate and in any order for the concurrency; it waits within its call's deadline and
 * {@link dev.loommcp.CancellationToken}: a deadline that passes (or that the rate alone makes unreachable: a caller
 * whose turn would come after its deadline fails at once) fails the call with {@link dev.loommcp.McpTimeoutException}
 * naming the rate limit, and a cancel with {@link dev.loommcp.McpCancelledException}; in both cases nothing was sent.
 * Each attempt of a {@linkplain RetryPolicy retried} request takes a permit of its own; a permit for concurrency is
 * held from the send to the answer, not during a retry's backoff. A request answered from the client's result cache,
 * or without sending at all, takes none.
 *
 * <p>Immutable and thread-safe. Built with {@link #newBuilder()}, or {@link #perSecond(double)} and
 * {@link #concurrent(int)} for one bound.
 */
public final class RateLimit {

    private final double callsPerSecond;
    private final int burst;
    private final int maxConcurrent;

    private RateLimit(Builder b) {
        this.callsPerSecond = b.callsPerSecond;
        this.burst = b.burst;
        this.maxConcurrent = b.maxConcurrent;
    }

    /**
     * Returns a limit of {@code callsPerSecond} calls per second with a burst of 1 (no two calls closer together than
     * {@code 1 / callsPerSecond} seconds) and no bound on concurrency.
     *
     * @param callsPerSecond the rate, positive and finite (0.5: one call every two seconds)
     * @return the limit
     * @throws IllegalArgumentException if the rate is not positive and finite
     */
    public static RateLimit perSecond(double callsPerSecond) {
        return newBuilder().callsPerSecond(callsPerSecond).build();
    }

    /**
     * Returns a limit of {@code maxConcurrent} calls in flight at once, with no bound on the rate.
     *
     * @param maxConcurrent at least 1
     * @return the limit
     * @throws IllegalArgumentException if less than 1
     */
    public static RateLimit concurrent(int maxConcurrent) {
        return newBuilder().maxConcurrent(maxConcurrent).build();
    }

    /**
     * Returns a new builder, with neither bound set.
     *
     * @return the builder
     */
    public static Builder newBuilder() {
        return new Builder();
    }

    /**
     * Returns the rate in calls per second.
     *
     * @return the rate, or empty when only concurrency is bounded
     */
    public OptionalDouble callsPerSecond() {
        return callsPerSecond > 0 ? OptionalDouble.of(callsPerSecond) : OptionalDouble.empty();
    }

    /**
     * Returns how many calls may go out back to back after a quiet time (the bucket's size). Default 1.
     *
     * @return at least 1
     */
    public int burst() {
        return burst;
    }

    /**
     * Returns the most calls in flight at once.
     *
     * @return the bound, or empty when only the rate is bounded
     */
    public OptionalInt maxConcurrent() {
        return maxConcurrent > 0 ? OptionalInt.of(maxConcurrent) : OptionalInt.empty();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RateLimit r && r.callsPerSecond == callsPerSecond && r.burst == burst
                && r.maxConcurrent == maxConcurrent;
    }

    @Override
    public int hashCode() {
        return Objects.hash(callsPerSecond, burst, maxConcurrent);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder();
        if (callsPerSecond > 0) {
            s.append(callsPerSecond).append(" calls per second (burst ").append(burst).append(')');
        }
        if (maxConcurrent > 0) {
            s.append(s.isEmpty() ? "" : ", ").append(maxConcurrent).append(" concurrent calls");
        }
        return s.toString();
    }

    /** Builds a {@link RateLimit}. Not thread-safe. */
    public static final class Builder {
        private double callsPerSecond;
        private int burst = 1;
        private int maxConcurrent;

        private Builder() {
        }

        /**
         * Sets the rate. Default none.
         *
         * @param callsPerSecond calls per second, positive and finite (fractions allowed: 0.2 is one call every five
         *                       seconds)
         * @return this builder
         * @throws IllegalArgumentException if the rate is not positive and finite
         */
        public Builder callsPerSecond(double callsPerSecond) {
            if (!(callsPerSecond > 0) || Double.isInfinite(callsPerSecond)) {
                throw new IllegalArgumentException("callsPerSecond must be positive and finite: " + callsPerSecond);
            }
            this.callsPerSecond = callsPerSecond;
            return this;
        }

        /**
         * Sets how many calls may go out back to back after a quiet time (the bucket's size). Default 1. Only used
         * with a {@linkplain #callsPerSecond(double) rate}.
         *
         * @param burst at least 1
         * @return this builder
         * @throws IllegalArgumentException if less than 1
         */
        public Builder burst(int burst) {
            if (burst < 1) {
                throw new IllegalArgumentException("burst must be at least 1: " + burst);
            }
            this.burst = burst;
            return this;
        }

        /**
         * Sets the most calls in flight at once. Default none.
         *
         * @param maxConcurrent at least 1
         * @return this builder
         * @throws IllegalArgumentException if less than 1
         */
        public Builder maxConcurrent(int maxConcurrent) {
            if (maxConcurrent < 1) {
                throw new IllegalArgumentException("maxConcurrent must be at least 1: " + maxConcurrent);
            }
            this.maxConcurrent = maxConcurrent;
            return this;
        }

        /**
         * Builds the limit.
         *
         * @return the limit
         * @throws IllegalStateException if neither a rate nor a concurrency bound was set
         */
        public RateLimit build() {
            if (callsPerSecond == 0 && maxConcurrent == 0) {
                throw new IllegalStateException("a rate limit needs callsPerSecond or maxConcurrent (or both)");
            }
            return new RateLimit(this);
        }
    }
}
