package dev.loommcp.policy;

import java.time.Duration;
import java.util.Objects;

/**
 * When a client stops sending to a failing server for a while: a circuit breaker with a sliding <em>time</em> window.
 * It {@linkplain CircuitState#OPEN opens} when {@link #failureThreshold()} failures ended within the last
 * {@link #window()} (successes in between do not reset the count: the window slides, and a failure older than it no
 * longer counts). While open, every call fails at once with {@link dev.loommcp.McpCircuitOpenException}, which says
 * when the breaker lets a probe through; nothing is sent. After {@link #openDuration()} the breaker is
 * {@linkplain CircuitState#HALF_OPEN half-open}: up to {@link #halfOpenProbes()} calls go out as probes at once (the
 * others fail at once); the first probe that succeeds closes it (the window starts empty), a probe that fails opens it
 * again for another {@link #openDuration()}.
 *
 * <p>What counts as a failure of an attempt that went out:
 * <ul>
 *   <li>a transport failure ({@link dev.loommcp.McpTransportException}: the process exited, I/O failed, an HTTP error
 *       status), except HTTP 429 and 503 (the server is alive and asks the client to slow down) unless
 *       {@link #countOverloaded()};</li>
 *   <li>a timeout ({@link dev.loommcp.McpTimeoutException}) of a request that was sent: the server did not answer
 *       in time;</li>
 *   <li>a {@code tools/call} result with {@code isError: true} only when {@link #countToolErrors()}: by default the
 *       tool failed, not the server.</li>
 * </ul>
 * Never counted: a cancel by the caller (token, interrupt, an outer scope that ended), the client's close, a JSON-RPC
 * error answer (the server answered), a session expiry the client renewed, a call the client refused itself (a rate
 * permit not obtained in time, a budget, the open breaker). A neutral outcome of a probe frees its slot and decides
 * nothing. Each attempt of a {@linkplain RetryPolicy retried} request is counted on its own.
 *
 * <p>Immutable and thread-safe. Built with {@link #newBuilder()} (every setting has a default) or
 * {@link #of(int, Duration, Duration)}.
 */
public final class CircuitBreakerPolicy {

    /** The default {@link #failureThreshold()}. */
    public static final int DEFAULT_FAILURE_THRESHOLD = 5;
    /** The default {@link #window()}: 30 seconds. */
    public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(30);
    /** The default {@link #openDuration()}: 30 seconds. */
    public static final Duration DEFAULT_OPEN_DURATION = Duration.ofSeconds(30);

    private final int failureThreshold;
    private final Duration window;
    private final Duration openDuration;
    private final int halfOpenProbes;
    private final boolean countToolErrors;
    private final boolean countOverloaded;

    private CircuitBreakerPolicy(Builder b) {
        this.failureThreshold = b.failureThreshold;
        this.window = b.window;
        this.openDuration = b.openDuration;
        this.halfOpenProbes = b.halfOpenProbes;
        this.countToolErrors = b.countToolErrors;
        this.countOverloaded = b.countOverloaded;
    }

    /**
     * Returns a breaker that opens after {@code failures} failures within {@code window} and stays open for
     * {@code openDuration}; the other settings at their defaults.
     *
     * @param failures     at least 1
     * @param window       positive
     * @param openDuration positive
     * @return the policy
     * @throws IllegalArgumentException if a value is out of range
     * @throws NullPointerException     if a duration is {@code null}
     */
    public static CircuitBreakerPolicy of(int failures, Duration window, Duration openDuration) {
        return newBuilder().failureThreshold(failures).window(window).openDuration(openDuration).build();
    }

    /**
     * Returns a new builder with the defaults: 5 failures in 30 s open it for 30 s, one probe, tool errors and
     * HTTP 429/503 not counted.
     *
     * @return the builder
     */
    public static Builder newBuilder() {
        return new Builder();
    }

    /**
     * Returns how many failures within the {@link #window()} open the breaker. Default
     * {@value #DEFAULT_FAILURE_THRESHOLD}.
     *
     * @return at least 1
     */
    public int failureThreshold() {
        return failureThreshold;
    }

    /**
     * Returns the sliding window the failures are counted in: a failure counts until this long after it ended.
     * Default 30 seconds.
     *
     * @return the window, positive
     */
    public Duration window() {
        return window;
    }

    /**
     * Returns how long the breaker stays open before it lets probes through. Default 30 seconds.
     *
     * @return the duration, positive
     */
    public Duration openDuration() {
        return openDuration;
    }

