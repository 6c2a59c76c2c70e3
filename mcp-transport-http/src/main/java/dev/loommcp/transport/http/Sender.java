package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.Exchange.LOG;
import static dev.loommcp.transport.http.Exchange.isJson;
import static dev.loommcp.transport.http.Exchange.mediaType;
import static dev.loommcp.transport.http.HeaderRules.SESSION_HEADER;

import dev.loommcp.McpException;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpSessionExpiredException;
import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.spi.Deadline;
import dev.loommcp.spi.SendContext;
import dev.loommcp.spi.TransportSink;
import java.lang.System.Logger.Level;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Sends the client's messages: a request is POSTed in the current session and its answer (JSON, or SSE resumed
 * when it breaks) read until the response arrives; a notification or response is POSTed and its 2xx accepted. A 404
 * for a request that carried the session marks the session {@linkplain HttpSession#EXPIRED expired} and fails with
 * {@link McpSessionExpiredException} (the client starts the new session). Until then only {@code initialize} (the one
 * MCP method this class knows) goes out; any other message is refused unsent
 * ({@link McpSessionExpiredException#wasSent()} {@code false}), never sent without a session. A request sent without
 * a session takes the {@code Mcp-Session-Id} its answer returns. Every exchange in flight is registered so that
 * closing can abort it. Thread-safe: many threads send at once.
 */
final class Sender {

    /** How many notifications and responses may be POSTed at once before more are dropped. */
    static final int MAX_ONE_WAY_IN_FLIGHT = 256;
    /** What a dropped {@code notifications/cancelled} POST is called ({@code HttpTransport.oneWayWhat}). */
    static final String CANCELLED_WHAT = "POST notifications/cancelled";
    /** The longest a burst of drops goes unreported while POSTs stay stuck: 10 s. */
    static final long DROP_REPORT_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final Exchange exchange;
    private final ResponseStream responses;
    private final Inbound inbound;
    private final AtomicReference<HttpSession> session;
    private final AtomicBoolean closed;
    private final HttpSettings settings;
    private final Set<Call> active = ConcurrentHashMap.newKeySet();
    /** The threads running request exchanges. */
    private final Set<Thread> requestThreads = ConcurrentHashMap.newKeySet();
    /** The threads POSTing notifications and responses; close() lets them finish, bounded. */
    private final Set<Thread> oneWayThreads = ConcurrentHashMap.newKeySet();
    /** Bounds the one-way POSTs in flight: a server that accepts none cannot make the client start threads forever. */
    private final AtomicInteger oneWayInFlight = new AtomicInteger();
    private volatile int maxOneWayInFlight = MAX_ONE_WAY_IN_FLIGHT;
    private final AtomicLong droppedOneWay = new AtomicLong();
    /** Of {@link #droppedOneWay}: the {@code notifications/cancelled}. */
    private final AtomicLong droppedCancels = new AtomicLong();
    /** How many of {@link #droppedOneWay} a WARNING reported already. */
    private final AtomicLong reportedDrops = new AtomicLong();
    /** How many of {@link #droppedCancels} a WARNING reported already. */
    private final AtomicLong reportedCancelDrops = new AtomicLong();
    /** When the latest drop WARNING was logged ({@link System#nanoTime()}). */
    private volatile long lastDropReportNanos;

    Sender(Exchange exchange, ResponseStream responses, Inbound inbound, AtomicReference<HttpSession> session,
           AtomicBoolean closed, HttpSettings settings) {
        this.exchange = exchange;
        this.responses = responses;
        this.inbound = inbound;
        this.session = session;
        this.closed = closed;
        this.settings = settings;
    }

    /**
     * Starts a request's exchange, aborted by the context's cancel; a failure goes to the sink's
     * {@code onSendFailed}. When the caller waits for the answer anyway ({@link SendContext#callerWaits()}) and no
     * user code runs in the exchange (an authorization provider or a request signer may block, and the caller
     * must get its timeout at the deadline meanwhile), the exchange runs on the calling thread, which returns once
     * the answer was delivered or the failure reported; otherwise it runs on its own thread (interrupted by the
     * context's cancel).
     */
    void startRequest(JsonRpcMessage.Request r, byte[] body, SendContext ctx, List<String[]> modern) {
        if (closed.get()) {
            throw exchange.closedNow("cannot send");
        }
        if (ctx.callerWaits() && settings.authorization == null && settings.signer == null) {
            runOnCaller(r, body, ctx, modern);
            return;
        }
        Thread[] self = new Thread[1];
        Thread t = settings.threads.newThread("http-send", () -> {
            try {
                sendRequest(r, body, ctx, modern);
            } catch (McpException e) {
                if (!ctx.isCancelled()) { // a cancelled call no longer waits: its aborted exchange is no news
                    reportFailure(r, e);
                }
            } catch (InterruptedException e) {
                if (!ctx.isCancelled()) {
                    reportFailure(r, exchange.closedOr(new McpTransportException("POST " + r.method() + " (id "
                            + r.id() + ") interrupted")));
                }
            } catch (RuntimeException e) {
                reportUnexpected(r, e);
            } finally {
                requestThreads.remove(self[0]);
            }
        });
        self[0] = t;
        requestThreads.add(t); // before start: a close() right after this call must see it
        t.start();
        ctx.onCancel(t::interrupt);
    }

    /**
     * Runs a request's exchange on the calling thread, which blocks for the answer anyway; its HTTP requests use the
     * client's blocking {@code send} ({@link Call#onCallersThread}). The deadline bounds every wait of it; the
     * context's cancel and closing abort its {@link Call}: closing the body wakes this thread, and while it blocks in
     * {@code send} an interrupt does, which the exchange then clears (the caller's interrupt status is as it was).
     * An interrupt of the caller ends the exchange and returns with the interrupt flag set: the core's wait then
     * throws {@link InterruptedException} at once.
     */
    private void runOnCaller(JsonRpcMessage.Request r, byte[] body, SendContext ctx, List<String[]> modern) {
        try {
            sendRequest(r, body, ctx, modern, true);
        } catch (McpException e) {
            if (!ctx.isCancelled()) {
                reportFailure(r, e);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            reportUnexpected(r, e);
        }
    }

    private void reportUnexpected(JsonRpcMessage.Request r, RuntimeException e) {
        LOG.log(Level.WARNING, "POST " + r.method() + " to " + exchange.origin() + " failed unexpectedly", e);
        reportFailure(r, new McpTransportException("POST " + r.method() + " (id " + r.id() + ") failed: " + e, e));
    }

    private void reportFailure(JsonRpcMessage.Request r, McpException e) {
        TransportSink sink = inbound.sink();
        if (sink != null) {
            sink.onSendFailed(r.id(), e);
        }
    }

    /**
     * Sends a notification or a response: with {@link SendContext#awaitDelivery()} on this thread (returning once
     * its 2xx arrived, throwing what went wrong); otherwise on its own thread, a failure logged at DEBUG and dropped
     * (nobody waits for it), and beyond {@value #MAX_ONE_WAY_IN_FLIGHT} in flight dropped and counted. The drops are
     * reported by WARNINGs that together count every one: the first drop at once, then what was dropped since the
     * last report when a POST in flight ends (the burst is over) or {@link #DROP_REPORT_INTERVAL_NANOS} after the
     * last report, and at close.
     */
    void startOneWay(byte[] body, SendContext ctx, String what, List<String[]> modern) throws InterruptedException {
        if (ctx.awaitDelivery()) {
            sendOneWay(body, ctx, what, modern);
            return;
        }
        if (closed.get()) {
            throw exchange.closedNow("cannot send");
        }
        int limit = maxOneWayInFlight;
        if (oneWayInFlight.incrementAndGet() > limit) {
            oneWayInFlight.decrementAndGet();
            if (what.equals(CANCELLED_WHAT)) {
                droppedCancels.incrementAndGet(); // before the total: a report never counts more cancels than drops
            }
            long n = droppedOneWay.incrementAndGet();
            if (n == 1 || System.nanoTime() - lastDropReportNanos > DROP_REPORT_INTERVAL_NANOS) {
                reportDrops();
            }
            return;
        }
        Thread[] self = new Thread[1];
        Thread t = settings.threads.newThread("http-send", () -> {
            try {
                postOneWay(body, ctx, what, modern);
            } catch (McpException e) {
                LOG.log(Level.DEBUG, () -> what + " not delivered: " + e.getMessage());
            } catch (InterruptedException e) {
                LOG.log(Level.DEBUG, () -> what + " not delivered: interrupted");
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, what + " to " + exchange.origin() + " failed unexpectedly", e);
            } finally {
                oneWayThreads.remove(self[0]);
                oneWayInFlight.decrementAndGet();
                if (droppedOneWay.get() != reportedDrops.get()) {
                    reportDrops(); // a POST ended: the burst of drops (if any) is over, say how many
                }
            }
        });
        self[0] = t;
        oneWayThreads.add(t); // before start: close() must see it to let it finish
        t.start();
    }

    /**
     * Logs the drops no WARNING reported yet, if any, exactly once each (several threads may report at once: each
     * takes its own share of the counter).
     */
    void reportDrops() {
        long total = droppedOneWay.get();
        long cancels = droppedCancels.get();
        long before = reportedDrops.getAndAccumulate(total, Math::max);
        long cancelsBefore = reportedCancelDrops.getAndAccumulate(cancels, Math::max);
        if (total <= before) {
            return;
        }
        lastDropReportNanos = System.nanoTime();
        long newCancels = Math.max(0, cancels - cancelsBefore);
        LOG.log(Level.WARNING, "server at {0} accepts messages too slowly: {1} POSTs were in flight; dropped {2} "
                + "notification(s) or response(s) ({3} of them notifications/cancelled: those requests were not "
                + "cancelled on the server), {4} in all", exchange.origin(), maxOneWayInFlight, total - before,
                newCancels, total);
    }

    /** For tests: sets how many notifications and responses may be POSTed at once. */
    void limitOneWayInFlight(int limit) {
        maxOneWayInFlight = limit;
    }

    /** How many notifications and responses were dropped because too many were in flight. */
    long droppedOneWayCount() {
        return droppedOneWay.get();
    }

    /** How many of {@link #droppedOneWayCount()} were {@code notifications/cancelled}. */
    long droppedCancelCount() {
        return droppedCancels.get();
    }

    /**
     * Lets the notifications and responses already queued go out (close flushes a {@code notifications/cancelled}
     * on its way), waiting until {@code deadline} at most.
     *
     * @return whether the calling thread was interrupted while waiting
     */
    boolean awaitOneWay(Deadline deadline) {
        return settings.threads.joinAll(List.copyOf(oneWayThreads), deadline);
    }

    /**
     * Aborts every exchange in flight, interrupts the sending threads and waits for them until {@code deadline}.
     *
     * @return whether the calling thread was interrupted while waiting
     */
    boolean abortAndJoin(Deadline deadline) {
        abortAll();
        List<Thread> threads = new ArrayList<>(requestThreads);
        threads.addAll(oneWayThreads);
        threads.forEach(Thread::interrupt);
        return settings.threads.joinAll(threads, deadline);
    }

    /** How many exchanges are in flight. */
    int activeCount() {
        return active.size();
    }

    /** Aborts every exchange in flight; never blocks on I/O. */
    void abortAll() {
        for (Call c : active) {
            c.abort();
        }
    }

    /**
     * Sends a request and reads its answer until the response was delivered: the blocking exchange, run on its own
     * thread by {@link #startRequest} (tests call it directly).
     *
     * @param body   the request, encoded
     * @param modern the headers of a modern-era POST ({@link RoutingHeaders}), or {@code null} in the legacy era
     */
    void sendRequest(JsonRpcMessage.Request r, byte[] body, SendContext ctx, List<String[]> modern)
            throws InterruptedException {
        sendRequest(r, body, ctx, modern, false);
    }

    /**
     * {@link #sendRequest(JsonRpcMessage.Request, byte[], SendContext, List)}; {@code onCallersThread}: the calling
     * thread is the one that waits for the answer, so its HTTP requests may block in the client's {@code send}
     * ({@link Call#onCallersThread}).
     */
    private void sendRequest(JsonRpcMessage.Request r, byte[] body, SendContext ctx, List<String[]> modern,
                             boolean onCallersThread) throws InterruptedException {
        String what = "POST " + r.method() + " (id " + r.id() + ")";
        // a modern request without a deadline (a subscriptions/listen stream) is bounded by no transport timer
        Call call = new Call(r.id(), what, modern != null && ctx.deadline().isNone(), onCallersThread);
        call.startsSession = modern == null && r.method().equals("initialize");
        active.add(call);
        inbound.expect(r.id(), call);
        ctx.onCancel(call::abort);
        try {
            if (closed.get()) {
                throw exchange.closedNow("cannot send");
            }
            try {
                postRequest(call, body, ctx, modern);
            } catch (McpException e) {
                if (!call.completed()) {
                    if (call.serverHasRequest) {
                        ctx.markAccepted(); // the core then tells the server that nobody waits for the answer
                    }
                    throw exchange.closedOr(e);
                }
                // the response already arrived (on another stream): what broke afterwards does not matter
                LOG.log(Level.DEBUG, () -> call.what + ": ignored a failure after the response: " + e.getMessage());
            }
        } finally {
            inbound.forget(r.id(), call);
            active.remove(call);
            call.release();
        }
    }

    /**
     * The server no longer knows the session the request carried: drops it (unless another request already replaced
     * it) so that the client starts a new one, and returns the exception that tells the client so.
     */
    private McpSessionExpiredException sessionExpired(HttpSession current, Call call, int status) {
        return sessionExpired(session, current, call.what, status, exchange.origin());
    }

    /**
     * The server answered a request that carried the session {@code current} (a POST, a resumption GET, the GET
     * stream) with HTTP {@code status} saying it no longer knows it: marks the session
     * {@linkplain HttpSession#EXPIRED expired} (unless a newer one replaced it already), so that no request goes out
     * without a session until the client started a new one, and returns the exception that tells the client so.
     *
     * @param what what failed, for the message
     * @return the exception ({@code wasSent() == true})
     */
    static McpSessionExpiredException sessionExpired(AtomicReference<HttpSession> session, HttpSession current,
                                                     String what, int status, String origin) {
        if (session.compareAndSet(current, HttpSession.EXPIRED)) {
            // the core says at INFO that the session expired and a new one starts
            LOG.log(Level.DEBUG, "session with {0} expired (HTTP {1}); dropped it", origin, status);
        }
        return new McpSessionExpiredException(what + " failed with HTTP " + status + ": the server no longer "
                + "knows the session (the client starts a new one)");
    }

    /** A request that may not go out now: the session expired and no new one started yet. */
    private static McpSessionExpiredException notSentExpired(String what) {
        return new McpSessionExpiredException(what + " not sent: the server no longer knows the session and no new "
                + "one has started yet (the client starts it and may send the request then)", false);
    }

    /**
     * POSTs a request and reads its answer. In the modern era ({@code modern} headers given) the session is never
     * used nor taken, a 5xx with a JSON-RPC error body stays an HTTP failure, and a response stream is not resumed.
     */
    private void postRequest(Call call, byte[] body, SendContext ctx, List<String[]> modern)
            throws InterruptedException {
        HttpSession current = modern != null ? HttpSession.NONE : session.get();
        if (current.expired() && !call.startsSession) {
            throw notSentExpired(call.what); // never without a session: the server would refuse it as unknown
        }
        String sid = current.id();
        HttpResponse<StreamBody> resp = exchange.send(call, "POST", body,
                modern != null ? modern : current.postHeaders(), ctx.deadline().nanoTime());
        int status = resp.statusCode();
        if (status == 404 && sid != null) {
            resp.body().close();
            throw sessionExpired(current, call, 404);
        }
        if (status == 202 || status == 204) {
            resp.body().close();
            throw new McpProtocolException(call.what + " was answered with HTTP " + status + " and no response");
        }
        if (status < 200 || status >= 300) {
            exchange.failOrDeliverError(call, resp, call.awaitedId, m -> inbound.deliver(m, false),
                    sid == null ? null : () -> sessionExpired(current, call, 400), modern != null,
                    ctx.deadline().nanoTime());
            return;
        }
        if (sid == null && modern == null) {
            captureSession(resp); // the request that starts a session (initialize) gets its id in the answer
            if (call.startsSession) {
                // a server that assigns no session id: the expiry (if any) ends with the new initialize all the same
                session.updateAndGet(s -> s.expired() ? s.withId(null) : s);
            }
        }
        String type = mediaType(resp);
        if (type.equals("text/event-stream")) {
            call.serverHasRequest = true; // the answer comes later on this stream: the server is working on it
        }
        if (type.equals("text/event-stream") && modern != null) {
            responses.readModernStream(call, resp.body(), ctx);
        } else if (type.equals("text/event-stream")) {
            responses.readRequestStream(call, resp.body(), ctx, current);
        } else if (isJson(type)) {
            responses.readJsonAnswer(call, resp.body(),
                    resp.headers().firstValueAsLong("Content-Length").orElse(-1), ctx.deadline().nanoTime());
            if (!call.completed()) {
                throw new McpProtocolException(call.what + ": the JSON answer held no response to this request");
            }
        } else {
            resp.body().close();
            throw new McpProtocolException(call.what + " was answered with HTTP " + status
                    + " and unsupported content type " + (type.isEmpty() ? "(none)" : type));
        }
    }

    /**
     * Sends a notification or a response and accepts its 2xx.
     *
     * @param body the message, encoded
     * @param what what is sent, for logs and messages
     */
    void sendOneWay(byte[] body, SendContext ctx, String what, List<String[]> modern) throws InterruptedException {
        if (closed.get()) {
            throw exchange.closedNow("cannot send");
        }
        postOneWay(body, ctx, what, modern);
    }

    /** POSTs a one-way message even while closing: close() lets the ones already queued go out. */
    private void postOneWay(byte[] body, SendContext ctx, String what, List<String[]> modern)
            throws InterruptedException {
        Call call = new Call(null, what);
        HttpSession current = modern != null ? HttpSession.NONE : session.get();
        if (current.expired()) {
            throw notSentExpired(what); // a notification of the old session means nothing in the next one
        }
        active.add(call);
        ctx.onCancel(call::abort);
        try {
            exchange.postOneWay(call, body, current, modern, ctx.deadline().nanoTime());
        } catch (McpException e) {
            throw exchange.closedOr(e);
        } finally {
            active.remove(call);
            call.release();
        }
    }

    private void captureSession(HttpResponse<?> resp) {
        String sid = resp.headers().firstValue(SESSION_HEADER).orElse(null);
        if (sid == null) {
            return;
        }
        if (!HeaderRules.isVisibleAscii(sid)) {
            throw new McpProtocolException("the server sent an invalid " + SESSION_HEADER
                    + " (it must be visible ASCII, 0x21-0x7E)");
        }
        session.updateAndGet(s -> s.id() == null ? s.withId(sid) : s); // also ends an expiry: a new session
        inbound.clearServerRequests(); // a new session numbers its server requests anew
        LOG.log(Level.DEBUG, () -> "session started with " + exchange.origin());
    }
}
