package dev.loommcp.policy;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One change of a client's circuit breaker, as {@link dev.loommcp.event.McpClientListener#onCircuitStateChanged}
 * (and a registry's listener) hears it.
 *
 * @param previous the state before
 * @param state    the state now
 * @param cause    the failure that opened the breaker (the last one counted) for a change to {@link CircuitState#OPEN};
 *                 {@code null} for the other changes
 */
public record CircuitStateChange(CircuitState previous, CircuitState state, @Nullable Throwable cause) {

    /**
     * Checks the values.
     *
     * @throws NullPointerException if {@code previous} or {@code state} is {@code null}
     */
    public CircuitStateChange {
        Objects.requireNonNull(previous, "previous");
        Objects.requireNonNull(state, "state");
    }
}