    /**
     * Returns how many probe calls may be in flight at once while half-open. Default 1.
     *
     * @return at least 1
     */
    public int halfOpenProbes() {
        return halfOpenProbes;
    }

    /**
     * Returns whether a {@code tools/call} result with {@code isError: true} counts as a failure. Default
     * {@code false}.
     *
     * @return whether tool errors count
     */
    public boolean countToolErrors() {
        return countToolErrors;
    }

    /**
     * Returns whether a transport failure with HTTP status 429 (Too Many Requests) or 503 (Service Unavailable)
     * counts as a failure. Default {@code false}.
     *
     * @return whether an overloaded server's answers count
     */
    public boolean countOverloaded() {
        return countOverloaded;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CircuitBreakerPolicy p && p.failureThreshold == failureThreshold
                && p.window.equals(window) && p.openDuration.equals(openDuration)
                && p.halfOpenProbes == halfOpenProbes && p.countToolErrors == countToolErrors
                && p.countOverloaded == countOverloaded;
    }

    @Override
    public int hashCode() {
        return Objects.hash(failureThreshold, window, openDuration, halfOpenProbes, countToolErrors, countOverloaded);
    }

    @Override
    public String toString() {
        return "circuit breaker: " + failureThreshold + " failures in " + window.toMillis() + " ms open it for "
                + openDuration.toMillis() + " ms, " + halfOpenProbes + " probe(s)"
                + (countToolErrors ? ", tool errors count" : "") + (countOverloaded ? ", HTTP 429/503 count" : "");
    }

    /** Builds a {@link CircuitBreakerPolicy}. Not thread-safe. */
    public static final class Builder {
        private int failureThreshold = DEFAULT_FAILURE_THRESHOLD;
        private Duration window = DEFAULT_WINDOW;
        private Duration openDuration = DEFAULT_OPEN_DURATION;
        private int halfOpenProbes = 1;
        private boolean countToolErrors;
        private boolean countOverloaded;

        private Builder() {
        }

        /**
         * Sets how many failures within the window open the breaker. Default {@value #DEFAULT_FAILURE_THRESHOLD}.
         *
         * @param failures at least 1
         * @return this builder
         * @throws IllegalArgumentException if less than 1
         */
        public Builder failureThreshold(int failures) {
            if (failures < 1) {
                throw new IllegalArgumentException("failureThreshold must be at least 1: " + failures);
            }
            this.failureThreshold = failures;
            return this;
        }

        /**
         * Sets the sliding window failures are counted in. Default 30 seconds.
         *
         * @param window positive
         * @return this builder
         * @throws IllegalArgumentException if not positive
         * @throws NullPointerException     if {@code null}
         */
        public Builder window(Duration window) {
            this.window = positive(window, "window");
            return this;
        }

        /**
         * Sets how long the breaker stays open before it lets probes through. Default 30 seconds.
         *
         * @param duration positive
         * @return this builder
         * @throws IllegalArgumentException if not positive
         * @throws NullPointerException     if {@code null}
         */
        public Builder openDuration(Duration duration) {
            this.openDuration = positive(duration, "openDuration");
            return this;
        }

        /**
         * Sets how many probe calls may be in flight at once while half-open. Default 1.
         *
         * @param probes at least 1
         * @return this builder
         * @throws IllegalArgumentException if less than 1
         */
        public Builder halfOpenProbes(int probes) {
            if (probes < 1) {
                throw new IllegalArgumentException("halfOpenProbes must be at least 1: " + probes);
            }
            this.halfOpenProbes = probes;
            return this;
        }

        /**
         * Sets whether a {@code tools/call} result with {@code isError: true} counts as a failure. Default
         * {@code false}: the tool failed, the server works.
         *
         * @param count whether tool errors count
         * @return this builder
         */
        public Builder countToolErrors(boolean count) {
            this.countToolErrors = count;
            return this;
        }

        /**
         * Sets whether HTTP 429 and 503 answers count as failures. Default {@code false}: the server is alive and
         * asks the client to slow down (a {@link RateLimit} is the answer to that).
         *
         * @param count whether they count
         * @return this builder
         */
        public Builder countOverloaded(boolean count) {
            this.countOverloaded = count;
            return this;
        }

        /**
         * Builds the policy.
         *
         * @return the policy
         */
        public CircuitBreakerPolicy build() {
            return new CircuitBreakerPolicy(this);
        }
    }

    static Duration positive(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(what + " must be positive: " + d);
        }
        return d;
    }
}
