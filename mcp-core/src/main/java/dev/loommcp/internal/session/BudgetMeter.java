package dev.loommcp.internal.session;

import dev.loommcp.McpBudgetExceededException;
import dev.loommcp.internal.json.JsonSize;
import dev.loommcp.policy.Budget;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A client's {@link Budget}: the calls and result bytes of its life so far, and the checks of each call against
 * them. Thread-safe (atomic counters: a call admitted is counted before it is sent, so concurrent callers never pass
 * the call bound together).
 */
final class BudgetMeter {

    private final String server;
    private final long maxCalls;
    private final long maxBytesPerCall;
    private final long maxBytesPerSession;
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();

    BudgetMeter(Budget budget, String server) {
        this.server = server;
        this.maxCalls = budget.maxToolCallsPerSession().orElse(0);
        this.maxBytesPerCall = budget.maxResultBytesPerCall().orElse(0);
        this.maxBytesPerSession = budget.maxResultBytesPerSession().orElse(0);
    }

    /**
     * Counts a call before it is sent, or refuses it (a refused call is not counted).
     *
     * @throws McpBudgetExceededException if the calls or the result bytes of the session are spent
     */
    void admit(String method) {
        if (maxBytesPerSession > 0) {
            long used = bytes.get();
            if (used >= maxBytesPerSession) {
                throw new McpBudgetExceededException(method + " not sent: the budget of " + server + " of "
                        + maxBytesPerSession + " result bytes per session is spent (" + used + " bytes received)",
                        Budget.Kind.RESULT_BYTES_PER_SESSION, maxBytesPerSession, used);
            }
        }
        if (maxCalls > 0 && counts(method)) {
            long n = calls.incrementAndGet();
            if (n > maxCalls) {
                calls.decrementAndGet();
                throw new McpBudgetExceededException(method + " not sent: the budget of " + server + " of "
                        + maxCalls + " tool calls per session is spent (this would be tool call " + n + ")",
                        Budget.Kind.TOOL_CALLS_PER_SESSION, maxCalls, n);
            }
        }
    }

    /** Whether the call bound counts {@code method}: tool calls only ({@link Budget#maxToolCallsPerSession()}). */
    private static boolean counts(String method) {
        return "tools/call".equals(method);
    }

    /** Uncounts a call admitted by {@link #admit} that was never sent (no rate permit in time). */
    void refund(String method) {
        if (maxCalls > 0 && counts(method)) {
            calls.decrementAndGet();
        }
    }

    /**
     * Counts a result's bytes, and fails its call when it goes past a byte bound.
     *
     * @throws McpBudgetExceededException if the result is larger than the bound per call, or takes the session's
     *                                    total past its bound
     */
    void result(String method, Object result) {
        if (maxBytesPerCall == 0 && maxBytesPerSession == 0) {
            return;
        }
        long size = JsonSize.of(result);
        long total = bytes.addAndGet(size);
        if (maxBytesPerCall > 0 && size > maxBytesPerCall) {
            throw new McpBudgetExceededException("the result of " + method + " from " + server + " has about " + size
                    + " bytes, more than the budget of " + maxBytesPerCall + " result bytes per call; it was dropped",
                    Budget.Kind.RESULT_BYTES_PER_CALL, maxBytesPerCall, size);
        }
        if (maxBytesPerSession > 0 && total > maxBytesPerSession) {
            throw new McpBudgetExceededException("the result of " + method + " from " + server + " (about " + size
                    + " bytes) takes the session's result bytes to " + total + ", past the budget of "
                    + maxBytesPerSession + " result bytes per session; it was dropped",
                    Budget.Kind.RESULT_BYTES_PER_SESSION, maxBytesPerSession, total);
        }
    }
}
