package dev.loommcp.internal.session;

import dev.loommcp.McpCancelledException;
import dev.loommcp.McpClosedException;
import dev.loommcp.McpException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpTransportException;
import dev.loommcp.internal.session.base.CallContext;
import dev.loommcp.internal.session.base.CancelSignal;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.Deadline;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One request waiting for its response. As a {@code Consumer<String>} it is the cancel of its wait (the reason
 * given), which the request's scope runs when it ends ({@code RequestScope.waiting}): no allocation per call.
 */
final class PendingCall implements java.util.function.Consumer<String> {
    final long id;
    final String method;
    final long startNanos;
    final CompletableFuture<JsonRpcMessage> future = new CompletableFuture<>();
    volatile long lastProgressNanos;
    /** Set with the listener: carries the call's progress to the calling thread. */
    volatile ProgressRelay relay;
    /** Answered with an id such as {@code "7"}: the transport did not recognize the answer as this request's. */
    volatile boolean looselyMatched;
    /** The deadline {@link DeadlineWatch} enforces; written before {@link #watched}. */
    Deadline watchedDeadline;
    /** Whether {@link DeadlineWatch} ends this call at {@link #watchedDeadline}: then {@link #await} waits untimed. */
    volatile boolean watched;

    PendingCall(long id, String method, long startNanos) {
        this.id = id;
        this.method = method;
        this.startNanos = startNanos;
        this.lastProgressNanos = startNanos;
    }

    /** Ends the wait as cancelled, for {@code reason} (a no-op once the call has its answer). */
    @Override
    public void accept(String reason) {
        future.completeExceptionally(new CancelSignal(reason));
    }

    /**
     * Marks {@code context} as a send whose caller blocks for the answer right after it
     * ({@link dev.loommcp.spi.SendContext#callerWaits()}): the transport may then run the exchange on the calling
     * thread, which is not in {@link #await} to notice that the call ended otherwise. So whatever ends the call
     * without the transport's own answer (a token, a malformed answer, the client closing, an answer with a loose
     * id that the transport does not recognize as this request's) also cancels the context, which aborts that
     * exchange at once.
     */
    void waitsInline(CallContext context) {
        context.callerWaits(true);
        future.whenComplete((r, e) -> {
            if (e != null || looselyMatched) {
                context.cancel();
            }
        });
    }

    /**
     * Waits for the response: until {@code deadline}, or with {@code reset} until {@code progressTimeout} after the
     * latest progress (never past {@code hardDeadline}; without a progress timeout, until {@code hardDeadline}). Runs
     * the progress listener of a relay on the calling thread meanwhile.
     *
     * @return the response or error response
     * @throws McpTimeoutException     if the deadline passed first
     * @throws McpCancelledException   if the caller's token fired
     * @throws McpClosedException      if the client was closed
     * @throws McpTransportException   if the request could not be sent
     * @throws IllegalArgumentException if the params are not plain JSON
     * @throws InterruptedException    if the calling thread is interrupted
     */
    JsonRpcMessage await(Deadline deadline, Deadline hardDeadline, Duration progressTimeout, boolean reset)
            throws InterruptedException {
        while (true) {
            Deadline effective = !reset ? deadline : progressTimeout == null ? hardDeadline
                    : Deadline.ofNanoTime(lastProgressNanos).plus(progressTimeout).earliest(hardDeadline);
            long left = effective.remainingNanos();
            if (left <= 0) {
                throw timedOut();
            }
            try {
                ProgressRelay relay = this.relay;
                if (relay != null) {
                    return relay.await(future, left); // runs the progress listener on this thread meanwhile
                }
                // a watched call needs no timer of its own: the watcher fails it at its deadline
                return left == Long.MAX_VALUE || watched ? future.get() : future.get(left, TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                // loop: progress may have moved the deadline
            } catch (InterruptedException e) {
                // the JDK's carries no message: say which call the interrupt ended
                throw new InterruptedException(method + " (id " + id + ") interrupted while waiting for its response");
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof Expired) {
                    throw timedOut(); // the watcher fails a call only once its deadline passed
                }
                if (cause instanceof CancelSignal c) {
                    throw new McpCancelledException(method + " (id " + id + ") cancelled: " + c.reason);
                }
                if (cause instanceof McpClosedException closed) {
                    throw new McpClosedException(method + " (id " + id + ") failed: the client was closed",
                            closed.getCause());
                }
                if (cause instanceof McpException m) {
                    throw m;
                }
                if (cause instanceof InterruptedException ie) {
                    throw ie;
                }
                if (cause instanceof IllegalArgumentException iae) {
                    throw new IllegalArgumentException(iae.getMessage(), iae); // params that are not plain JSON
                }
                throw new McpTransportException(method + " (id " + id + ") could not be sent: " + cause, cause);
            }
        }
    }

    private McpTimeoutException timedOut() {
        return new McpTimeoutException(method + " (id " + id + ") timed out: no response within "
                + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos) + " ms");
    }

    /** Fails a call whose deadline passed ({@link DeadlineWatch}); {@link #await} reports it as a timeout. */
    static final class Expired extends RuntimeException {
        static final Expired INSTANCE = new Expired();

        private Expired() {
            super("deadline passed", null, false, false);
        }
    }
}
