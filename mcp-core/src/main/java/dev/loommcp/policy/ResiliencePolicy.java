package dev.loommcp.policy;

import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The resilience of a client towards its server: a {@link RateLimit}, a {@link CircuitBreakerPolicy}, a
 * {@link Budget} and a {@link RetryPolicy}, each optional. Set it with
 * {@link dev.loommcp.McpClient.Builder#resilience(ResiliencePolicy)}; a registry of hosted servers sets one for all
 * and overrides it per server.
 *
 * <p>The policies apply to each request the client sends on behalf of a caller (a call with its retries and its
 * input rounds), below the client's API and above the wire: a request answered without sending (from the modern
 * era's result cache) is not counted. They do not apply to the handshake, to notifications, or to a modern
 * subscription's listen stream. In the life of a request: the breaker first (an open breaker refuses at once), then
 * the budget's call count (once per request), then the rate limit's wait, then the send; the answer is told to the
 * breaker and the budget; a failure may be retried (breaker and rate limit again for each attempt). docs/policies.md ("Resilience") has examples.
 *
 * <p>Defaults: {@link #NONE}, everything off. Each bound needs a number only its user knows (how fast the server may
 * be called, how many failures mean it is down); the safe retry the client needs without asking, sending an
 * idempotent request again in a renewed session, is the engine's and always on. Inside a policy once set, the
 * defaults are the safe ones: only idempotent methods are retried, {@code tools/call} only with an opt-in; tool errors
 * and HTTP 429/503 do not open the breaker.
 *
 * <p>Immutable and thread-safe; one policy may be given to many clients, each of which keeps its own state.
 */
public final class ResiliencePolicy {

    /** No policy: no rate limit, no breaker, no budget, no retry. The client's default. */
    public static final ResiliencePolicy NONE = newBuilder().build();

    private final @Nullable RateLimit rateLimit;
    private final @Nullable CircuitBreakerPolicy circuitBreaker;
    private final @Nullable Budget budget;
    private final @Nullable RetryPolicy retry;

    private ResiliencePolicy(Builder b) {
        this.rateLimit = b.rateLimit;
        this.circuitBreaker = b.circuitBreaker;
        this.budget = b.budget;
        this.retry = b.retry;
    }

    /**
     * Returns a new builder with nothing set.
     *
     * @return the builder
     */
    public static Builder newBuilder() {
        return new Builder();
    }

    /**
     * Returns the rate limit.
     *
     * @return the limit, or empty for none
     */
    public Optional<RateLimit> rateLimit() {
        return Optional.ofNullable(rateLimit);
    }

    /**
     * Returns the circuit breaker's policy.
     *
     * @return the policy, or empty for no breaker
     */
    public Optional<CircuitBreakerPolicy> circuitBreaker() {
        return Optional.ofNullable(circuitBreaker);
    }

    /**
     * Returns the budget.
     *
     * @return the budget, or empty for none
     */
    public Optional<Budget> budget() {
        return Optional.ofNullable(budget);
    }

    /**
     * Returns the retry policy.
     *
     * @return the policy, or empty when nothing is retried (beyond the engine's resend after a session renewal)
     */
    public Optional<RetryPolicy> retry() {
        return Optional.ofNullable(retry);
    }

    /**
     * Returns whether nothing is set.
     *
     * @return {@code true} for a policy equal to {@link #NONE}
     */
    public boolean isNone() {
        return rateLimit == null && circuitBreaker == null && budget == null && retry == null;
    }

    /**
     * Returns a builder holding this policy's settings.
     *
     * @return the builder
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.rateLimit = rateLimit;
        b.circuitBreaker = circuitBreaker;
        b.budget = budget;
        b.retry = retry;
        return b;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ResiliencePolicy p && Objects.equals(p.rateLimit, rateLimit)
                && Objects.equals(p.circuitBreaker, circuitBreaker) && Objects.equals(p.budget, budget)
                && Objects.equals(p.retry, retry);
    }

    @Override
    public int hashCode() {
        return Objects.hash(rateLimit, circuitBreaker, budget, retry);
    }

    @Override
    public String toString() {
        return isNone() ? "no resilience policy" : "resilience policy [" + (rateLimit == null ? "" : rateLimit + "; ")
                + (circuitBreaker == null ? "" : circuitBreaker + "; ") + (budget == null ? "" : budget + "; ")
                + (retry == null ? "" : retry) + "]";
    }

    /** Builds a {@link ResiliencePolicy}. Not thread-safe. */
    public static final class Builder {
        private @Nullable RateLimit rateLimit;
        private @Nullable CircuitBreakerPolicy circuitBreaker;
        private @Nullable Budget budget;
        private @Nullable RetryPolicy retry;

        private Builder() {
        }

        /**
         * Sets the rate limit. Default none.
         *
         * @param limit the limit, or {@code null} for none
         * @return this builder
         */
        public Builder rateLimit(@Nullable RateLimit limit) {
            this.rateLimit = limit;
            return this;
        }

        /**
         * Sets the circuit breaker. Default none.
         *
         * @param breaker the breaker's policy, or {@code null} for none
         * @return this builder
         */
        public Builder circuitBreaker(@Nullable CircuitBreakerPolicy breaker) {
            this.circuitBreaker = breaker;
            return this;
        }

        /**
         * Sets the budget. Default none.
         *
         * @param budget the budget, or {@code null} for none
         * @return this builder
         */
        public Builder budget(@Nullable Budget budget) {
            this.budget = budget;
            return this;
        }

        /**
         * Sets the retry policy. Default none.
         *
         * @param retry the policy, or {@code null} for none
         * @return this builder
         */
        public Builder retry(@Nullable RetryPolicy retry) {
            this.retry = retry;
            return this;
        }

        /**
         * Builds the policy.
         *
         * @return the policy
         */
        public ResiliencePolicy build() {
            return new ResiliencePolicy(this);
        }
    }
}
