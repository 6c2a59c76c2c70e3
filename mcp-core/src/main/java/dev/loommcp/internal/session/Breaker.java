package dev.loommcp.internal.session;

import dev.loommcp.McpCircuitOpenException;
import dev.loommcp.policy.CircuitBreakerPolicy;
import dev.loommcp.policy.CircuitState;
import dev.loommcp.policy.CircuitStateChange;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * A client's circuit breaker ({@link CircuitBreakerPolicy}): a sliding time window of the last failures' end times
 * (at most {@code failureThreshold} kept), the open state's end, and the probes in flight while half-open. Each
 * attempt takes a {@link Ticket} before it is sent and reports its {@link Outcome} on it. A ticket knows the epoch
 * (state period) it was taken in, so that a late answer of an earlier period decides nothing. Thread-safe: one
 * {@link ReentrantLock}; state changes are queued to {@code changes} under it (a queue: no user code runs there), so
 * their order is the order they happened in.
 */
final class Breaker {

    /** What an attempt's end means to the breaker. */
    enum Outcome {
        /** The server answered (a result, a JSON-RPC error). */
        SUCCESS,
        /** A failure the policy counts. */
        FAILURE,
        /** Decides nothing (a cancel, the client's close, a failure the policy does not count). */
        NEUTRAL
    }

    /** One attempt's admission. */
    record Ticket(long epoch, boolean probe) {
    }

    private final CircuitBreakerPolicy policy;
    private final String server;
    private final Consumer<CircuitStateChange> changes;
    private final long window;
    private final long openNanos;
    private final ReentrantLock lock = new ReentrantLock();
    /** End times (nanoTime) of the failures in the window, oldest first; under {@link #lock}. */
    private final ArrayDeque<Long> failures = new ArrayDeque<>();
    private CircuitState state = CircuitState.CLOSED;
    private long epoch;
    /** When the open state ends (nanoTime); under {@link #lock}. */
    private long openUntil;
    private int probes;
    private Throwable lastFailure;

    /**
     * @param changes told each state change, under the breaker's lock: it must only queue it
     */
    Breaker(CircuitBreakerPolicy policy, String server, Consumer<CircuitStateChange> changes) {
        this.policy = policy;
        this.server = server;
        this.changes = changes;
        this.window = policy.window().toNanos();
        this.openNanos = policy.openDuration().toNanos();
    }

    /**
     * Admits an attempt, or refuses it at once.
     *
     * @throws McpCircuitOpenException if the breaker is open, or half-open with every probe slot taken
     */
    Ticket admit(String method) {
        lock.lock();
        try {
            long now = System.nanoTime();
            if (state == CircuitState.OPEN) {
                long left = openUntil - now;
                if (left > 0) {
                    throw new McpCircuitOpenException(method + " not sent: the circuit breaker of " + server
                            + " is open after " + policy.failureThreshold() + " failures within "
                            + policy.window().toMillis() + " ms; it lets a probe call through in "
                            + Math.max(1, left / 1_000_000) + " ms", CircuitState.OPEN, Duration.ofNanos(left),
                            lastFailure);
                }
                change(CircuitState.HALF_OPEN, null);
            }
            if (state == CircuitState.HALF_OPEN) {
                if (probes >= policy.halfOpenProbes()) {
                    throw new McpCircuitOpenException(method + " not sent: the circuit breaker of " + server
                            + " is half-open and its " + policy.halfOpenProbes() + " probe call(s) are in flight",
                            CircuitState.HALF_OPEN, Duration.ZERO, lastFailure);
                }
                probes++;
                return new Ticket(epoch, true);
            }
            return new Ticket(epoch, false);
        } finally {
            lock.unlock();
        }
    }

    /** Reports how an admitted attempt ended. */
    void record(Ticket ticket, Outcome outcome, Throwable cause) {
        lock.lock();
        try {
            if (ticket.epoch() != epoch) {
                return; // admitted in an earlier period: the state moved on since
            }
            long now = System.nanoTime();
            if (ticket.probe()) {
                probes--;
                if (outcome == Outcome.SUCCESS) {
                    change(CircuitState.CLOSED, null);
                } else if (outcome == Outcome.FAILURE) {
                    lastFailure = cause;
                    open(now, cause);
                }
                return;
            }
            if (outcome != Outcome.FAILURE || state != CircuitState.CLOSED) {
                return;
            }
            lastFailure = cause;
            failures.addLast(now);
            while (!failures.isEmpty() && (now - failures.peekFirst() > window
                    || failures.size() > policy.failureThreshold())) {
                failures.pollFirst();
            }
            if (failures.size() >= policy.failureThreshold()) {
                open(now, cause);
            }
        } finally {
            lock.unlock();
        }
    }

    private void open(long now, Throwable cause) {
        openUntil = now + openNanos;
        change(CircuitState.OPEN, cause);
    }

    /** Under the lock: moves to {@code next}, starts a new epoch, queues the change. */
    private void change(CircuitState next, Throwable cause) {
        CircuitState previous = state;
        state = next;
        epoch++;
        probes = 0;
        failures.clear();
        changes.accept(new CircuitStateChange(previous, next, cause));
    }

    /**
     * The state now: an open breaker whose open duration has passed becomes {@link CircuitState#HALF_OPEN} here (its
     * change told), as it does when the next call comes.
     */
    CircuitState state() {
        lock.lock();
        try {
            if (state == CircuitState.OPEN && openUntil - System.nanoTime() <= 0) {
                change(CircuitState.HALF_OPEN, null);
            }
            return state;
        } finally {
            lock.unlock();
        }
    }
}
