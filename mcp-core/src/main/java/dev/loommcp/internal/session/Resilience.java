package dev.loommcp.internal.session;

import dev.loommcp.McpCircuitOpenException;
import dev.loommcp.McpRpcException;
import dev.loommcp.McpSessionExpiredException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpTransportException;
import dev.loommcp.policy.CircuitBreakerPolicy;
import dev.loommcp.policy.CircuitState;
import dev.loommcp.policy.CircuitStateChange;
import dev.loommcp.policy.ResiliencePolicy;
import dev.loommcp.policy.RetryPolicy;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The guard that applies a client's {@link ResiliencePolicy} to each logical request, in this order, per attempt: the
 * circuit breaker's admission (an open breaker refuses at once), for the first attempt the budget's call count (a
 * request the breaker or the rate limit refused is not counted), the rate limit's permit (a parked wait within the
 * deadline), the send; the attempt's outcome goes to the breaker
 * (and its concurrency slot back to the rate limit), a result to the budget's byte count, and a failure the retry
 * policy allows is sent again after a backoff (within the deadline, never after a cancel). A modern subscription's
 * {@code subscriptions/listen} (a stream for the subscription's life, with its own re-open backoff) is not guarded.
 * Thread-safe; its state is its parts'.
 */
final class Resilience implements CallGuard {

    /** Requests that are streams rather than calls: never limited, counted or retried here. */
    private static final Set<String> UNGUARDED = Set.of("subscriptions/listen");

    private final RatePermits rate;
    private final Breaker breaker;
    private final CircuitBreakerPolicy breakerPolicy;
    private final BudgetMeter budget;
    private final RetryPolicy retry;
    private final Predicate<String> idempotentTool;
    private final BooleanSupplier clientClosed;

    private Resilience(ResiliencePolicy policy, String server, Predicate<String> idempotentTool,
                       BooleanSupplier clientClosed, Consumer<CircuitStateChange> changes) {
        this.rate = policy.rateLimit().map(l -> new RatePermits(l, server)).orElse(null);
        this.breakerPolicy = policy.circuitBreaker().orElse(null);
        this.breaker = breakerPolicy == null ? null : new Breaker(breakerPolicy, server, changes);
        this.budget = policy.budget().map(b -> new BudgetMeter(b, server)).orElse(null);
        this.retry = policy.retry().orElse(null);
        this.idempotentTool = idempotentTool;
        this.clientClosed = clientClosed;
    }

    /**
     * The guard of a client with {@code policy}; {@code null} for {@link ResiliencePolicy#NONE} (the client's requests
     * then go straight on).
     *
     * @param server         the server's description, for messages
     * @param idempotentTool whether the named tool's last listing declared {@code idempotentHint: true}
     * @param clientClosed   whether the client has closed (a failure that closed it is not retried)
     * @param changes        told each change of the breaker's state, under its lock: it must only queue it
     */
    static Resilience of(ResiliencePolicy policy, String server, Predicate<String> idempotentTool,
                         BooleanSupplier clientClosed, Consumer<CircuitStateChange> changes) {
        return policy.isNone() ? null : new Resilience(policy, server, idempotentTool, clientClosed, changes);
    }

    /** The breaker's state, or empty when the policy has no breaker. */
    Optional<CircuitState> circuitState() {
        return breaker == null ? Optional.empty() : Optional.of(breaker.state());
    }

    @Override
    public Object call(Request request, Attempt attempt) throws InterruptedException {
        String method = request.method();
        if (UNGUARDED.contains(method)) {
            return attempt.send(Control.ONCE);
        }
        boolean[] noRetry = {false};
        Control control = () -> noRetry[0] = true;
        try (CallWaits waits = new CallWaits(request)) {
            Throwable last = null;
            for (int attempts = 1; ; attempts++) {
                Breaker.Ticket ticket = admit(method, attempts, last);
                if (rate != null) {
                    try {
                        rate.acquire(waits);
                    } catch (RuntimeException | InterruptedException e) {
                        refused(method, ticket, attempts, e, last);
                        throw e;
                    }
                }
                Object result;
                try {
                    result = attempt.send(control);
                } catch (RuntimeException | InterruptedException | Error e) {
                    ended(ticket, outcomeOf(e), e);
                    if (!(e instanceof RuntimeException failure) || noRetry[0]
                            || !mayRetry(request, failure, attempts, waits)) {
                        throw e;
                    }
                    last = failure;
                    if (!backoff(failure, attempts, waits)) {
                        throw failure;
                    }
                    continue;
                }
                ended(ticket, outcomeOf(method, result), null);
                if (budget != null) {
                    budget.result(method, result);
                }
                return result;
            }
        }
    }

    /**
     * An attempt's admission: the budget's call count for the first, the breaker's ticket for each.
     *
     * @throws McpCircuitOpenException if the breaker refuses it (with the last attempt's failure suppressed)
     */
    private Breaker.Ticket admit(String method, int attempts, Throwable last) {
        Breaker.Ticket ticket;
        try {
            ticket = breaker == null ? null : breaker.admit(method);
        } catch (McpCircuitOpenException open) {
            if (last != null) {
                open.addSuppressed(last);
            }
            throw open;
        }
        if (attempts == 1 && budget != null) {
            try {
                budget.admit(method);
            } catch (RuntimeException e) {
                if (ticket != null) {
                    breaker.record(ticket, Breaker.Outcome.NEUTRAL, null);
                }
                throw e;
            }
        }
        return ticket;
    }

    /** An admitted attempt that got no rate permit: nothing was sent, so it decides nothing and is not counted. */
    private void refused(String method, Breaker.Ticket ticket, int attempts, Throwable why, Throwable last) {
        if (ticket != null) {
            breaker.record(ticket, Breaker.Outcome.NEUTRAL, null);
        }
        if (attempts == 1 && budget != null) {
            budget.refund(method);
        }
        if (last != null) {
            why.addSuppressed(last);
        }
    }

    /** An attempt that was sent ended: its slot goes back, the breaker hears the outcome. */
    private void ended(Breaker.Ticket ticket, Breaker.Outcome outcome, Throwable cause) {
        if (rate != null) {
            rate.release();
        }
        if (ticket != null) {
            breaker.record(ticket, outcome, cause);
        }
    }

    /** What a failed attempt means to the breaker (the policy's list). */
    private Breaker.Outcome outcomeOf(Throwable failure) {
        return switch (failure) {
            case McpSessionExpiredException e -> Breaker.Outcome.NEUTRAL; // renewed by the engine
            case McpTransportException e -> overloaded(e) && (breakerPolicy == null || !breakerPolicy.countOverloaded())
                    ? Breaker.Outcome.NEUTRAL : Breaker.Outcome.FAILURE;
            case McpTimeoutException e -> Breaker.Outcome.FAILURE;
            case McpRpcException e -> Breaker.Outcome.SUCCESS; // the server answered
            default -> Breaker.Outcome.NEUTRAL; // a cancel, an interrupt, the close, a malformed answer, a refusal
        };
    }

    /** What a result means to the breaker: a success, or a failure for a tool error the policy counts. */
    private Breaker.Outcome outcomeOf(String method, Object result) {
        return breakerPolicy != null && breakerPolicy.countToolErrors() && method.equals("tools/call")
                && result instanceof Map<?, ?> m && Boolean.TRUE.equals(m.get("isError"))
                ? Breaker.Outcome.FAILURE : Breaker.Outcome.SUCCESS;
    }

    private static boolean overloaded(McpTransportException e) {
        int status = e.httpStatus().orElse(0);
        return status == 429 || status == 503;
    }

    /** Whether the retry policy sends the request again after {@code failure}. */
    private boolean mayRetry(Request request, RuntimeException failure, int attempts, CallWaits waits) {
        if (retry == null || attempts >= retry.maxAttempts() || waits.over() || clientClosed.getAsBoolean()) {
            return false;
        }
        String method = request.method();
        boolean idempotent = RetryPolicy.isIdempotent(method)
                || method.equals("tools/call") && retry.retryIdempotentTools() && request.params() != null
                && request.params().get("name") instanceof String name && idempotentTool.test(name);
        if (!idempotent || !(failure instanceof McpTransportException t) || t instanceof McpSessionExpiredException) {
            return false;
        }
        // 429 and 503: the HTTP transport itself sends again as the server's Retry-After asks, within the deadline
        // (a refusal means the server did not process it); what reaches here it gave up on, and is not doubled
        int status = t.httpStatus().orElse(0);
        return status == 0 || status >= 500 && status != 503 || status == 408;
    }

    /**
     * Waits the backoff before attempt {@code failed + 1}: between half and all of the policy's backoff. Returns
     * {@code false} without waiting when the backoff would end past the deadline.
     *
     * @throws dev.loommcp.McpCancelledException if the request ends while it waits (the failure suppressed)
     */
    private boolean backoff(RuntimeException failure, int failed, CallWaits waits) throws InterruptedException {
        long full = retry.backoff(failed).toNanos();
        long nanos = full / 2 + ThreadLocalRandom.current().nextLong(full / 2 + 1);
        if (!waits.deadline().isNone() && nanos >= waits.deadline().remainingNanos()) {
            return false;
        }
        try {
            waits.sleep(nanos, "the backoff before retry " + failed);
        } catch (RuntimeException e) {
            e.addSuppressed(failure);
            throw e;
        }
        return true;
    }
}
