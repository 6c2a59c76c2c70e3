package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.Exchange.LOG;

import dev.loommcp.McpException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.Deadline;
import dev.loommcp.spi.JsonRpcFraming;
import dev.loommcp.spi.SendContext;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.spi.TransportSink;
import dev.loommcp.spi.TransportThreads;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The fallback of {@link HttpTransport} to the HTTP+SSE transport of 2024-11-05 (spec 2025-03-26 and later,
 * "Transports", "Backwards compatibility"): when the first legacy-era request, sent before any handshake and without
 * a session (the client's {@code initialize}), is refused with HTTP 400, 404 or 405, an {@link SseTransport} on the
 * same URL (and the same HTTP client) is opened; when its GET announces an endpoint, the request is sent again over
 * it, and the HTTP transport hands every later message to it. Otherwise the request fails with the original status,
 * the fallback's failure added as suppressed. At most one attempt per transport. Thread-safe.
 */
final class LegacyFallback {

    private final HttpSettings settings;
    private final Exchange exchange;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile SseTransport active;
    private volatile TransportContext core;
    /** The request that may fall back, with its context; guarded by {@link #lock}. */
    private JsonRpcMessage.Request candidate;
    private SendContext candidateContext;
    private boolean tried;
    private boolean closed;
    private SseTransport trying;
    private Thread thread;

    LegacyFallback(HttpSettings settings, Exchange exchange) {
        this.settings = settings;
        this.exchange = exchange;
    }

    /** The context the HTTP transport's inbound side uses: the core's, with failed sends seen here first. */
    TransportContext attach(TransportContext context) {
        this.core = context;
        return context.withSink(new SinkRelay(context.sink()) {
            @Override
            public void onSendFailed(RequestId id, McpException cause) {
                if (!fallBack(id, cause)) {
                    super.onSendFailed(id, cause);
                }
            }
        });
    }

    /** The SSE transport carrying the session, or {@code null} while the HTTP transport does. */
    SseTransport active() {
        return active;
    }

    /** A legacy-era message sent before any handshake without a session: a request among them may fall back. */
    void candidate(JsonRpcMessage message, SendContext context) {
        if (message instanceof JsonRpcMessage.Request r) {
            lock.lock();
            try {
                if (!tried) {
                    candidate = r;
                    candidateContext = context;
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /** Starts the fallback for a refused candidate; whether it did (the failure is then not reported now). */
    private boolean fallBack(RequestId id, McpException cause) {
        if (!(cause instanceof McpHttpStatusException h)
                || (h.statusCode() != 400 && h.statusCode() != 404 && h.statusCode() != 405)) {
            return false;
        }
        JsonRpcMessage.Request r;
        SendContext ctx;
        lock.lock();
        try {
            if (tried || closed || candidate == null || !candidate.id().equals(id)) {
                return false;
            }
            tried = true;
            r = candidate;
            ctx = candidateContext;
            candidate = null;
            candidateContext = null;
            trying = new SseTransport(settings, exchange.client());
            try {
                // the request's own thread: its scope owns it (and interrupts it when the request ends)
                thread = ctx.fork("http-sse-fallback", () -> run(r, ctx, h));
            } catch (IllegalStateException e) {
                trying = null; // the request has ended already: nobody waits for it, its failure is no news
                return false;
            }
            ctx.onCancel(thread::interrupt);
        } finally {
            lock.unlock();
        }
        return true;
    }

    private void run(JsonRpcMessage.Request r, SendContext ctx, McpHttpStatusException refused) {
        SseTransport t;
        lock.lock();
        try {
            t = trying;
        } finally {
            lock.unlock();
        }
        TransportContext context = core;
        try {
            LOG.log(Level.DEBUG, () -> "POST to " + settings.origin + " refused with HTTP " + refused.statusCode()
                    + "; trying the HTTP+SSE transport of 2024-11-05");
            t.open(new OpenContext(context, ctx.deadline()));
            lock.lock();
            try {
                if (closed) {
                    throw exchange.closedNow("closed during the HTTP+SSE fallback");
                }
                active = t;
            } finally {
                lock.unlock();
            }
            LOG.log(Level.DEBUG, "server at {0} offers only the HTTP+SSE transport of protocol 2024-11-05; using it",
                    settings.origin);
            t.send(r, ctx);
        } catch (McpException | InterruptedException e) {
            if (active != t) {
                t.close();
            }
            if (!ctx.isCancelled()) {
                refused.addSuppressed(e);
                context.sink().onSendFailed(r.id(), refused);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "the HTTP+SSE fallback for " + settings.origin + " failed unexpectedly", e);
            t.close();
            refused.addSuppressed(e);
            context.sink().onSendFailed(r.id(), refused);
        }
    }

    /**
     * Closes the SSE transport (the one carrying the session, or the one being tried) and waits, bounded, for the
     * fallback's thread.
     *
     * @return whether the calling thread was interrupted while waiting
     */
    boolean close() {
        SseTransport t;
        Thread th;
        lock.lock();
        try {
            closed = true;
            t = trying;
            th = thread;
        } finally {
            lock.unlock();
        }
        if (t != null) {
            t.close();
        }
        if (th == null) {
            return false;
        }
        th.interrupt();
        return settings.threads.joinAll(List.of(th), Deadline.after(Duration.ofMillis(HttpSettings.CLOSE_TIMEOUT_MILLIS)));
    }

    /** The core's context with the refused request's deadline as the bound of opening. */
    private record OpenContext(TransportContext core, Deadline openDeadline) implements TransportContext {
        @Override
        public TransportSink sink() {
            return core.sink();
        }

        @Override
        public JsonRpcFraming framing() {
            return core.framing();
        }

        @Override
        public TransportThreads threads() {
            return core.threads();
        }
    }
}
