package dev.loommcp;

import dev.loommcp.policy.CircuitBreakerPolicy;
import dev.loommcp.policy.CircuitState;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The client's circuit breaker for its server is open (or half-open with every probe slot taken), so the call failed
 * at once and nothing was sent ({@link CircuitBreakerPolicy}). {@link #retryAfter()} says how long until the breaker
 * lets a probe through; the cause is the last failure the breaker counted, when there was one.
 */
public final class McpCircuitOpenException extends McpPolicyException {

    private final CircuitState state;
    private final Duration retryAfter;

    /**
     * Creates the exception.
     *
     * @param message    what was refused, naming the method and the server
     * @param state      the breaker's state: {@link CircuitState#OPEN} or {@link CircuitState#HALF_OPEN}
     * @param retryAfter how long until a probe may go out ({@link Duration#ZERO} while half-open: as soon as a probe
     *                   slot frees)
     * @param cause      the last failure the breaker counted, or {@code null}
     * @throws NullPointerException if {@code state} or {@code retryAfter} is {@code null}
     */
    public McpCircuitOpenException(String message, CircuitState state, Duration retryAfter,
                                   @Nullable Throwable cause) {
        super(message, cause);
        this.state = Objects.requireNonNull(state, "state");
        this.retryAfter = Objects.requireNonNull(retryAfter, "retryAfter");
    }

    /**
     * Returns the breaker's state when it refused the call.
     *
     * @return {@link CircuitState#OPEN} or {@link CircuitState#HALF_OPEN}
     */
    public CircuitState state() {
        return state;
    }

    /**
     * Returns how long, from when the call was refused, until the breaker lets a probe call through (it closes when
     * a probe succeeds). {@link Duration#ZERO} while half-open.
     *
     * @return the wait, never negative
     */
    public Duration retryAfter() {
        return retryAfter;
    }
}
