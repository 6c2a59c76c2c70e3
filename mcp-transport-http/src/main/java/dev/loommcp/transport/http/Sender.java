package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.Exchange.LOG;

import dev.loommcp.McpException;
import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.Deadline;
import dev.loommcp.spi.SendContext;
import dev.loommcp.spi.TransportSink;
import java.lang.System.Logger.Level;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Sends the client's messages, each in the {@link Dialect} of its era: a request is POSTed and its answer (JSON, or
 * SSE resumed when it breaks) read until the response arrives; a notification or response is POSTed and its 2xx
 * accepted. A request's exchange runs on the calling thread when the caller waits for the answer anyway, else on a
 * thread of the send's own ({@link SendContext#fork}: the core's request scope owns it, interrupts it when the
 * request ends and waits for it). Every exchange in flight is registered so that closing can abort it. Thread-safe:
 * many threads send at once.
 */
final class Sender {

    /** How many notifications and responses may be POSTed at once before more are dropped. */
    static final int MAX_ONE_WAY_IN_FLIGHT = 256;
    /** What a dropped {@code notifications/cancelled} POST is called ({@code HttpTransport.oneWayWhat}). */
    static final String CANCELLED_WHAT = "POST notifications/cancelled";
    /** The longest a burst of drops goes unreported while POSTs stay stuck: 10 s. */
    static final long DROP_REPORT_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final Exchange exchange;
    private final Inbound inbound;
    private final AtomicBoolean closed;
    private final HttpSettings settings;
    /** The dialect of the legacy era (MCP 2025-03-26 .. 2025-11-25). */
    final LegacyDialect legacy;
    /** The dialect of the modern era (MCP 2026-07-28). */
    final ModernDialect modern;
    private final Set<Call> active = ConcurrentHashMap.newKeySet();
    /** Set once close aborts every exchange: an exchange registered after that is refused as closed. */
    private volatile boolean aborting;
    /** The one-way POSTs on threads of their own, bounded. */
    private final InFlight oneWayInFlight = new InFlight();
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
        this.inbound = inbound;
        this.closed = closed;
        this.settings = settings;
        this.legacy = new LegacyDialect(exchange, responses, inbound, settings, session);
        this.modern = new ModernDialect(exchange, responses, inbound, settings);
    }

    /** The dialect of a send: the modern one exactly when the context carries routing (the core's era). */
    Dialect dialect(SendContext ctx) {
        return ctx.routing().isPresent() ? modern : legacy;
    }

    /**
     * Starts a request's exchange, aborted by the context's cancel; a failure goes to the sink's
     * {@code onSendFailed}. When the caller waits for the answer anyway ({@link SendContext#callerWaits()}) and no
     * user code runs in the exchange (an authorization provider or a request signer may block, and the caller
     * must get its timeout at the deadline meanwhile), the exchange runs on the calling thread, which returns once
     * the answer was delivered or the failure reported: the deadline bounds every wait of it, the context's cancel
     * and closing abort its {@link Call} (closing the body wakes this thread, and while it blocks in the client's
     * {@code send} an interrupt does, which the exchange then clears), and an interrupt of the caller ends it and
     * returns with the interrupt flag set. Otherwise it runs on a thread of the send ({@link SendContext#fork}); when
     * the request has ended already nothing is started (nobody waits for the answer).
     */
    void startRequest(JsonRpcMessage.Request r, byte[] body, SendContext ctx, Dialect dialect, Headers fixed) {
        if (closed.get()) {
            throw exchange.closedNow("cannot send");
        }
        if (ctx.callerWaits() && settings.authorization == null && settings.signer == null) {
            try {
                exchange(r, body, ctx, dialect, fixed, true);
            } catch (McpException e) {
                if (!ctx.isCancelled()) { // a cancelled call no longer waits: its aborted exchange is no news
                    reportFailure(r, e);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                reportUnexpected(r, e);
            }
            return;
        }
        Thread t;
        try {
            t = ctx.fork("http-send", () -> runQueued(r, body, ctx, dialect, fixed));
        } catch (IllegalStateException e) {
            LOG.log(Level.DEBUG, () -> "POST " + r.method() + " (id " + r.id() + ") not sent: its request has "
                    + "ended already");
            return;
        }
        ctx.onCancel(t::interrupt); // the core's scope interrupts it too; a context of another kind may not
    }

    /** A request's exchange on a thread of its own: its failure goes to the sink unless the call was cancelled. */
    private void runQueued(JsonRpcMessage.Request r, byte[] body, SendContext ctx, Dialect dialect, Headers fixed) {
        try {
            exchange(r, body, ctx, dialect, fixed, false);
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
     * Sends a request and reads its answer until the response was delivered: the blocking exchange, registered for
     * closing and aborted by the context's cancel (tests call it directly).
     *
     * @param onCallersThread whether the calling thread is the one that waits for the answer: its HTTP requests
     *                        may then block in the client's {@code send} ({@link Call#onCallersThread})
     * @throws McpException what went wrong; a failure after the response arrived (on another stream) is ignored
     */
    void exchange(JsonRpcMessage.Request r, byte[] body, SendContext ctx, Dialect dialect, Headers fixed,
                  boolean onCallersThread) throws InterruptedException {
        Call call = dialect.newCall(r, ctx, onCallersThread);
        active.add(call);
        inbound.expect(r.id(), call);
        ctx.onCancel(call::abort);
        try {
            if (closed.get() || aborting) {
                throw exchange.closedNow("cannot send");
            }
            dialect.postRequest(call, body, ctx, fixed);
        } catch (McpException e) {
            if (!call.completed()) {
                if (call.serverHasRequest) {
                    ctx.markAccepted(); // the core then tells the server that nobody waits for the answer
                }
                throw exchange.closedOr(e);
            }
            // the response already arrived (on another stream): what broke afterwards does not matter
            LOG.log(Level.DEBUG, () -> call.what + ": ignored a failure after the response: " + e.getMessage());
        } finally {
            inbound.forget(r.id(), call);
            active.remove(call);
            call.release();
        }
    }

    /**
     * Sends a notification or a response: with {@link SendContext#awaitDelivery()} on this thread (returning once
     * its 2xx arrived, throwing what went wrong); otherwise on a thread of the send ({@link SendContext#fork}), a
     * failure logged at DEBUG and dropped (nobody waits for it), and beyond {@value #MAX_ONE_WAY_IN_FLIGHT} in
     * flight dropped and counted, as when the send's request has ended already. The drops are reported by WARNINGs
     * that together count every one: the first drop at once, then what was dropped since the last report when a
     * POST in flight ends (the burst is over) or {@link #DROP_REPORT_INTERVAL_NANOS} after the last report, and at
     * close.
     */
    void startOneWay(byte[] body, SendContext ctx, String what, Dialect dialect, Headers fixed)
            throws InterruptedException {
        if (ctx.awaitDelivery()) {
            sendOneWay(body, ctx, what, dialect, fixed);
            return;
        }
        if (closed.get()) {
            throw exchange.closedNow("cannot send");
        }
        if (!oneWayInFlight.tryEnter(maxOneWayInFlight)) {
            if (what.equals(CANCELLED_WHAT)) {
                droppedCancels.incrementAndGet(); // before the total: a report never counts more cancels than drops
            }
            long n = droppedOneWay.incrementAndGet();
            if (n == 1 || System.nanoTime() - lastDropReportNanos > DROP_REPORT_INTERVAL_NANOS) {
                reportDrops();
            }
            return;
        }
        try {
            ctx.fork("http-send", () -> runOneWay(body, ctx, what, dialect, fixed));
        } catch (IllegalStateException e) {
            oneWayInFlight.exit();
            LOG.log(Level.DEBUG, () -> what + " not sent: its request has ended already");
        }
    }

    /** A one-way POST on a thread of its own: a failure is logged and dropped. */
    private void runOneWay(byte[] body, SendContext ctx, String what, Dialect dialect, Headers fixed) {
        try {
            postOneWay(body, ctx, what, dialect, fixed);
        } catch (McpException e) {
            LOG.log(Level.DEBUG, () -> what + " not delivered: " + e.getMessage());
        } catch (InterruptedException e) {
            LOG.log(Level.DEBUG, () -> what + " not delivered: interrupted");
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, what + " to " + exchange.origin() + " failed unexpectedly", e);
        } finally {
            oneWayInFlight.exit();
            if (droppedOneWay.get() != reportedDrops.get()) {
                reportDrops(); // a POST ended: the burst of drops (if any) is over, say how many
            }
        }
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

    /** How many notifications and responses are being POSTed on threads of their own. */
    int oneWayInFlightCount() {
        return oneWayInFlight.count();
    }

    /** How many of {@link #droppedOneWayCount()} were {@code notifications/cancelled}. */
    long droppedCancelCount() {
        return droppedCancels.get();
    }

    /**
     * Lets the notifications and responses already queued go out (close flushes a {@code notifications/cancelled}
     * on its way), waiting until none is in flight or {@code deadline} at most. An interrupt does not cut the wait
     * short.
     *
     * @return whether the calling thread was interrupted while waiting
     */
    boolean awaitOneWay(Deadline deadline) {
        return oneWayInFlight.awaitIdle(deadline);
    }

    /** How many exchanges are in flight. */
    int activeCount() {
        return active.size();
    }

    /**
     * Aborts every exchange in flight, and any registered from now on; never blocks on I/O. The threads that run
     * them (the send's own, {@link SendContext#fork}) then end promptly; the core's request scopes wait for them.
     */
    void abortAll() {
        aborting = true;
        for (Call c : active) {
            c.abort();
            // no longer the transport's once aborted (its thread, the core's, may still be unwinding): after close()
            // activeExchangeCount() is zero, as documented, whether or not that thread has run its last statement
            active.remove(c);
        }
    }

    /**
     * Sends a notification or a response and accepts its 2xx, on the calling thread.
     *
     * @param body the message, encoded
     * @param what what is sent, for logs and messages
     */
    void sendOneWay(byte[] body, SendContext ctx, String what, Dialect dialect, Headers fixed)
            throws InterruptedException {
        if (closed.get()) {
            throw exchange.closedNow("cannot send");
        }
        postOneWay(body, ctx, what, dialect, fixed);
    }

    /** POSTs a one-way message even while closing: close() lets the ones already queued go out. */
    private void postOneWay(byte[] body, SendContext ctx, String what, Dialect dialect, Headers fixed)
            throws InterruptedException {
        Call call = new Call(null, what);
        active.add(call);
        ctx.onCancel(call::abort);
        try {
            if (aborting) {
                throw exchange.closedNow("cannot send");
            }
            dialect.postOneWay(call, body, ctx, fixed);
        } catch (McpException e) {
            throw exchange.closedOr(e);
        } finally {
            active.remove(call);
            call.release();
        }
    }
}
