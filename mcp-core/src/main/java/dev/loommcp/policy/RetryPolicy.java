package dev.loommcp.policy;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * Which requests a client sends again after a transport failure, and how long it waits in between: exponential
 * backoff with jitter, within the call's deadline.
 *
 * <p>Only idempotent requests are repeated: the methods of {@link #IDEMPOTENT_METHODS} (reads, listings, and
 * settings whose repetition has no further effect; the same list the client uses to send a request again in a
 * renewed session), and {@code tools/call} only when {@link #retryIdempotentTools()} is set <em>and</em> the tool's
 * last listing declared {@code annotations.idempotentHint: true} (MCP 2025-11-25 "Tool annotations"; a hint the
 * server gives, so the user opts in). Any other request is never sent twice.
 *
 * <p>What is retried: a transport failure ({@link dev.loommcp.McpTransportException}) of an attempt, except a
 * session expiry (the client renews the session and sends the request again itself, once: that is not doubled here),
 * HTTP 429 and 503 (the HTTP transport itself sends a refused request again as the server's {@code Retry-After} asks,
 * within the deadline, whatever its method, since a refusal was not processed: what reaches the policy is what it gave
 * up on, and is not doubled), an HTTP status that repeats as it is (4xx other than 408), and a failure that closed
 * the client (a stdio server's exit: there is nothing to send to). Never retried: a JSON-RPC error answer, a timeout (the deadline is
 * the call's, so no time is left), a cancel, a budget or open-breaker refusal. A retry never starts after a cancel,
 * and not when its backoff would end past the call's deadline: the call then fails with the last attempt's failure.
 * Each attempt takes its own rate permit and is counted by the circuit breaker; a breaker that opened meanwhile ends
 * the retries with {@link dev.loommcp.McpCircuitOpenException} (the last failure suppressed).
 *
 * <p>The wait before attempt {@code n + 1} is drawn uniformly between half and all of
 * {@code min(maxBackoff, initialBackoff * multiplier^(n-1))}.
 *
 * <p>Immutable and thread-safe. Built with {@link #newBuilder()} (every setting has a default) or
 * {@link #attempts(int)}.
 */
public final class RetryPolicy {

    /**
     * The methods that are safe to send again: {@code ping}, {@code tools/list}, {@code resources/list},
     * {@code resources/templates/list}, {@code prompts/list}, {@code resources/read}, {@code prompts/get},
     * {@code completion/complete}, {@code logging/setLevel}, {@code resources/subscribe} and
     * {@code resources/unsubscribe}.
     */
    public static final Set<String> IDEMPOTENT_METHODS = Set.of("ping", "tools/list", "resources/list",
            "resources/templates/list", "prompts/list", "resources/read", "prompts/get", "completion/complete",
            "logging/setLevel", "resources/subscribe", "resources/unsubscribe");

    private final int maxAttempts;
    private final Duration initialBackoff;
    private final Duration maxBackoff;
    private final double multiplier;
    private final boolean retryIdempotentTools;

    private RetryPolicy(Builder b) {
        this.maxAttempts = b.maxAttempts;
        this.initialBackoff = b.initialBackoff;
        this.maxBackoff = b.maxBackoff;
        this.multiplier = b.multiplier;
        this.retryIdempotentTools = b.retryIdempotentTools;
    }

    /**
     * Returns a policy of at most {@code maxAttempts} attempts, the other settings at their defaults.
     *
     * @param maxAttempts at least 2 (the first attempt and one retry)
     * @return the policy
     * @throws IllegalArgumentException if less than 2
     */
    public static RetryPolicy attempts(int maxAttempts) {
        return newBuilder().maxAttempts(maxAttempts).build();
    }

    /**
     * Returns a new builder with the defaults: 3 attempts, backoff from 100 ms doubling up to 5 s, idempotent tools
     * not retried.
     *
     * @return the builder
     */
    public static Builder newBuilder() {
        return new Builder();
    }

    /**
     * Returns whether {@code method} is one of {@link #IDEMPOTENT_METHODS}.
     *
     * @param method a JSON-RPC method
     * @return whether repeating it cannot do harm
     */
    public static boolean isIdempotent(String method) {
        return IDEMPOTENT_METHODS.contains(method);
    }

    /**
     * Returns the most attempts of one request, the first included. Default 3.
     *
     * @return at least 2
     */
    public int maxAttempts() {
        return maxAttempts;
    }

    /**
     * Returns the backoff before the first retry (before jitter). Default 100 ms.
     *
     * @return positive
     */
    public Duration initialBackoff() {
        return initialBackoff;
    }

    /**
     * Returns the longest backoff (before jitter). Default 5 s.
     *
     * @return positive, not less than {@link #initialBackoff()}
     */
    public Duration maxBackoff() {
        return maxBackoff;
    }

    /**
     * Returns what each backoff is multiplied by for the next. Default 2.
     *
     * @return at least 1
     */
    public double multiplier() {
        return multiplier;
    }

    /**
     * Returns whether {@code tools/call} of a tool declared {@code idempotentHint: true} is retried. Default
     * {@code false}.
     *
     * @return whether idempotent tools are retried
     */
    public boolean retryIdempotentTools() {
        return retryIdempotentTools;
    }

    /**
     * Returns the backoff before attempt {@code failed + 1} before jitter:
     * {@code min(maxBackoff, initialBackoff * multiplier^(failed-1))}.
     *
     * @param failed how many attempts failed so far, at least 1
     * @return the backoff
     * @throws IllegalArgumentException if {@code failed} is less than 1
     */
    public Duration backoff(int failed) {
        if (failed < 1) {
            throw new IllegalArgumentException("failed must be at least 1: " + failed);
        }
        double nanos = initialBackoff.toNanos() * Math.pow(multiplier, failed - 1);
        return nanos >= maxBackoff.toNanos() ? maxBackoff : Duration.ofNanos((long) nanos);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RetryPolicy p && p.maxAttempts == maxAttempts && p.initialBackoff.equals(initialBackoff)
                && p.maxBackoff.equals(maxBackoff) && p.multiplier == multiplier
                && p.retryIdempotentTools == retryIdempotentTools;
    }

    @Override
    public int hashCode() {
        return Objects.hash(maxAttempts, initialBackoff, maxBackoff, multiplier, retryIdempotentTools);
    }

    @Override
    public String toString() {
        return "retry: " + maxAttempts + " attempts, backoff " + initialBackoff.toMillis() + " ms x" + multiplier
                + " up to " + maxBackoff.toMillis() + " ms" + (retryIdempotentTools ? ", idempotent tools too" : "");
    }

    /** Builds a {@link RetryPolicy}. Not thread-safe. */
    public static final class Builder {
        private int maxAttempts = 3;
        private Duration initialBackoff = Duration.ofMillis(100);
        private Duration maxBackoff = Duration.ofSeconds(5);
        private double multiplier = 2;
        private boolean retryIdempotentTools;

        private Builder() {
        }

        /**
         * Sets the most attempts of one request, the first included. Default 3.
         *
         * @param attempts at least 2
         * @return this builder
         * @throws IllegalArgumentException if less than 2
         */
        public Builder maxAttempts(int attempts) {
            if (attempts < 2) {
                throw new IllegalArgumentException("maxAttempts must be at least 2 (one retry): " + attempts);
            }
            this.maxAttempts = attempts;
            return this;
        }

        /**
         * Sets the backoff before the first retry. Default 100 ms.
         *
         * @param backoff positive
         * @return this builder
         * @throws IllegalArgumentException if not positive
         * @throws NullPointerException     if {@code null}
         */
        public Builder initialBackoff(Duration backoff) {
            this.initialBackoff = CircuitBreakerPolicy.positive(backoff, "initialBackoff");
            return this;
        }

        /**
         * Sets the longest backoff. Default 5 s.
         *
         * @param backoff positive
         * @return this builder
         * @throws IllegalArgumentException if not positive
         * @throws NullPointerException     if {@code null}
         */
        public Builder maxBackoff(Duration backoff) {
            this.maxBackoff = CircuitBreakerPolicy.positive(backoff, "maxBackoff");
            return this;
        }

        /**
         * Sets what each backoff is multiplied by for the next. Default 2.
         *
         * @param multiplier at least 1, finite
         * @return this builder
         * @throws IllegalArgumentException if less than 1 or not finite
         */
        public Builder multiplier(double multiplier) {
            if (!(multiplier >= 1) || Double.isInfinite(multiplier)) {
                throw new IllegalArgumentException("multiplier must be at least 1 and finite: " + multiplier);
            }
            this.multiplier = multiplier;
            return this;
        }

        /**
         * Sets whether {@code tools/call} of a tool whose last listing declared {@code idempotentHint: true} is
         * retried. Default {@code false}: the hint is the server's word, so the user opts in.
         *
         * @param retry whether idempotent tools are retried
         * @return this builder
         */
        public Builder retryIdempotentTools(boolean retry) {
            this.retryIdempotentTools = retry;
            return this;
        }

        /**
         * Builds the policy.
         *
         * @return the policy
         * @throws IllegalStateException if {@code maxBackoff} is less than {@code initialBackoff}
         */
        public RetryPolicy build() {
            if (maxBackoff.compareTo(initialBackoff) < 0) {
                throw new IllegalStateException("maxBackoff (" + maxBackoff + ") must not be less than "
                        + "initialBackoff (" + initialBackoff + ")");
            }
            return new RetryPolicy(this);
        }
    }
}
