package dev.loommcp;

import org.jspecify.annotations.Nullable;

/**
 * The client's own {@linkplain dev.loommcp.policy.ResiliencePolicy resilience policy} stopped a call: the server's
 * circuit breaker is open ({@link McpCircuitOpenException}) or a budget is spent ({@link McpBudgetExceededException}).
 * A branch of its own in the {@link McpException} family, not a {@link McpTransportException}: nothing failed on the
 * wire (for a breaker or a call budget nothing was even sent), so a caller that handles transport failures by trying
 * another route must not take it for one, and one that switches over the family sees "my policy said no" as a case
 * of its own. The client stays usable. A rate limit not obtained in time is a {@link McpTimeoutException} instead: the
 * call's deadline passed.
 */
public abstract sealed class McpPolicyException extends McpException
        permits McpCircuitOpenException, McpBudgetExceededException {

    /**
     * Creates the exception.
     *
     * @param message what was refused and why, naming the method and the policy
     * @param cause   the cause, or {@code null}
     */
    protected McpPolicyException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
