package dev.loommcp.internal.session;

import dev.loommcp.CancellationToken;
import dev.loommcp.McpCancelledException;
import dev.loommcp.McpClosedException;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpRpcException;
import dev.loommcp.McpSessionExpiredException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpTransportException;
import dev.loommcp.RequestOptions;
import dev.loommcp.internal.scope.RequestScope;
import dev.loommcp.Registration;
import dev.loommcp.internal.scope.Scope;
import dev.loommcp.internal.scope.ScopeThreads;
import dev.loommcp.internal.scope.Joiner;
import dev.loommcp.internal.session.base.CallContext;
import dev.loommcp.internal.session.base.CancelSignal;
import dev.loommcp.internal.session.base.Deadlines;
import dev.loommcp.internal.session.base.Params;
import dev.loommcp.internal.session.config.SessionConfig;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.Deadline;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.spi.RequestRouting;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The life of one request of a client, whichever era's wire path built it (DESIGN.md section 3, "the life of a
 * call"): its scope under the calling thread's, its id and pending entry, its deadline (inherited from the scope,
 * watched by the {@link DeadlineWatch}), its token, its progress relay, the send, the wait for the answer
 * ({@link PendingCall#await}), and {@code notifications/cancelled} on the wire when it ends without one; also the
 * one-way send of a notification. It owns the pending calls that the transport's answers complete ({@link Answers}).
 * Thread-safe.
 */
final class CallLife {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");

    private final ClientLife life;
    private final McpTransport transport;
    private final Duration requestTimeout;
    private final int listenerQueueCapacity;
    private final long listenerQueueBytes;
    private final AtomicLong droppedEvents;
    private final Events observed;
    private final AtomicLong ids;
    private final ConcurrentHashMap<Long, PendingCall> pending;
    /** Fails the plain calls of {@link #pending} at their deadline, one thread for all of them. */
    private final DeadlineWatch deadlines;

    /**
     * @param droppedEvents counts the progress events a full relay dropped
     * @param ids           the client's request ids (the {@link Answers} match answers with them)
     * @param pending       the calls waiting for their answer, by id
     */
    CallLife(ClientLife life, McpTransport transport, SessionConfig config, AtomicLong droppedEvents, Events observed,
             AtomicLong ids, ConcurrentHashMap<Long, PendingCall> pending) {
        this.life = life;
        this.transport = transport;
        this.requestTimeout = config.requestTimeout();
        this.listenerQueueCapacity = config.listenerQueueCapacity();
        this.listenerQueueBytes = config.listenerQueueBytes();
        this.droppedEvents = droppedEvents;
        this.observed = observed;
        this.ids = ids;
        this.pending = pending;
        this.deadlines = new DeadlineWatch(pending, life);
    }

    /** The call's deadline from its options and the client's default timeout, counted from {@code start}. */
    Deadline deadlineOf(RequestOptions options, Deadline start) {
        return Deadlines.of(options, start, requestTimeout);
    }

    /** The call's deadline from its options and the client's default timeout, counted from now. */
    Deadline deadlineOf(RequestOptions options) {
        return deadlineOf(options, Deadline.ofNanoTime(System.nanoTime()));
    }

    /**
     * The exception for a call that a cancel ended: {@link dev.loommcp.McpClosedException} when {@code close()}
     * caused it (the release cancels the client's tree), else the cancel itself.
     */
    RuntimeException closedInsteadOfCancelled(String method, McpCancelledException e) {
        return life.closedByOwner() ? ClientLife.closedInstead(method, e) : e;
    }

    /** Throws unless the client is connected: {@link ClientLife#ensureConnected}. */
    void ensureConnected(String method) {
        life.ensureConnected(method);
    }

    /** The transport's description, for messages. */
    String describe() {
        return transport.describe();
    }

    /** How often the deadline watch looked at the pending calls (tests). */
    long deadlineScans() {
        return deadlines.scans();
    }

    /**
     * The deadline of a request's rounds and retries in the scope {@link #openScope} opened for it from the same
     * {@code start}: the scope's own (the call's, or an inherited earlier one), made no second time; for a call that
     * resets its timeout on progress, the call's deadline from {@code start} within the scope's hard limit.
     */
    Deadline deadlineIn(Scope<?, ?> scope, RequestOptions options, Deadline start) {
        return options.resetTimeoutOnProgress() ? deadlineOf(options, start).earliest(scope.deadline())
                : scope.deadline();
    }

    /**
     * Opens the scope of one request (all its rounds and retries): under the scope the calling thread is in (a
     * handler or listener of another request, on this client or another, or a user's fan-out scope), so that the
     * request inherits its deadline and ends with it; else under the client's own scope. Code running inside it
     * reads it as {@code McpContext.current()}. Its deadline is the call's ({@code maxTotalTimeout} or the absolute
     * deadline for a call that resets its timeout on progress), from {@code start}.
     *
     * @throws McpClosedException    if the client has closed
     * @throws McpCancelledException if the scope the calling thread is in has ended (the outer request was
     *                               cancelled or timed out): nothing is sent
     */
    Scope<Object, Void> openScope(String method, RequestOptions options, Deadline start) {
        Deadline deadline = options.resetTimeoutOnProgress() ? Deadlines.hardLimit(options, start)
                : deadlineOf(options, start);
        Scope<?, ?> outer = ScopeThreads.current();
        if (outer != null && outer.isCancelled()) {
            throw new McpCancelledException(method + " not sent: the scope it was called in has ended ("
                    + outer.endedBy() + ")");
        }
        try {
            return Scope.open(method, Joiner.awaitAll(), deadline, life.work(),
                    new RequestScope(life, method, transport.describe()));
        } catch (IllegalStateException ended) {
            if (life.isClosed()) {
                throw life.closedException(method);
            }
            throw new McpCancelledException(method + " not sent: the scope it was called in has ended");
        }
    }

    /**
     * Sends one request and waits for its response. The heart of the client: DESIGN.md section 3, "the life of a
     * call". The wire path of the era ({@link LegacyWire}, {@link ModernRequests}) built the request and opened its
     * scope.
     *
     * @param method    the method
     * @param params    the params as sent
     * @param options   deadline, token, progress listener
     * @param handshake whether it is a request of the handshake (or of a renewal): sent while connecting, never
     *                  cancelled on the wire
     * @param routing   the request's routing (modern era), or {@code null}
     * @param onSent    told the request's id just before it is handed to the transport, or {@code null}
     * @return the result
     * @throws InterruptedException if the calling thread is interrupted
     */
    Object call(String method, Map<String, Object> params, RequestOptions options, boolean handshake,
                RequestRouting routing, Consumer<RequestId> onSent) throws InterruptedException {
        if (!handshake) {
            life.ensureConnected(method);
        } else if (!life.isOpen()) {
            throw life.closedException(method);
        }
        if (Thread.interrupted()) {
            throw new InterruptedException(method + " not sent: the thread was interrupted");
        }
        CancellationToken token = options.token().orElse(null);
        if (token != null && token.isCancelled()) {
            throw new McpCancelledException(method + " not sent: the token was already cancelled ("
                    + token.reason().orElse("cancelled") + ")");
        }
        long start = System.nanoTime();
        // the scope the call runs in: its request's (opened by the wire path), or, for the handshake, whatever scope
        // the connecting thread is in; its deadline bounds the call, its end cancels it
        Scope<?, ?> scope = ScopeThreads.current();
        RequestScope ours = scope != null && scope.attachment() instanceof RequestScope r && r.isOf(life) ? r : null;
        Deadline deadline;
        Deadline hardDeadline;
        Duration progressTimeout = null; // with resetTimeoutOnProgress: how long after the last progress
        if (options.resetTimeoutOnProgress()) {
            Deadline startAt = Deadline.ofNanoTime(start);
            deadline = deadlineOf(options, startAt);
            progressTimeout = deadline.isNone() ? null : Duration.ofNanos(deadline.nanoTime() - start);
            hardDeadline = Deadlines.hardLimit(options, startAt);
        } else if (ours != null) {
            // the request's scope holds this call's deadline already (made from the same options a moment ago, or
            // from what was left of it for a retry or an input round): not made a second time
            deadline = scope.deadline();
            hardDeadline = deadline;
        } else {
            deadline = deadlineOf(options, Deadline.ofNanoTime(start));
            hardDeadline = deadline;
        }
        if (scope != null && !scope.deadline().isNone()) {
            hardDeadline = hardDeadline.earliest(scope.deadline());
            if (!options.resetTimeoutOnProgress()) {
                deadline = hardDeadline;
            }
        }
        if (deadline.isExpired()) {
            // a deadline already in the past (a tiny timeout, an Instant before now): nothing goes on the wire
            throw new McpTimeoutException(method + " not sent: its deadline had passed");
        }
        long id = ids.incrementAndGet();
        RequestId requestId = RequestId.of(id);
        PendingCall p = new PendingCall(id, method, start);
        if (options.progressListener().isPresent()) {
            p.relay = new ProgressRelay(options.progressListener().get(), p.future, listenerQueueCapacity,
                    listenerQueueBytes, droppedEvents);
        }
        if (p.relay != null || options.resetTimeoutOnProgress()) {
            // a server sends progress only for a request with a token: resetting the timeout needs it too
            params = Params.withMeta(params, Map.of("progressToken", id));
        }
        JsonRpcMessage.Request request = new JsonRpcMessage.Request(requestId, method, params);
        CallContext context = new CallContext(options.resetTimeoutOnProgress() ? hardDeadline : deadline, requestId,
                false, routing, ours != null ? scope : life.work());
        if (ours != null) {
            ours.sent(requestId);
        }
        if (p.relay == null && !options.resetTimeoutOnProgress()) {
            p.waitsInline(context); // this thread only blocks for the answer after send: the exchange may run on it
        }
        pending.put(id, p);
        if (life.isClosed()) {
            pending.remove(id);
            throw life.closedException(method);
        }
        if (p.relay == null && !options.resetTimeoutOnProgress() && !deadline.isNone()) {
            deadlines.watch(p, deadline); // the caller then waits without a timer of its own
        }
        Registration registration = token == null ? null
                : token.onCancel(() -> p.future.completeExceptionally(
                        new CancelSignal(token.reason().orElse("cancelled"))));
        // the end of the scope it runs in (the outer request, a fan-out scope, the client) cancels it on the wire;
        // its own request's scope is told through its attachment (no registration per call), another through a
        // cancel action removed when the call ends
        Registration scopeEnd = null;
        if (ours != null) {
            ours.waiting(scope, p);
        } else if (scope != null) {
            scopeEnd = scope.onCancel(() -> p.accept(scope.endedBy()));
        }
        String cancelReason = null;
        observed.requestStart(method, requestId);
        try {
            try {
                if (onSent != null) {
                    onSent.accept(requestId);
                }
                // queues and returns; a failure of the exchange comes back through the sink's onSendFailed
                transport.send(request, context);
            } catch (RuntimeException e) {
                if (life.closedByOwner()) {
                    throw ClientLife.closedInstead(method, e);
                }
                if (life.isClosed() && !(e instanceof McpTransportException)) {
                    // the transport was lost while this was being sent, and the send failed of the client's end (a
                    // fork into its ended scope): the call fails as the waiting ones do, with what the loss failed
                    // them with when it reached this one too (it was pending), else closed with the loss as cause
                    if (p.future.isCompletedExceptionally()
                            && p.future.exceptionNow() instanceof McpTransportException loss) {
                        throw loss;
                    }
                    throw lostWhileSending(method, e);
                }
                if (scope != null && scope.isCancelled()) { // the scope ended while the request was being sent
                    cancelReason = scope.endedBy();
                    McpCancelledException c = new McpCancelledException(method + " cancelled while sending: "
                            + cancelReason);
                    c.addSuppressed(e);
                    throw c;
                }
                throw e;
            }
            JsonRpcMessage response;
            try {
                response = p.await(deadline, hardDeadline, progressTimeout, options.resetTimeoutOnProgress());
            } catch (McpTimeoutException e) {
                cancelReason = "timeout";
                String waiting = context.waitingFor();
                if (waiting != null) { // the transport was waiting for something of its own: say what
                    McpTimeoutException said = new McpTimeoutException(e.getMessage() + " (the transport was "
                            + waiting + ")");
                    said.setStackTrace(e.getStackTrace());
                    throw said;
                }
                throw e;
            } catch (McpCancelledException e) {
                cancelReason = token != null && token.reason().isPresent() ? token.reason().get()
                        : scope != null && scope.isCancelled() ? scope.endedBy() : "cancelled";
                throw e;
            } catch (InterruptedException e) {
                cancelReason = "interrupted";
                throw e;
            } catch (McpTransportException e) {
                if (context.accepted() && !(e instanceof McpSessionExpiredException)) {
                    // the server has the request and may still be working on it: a transport failure is not a
                    // cancel (Streamable HTTP), so say that the client stopped waiting
                    cancelReason = "the client stopped waiting: the request's answer stream failed";
                }
                throw e;
            }
            if (p.looselyMatched) {
                context.cancel(); // the transport still waits for the exact id it will never see: end it
            } else {
                context.markCompleted(); // the exchange ends on its own once the response was delivered
            }
            if (response instanceof JsonRpcMessage.Response) {
                observed.requestEnd(method, requestId, start);
            }
            return switch (response) {
                case JsonRpcMessage.Response r -> Answers.resultOf(r, p);
                case JsonRpcMessage.ErrorResponse e -> throw new McpRpcException(method, requestId, e.error());
                default -> throw new McpProtocolException("unexpected answer to " + method);
            };
        } catch (Throwable t) {
            observed.requestFailed(method, requestId, start, t, cancelReason);
            throw t;
        } finally {
            pending.remove(id);
            if (p.relay != null) {
                p.relay.close();
            }
            if (registration != null) {
                registration.close();
            }
            if (scopeEnd != null) {
                scopeEnd.close();
            }
            if (ours != null) {
                ours.waiting(scope, null);
            }
            context.cancel(); // aborts the exchange of a call that ended without its response (no-op after it)
            // modern HTTP-like transports cancel by aborting the exchange (context.cancel() above), never in-band
            if (cancelReason != null && !handshake && life.isConnected()
                    && (routing == null || !transport.exchangePerRequest())) {
                sendCancelled(requestId, method, cancelReason, routing);
            }
        }
    }

    /**
     * The exception of a send that failed because the client ended meanwhile, not by its owner's {@code close()}:
     * closed, with what ended it (the transport's loss) as cause and the send's own failure suppressed.
     */
    private McpClosedException lostWhileSending(String method, RuntimeException sendFailure) {
        McpClosedException closed = life.closedException(method);
        closed.addSuppressed(sendFailure);
        return closed;
    }

    private void sendCancelled(RequestId id, String method, String reason, RequestRouting requestRouting) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("requestId", id.value());
        params.put("reason", reason);
        JsonRpcMessage.Notification n = new JsonRpcMessage.Notification("notifications/cancelled", params);
        try {
            // queued; the transport's close() lets it go out (bounded) before it aborts what is in flight
            // the transport's scope owns the send: the request's scope ends right after this, and the release
            // cancels the client's own threads before it closes the transport, whose close lets queued one-way
            // sends out (bounded); either would interrupt the send if it owned it
            transport.send(n, new CallContext(Deadline.after(Duration.ofSeconds(5)), id, false,
                    requestRouting == null ? null : Envelope.notificationRouting(n.method(),
                            requestRouting.protocolVersion()), life.transportThreads()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "notifications/cancelled for " + method + " (id " + id
                    + ") not sent: " + e.getMessage());
        }
    }

    /**
     * Sends a notification within the options' deadline; the token, when it fires, aborts the send. The wire path
     * checked the client is connected and the method is not removed in its era.
     *
     * @param method  the method
     * @param params  the params, or {@code null}
     * @param options deadline and token
     * @param routing the notification's routing (modern era), or {@code null}
     * @throws InterruptedException if the calling thread is interrupted
     */
    void notify(String method, Map<String, Object> params, RequestOptions options, RequestRouting routing)
            throws InterruptedException {
        CancellationToken token = options.token().orElse(null);
        if (token != null && token.isCancelled()) {
            throw new McpCancelledException(method + " not sent: the token was already cancelled ("
                    + token.reason().orElse("cancelled") + ")");
        }
        Deadline deadline = deadlineOf(options);
        if (deadline.isExpired()) {
            throw new McpTimeoutException(method + " not sent: its deadline had passed");
        }
        // the caller learns a refused delivery (an HTTP error status), as it always did
        CallContext context = new CallContext(deadline, null, true, routing, life.transportThreads());
        Registration registration = token == null ? null : token.onCancel(context::cancel);
        try {
            transport.send(new JsonRpcMessage.Notification(method, params), context);
        } catch (RuntimeException e) {
            if (life.closedByOwner()) {
                throw ClientLife.closedInstead(method, e);
            }
            if (life.isClosed() && !(e instanceof McpTransportException)) {
                throw lostWhileSending(method, e);
            }
            if (context.isCancelled()) {
                McpCancelledException c = new McpCancelledException(method + " cancelled while sending: "
                        + token.reason().orElse("cancelled"));
                c.addSuppressed(e);
                throw c;
            }
            throw e;
        } finally {
            if (registration != null) {
                registration.close();
            }
        }
    }
}
