package dev.loommcp.policy;

/**
 * The state of a client's circuit breaker ({@link CircuitBreakerPolicy}).
 */
public enum CircuitState {
    /** Calls go out; failures are counted in the sliding window. The state of a new client. */
    CLOSED,
    /**
     * Calls fail at once with {@link dev.loommcp.McpCircuitOpenException}, nothing is sent, until the policy's
     * {@linkplain CircuitBreakerPolicy#openDuration() open duration} has passed.
     */
    OPEN,
    /**
     * The open duration has passed: up to {@linkplain CircuitBreakerPolicy#halfOpenProbes() a few probe calls} go
     * out, the others fail at once; a probe's success closes the breaker, a probe's failure opens it again.
     */
    HALF_OPEN
}
