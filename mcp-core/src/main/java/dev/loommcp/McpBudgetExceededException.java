package dev.loommcp;

import dev.loommcp.policy.Budget;
import java.util.Objects;

/**
 * A call went past a bound of the client's {@link Budget}: the message and {@link #kind()} name the bound,
 * {@link #limit()} and {@link #actual()} give the numbers. For {@link Budget.Kind#TOOL_CALLS_PER_SESSION}, and for
 * {@link Budget.Kind#RESULT_BYTES_PER_SESSION} once the total was reached before the call, nothing was sent; for the
 * byte bounds otherwise the result arrived and was dropped. The client stays usable (within what is left).
 */
public final class McpBudgetExceededException extends McpPolicyException {

    private final Budget.Kind kind;
    private final long limit;
    private final long actual;

    /**
     * Creates the exception.
     *
     * @param message what was refused, naming the method, the bound and the numbers
     * @param kind    which bound
     * @param limit   the bound (bytes or tool calls)
     * @param actual  what the call would have made it (the result's bytes; the tool calls or bytes with this call)
     * @throws NullPointerException if {@code kind} is {@code null}
     */
    public McpBudgetExceededException(String message, Budget.Kind kind, long limit, long actual) {
        super(message, null);
        this.kind = Objects.requireNonNull(kind, "kind");
        this.limit = limit;
        this.actual = actual;
    }

    /**
     * Returns which bound was exceeded.
     *
     * @return the bound
     */
    public Budget.Kind kind() {
        return kind;
    }

    /**
     * Returns the bound, in bytes or tool calls.
     *
     * @return the bound
     */
    public long limit() {
        return limit;
    }

    /**
     * Returns what the call would have made it: the result's bytes ({@link Budget.Kind#RESULT_BYTES_PER_CALL}), the
     * calls counting this one ({@link Budget.Kind#TOOL_CALLS_PER_SESSION}), the session's result bytes counting this
     * result ({@link Budget.Kind#RESULT_BYTES_PER_SESSION}).
     *
     * @return the number, more than {@link #limit()} (or equal, for a call refused because the bound was reached)
     */
    public long actual() {
        return actual;
    }
}
