package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.Exchange.LOG;
import static dev.loommcp.transport.http.Exchange.isJson;
import static dev.loommcp.transport.http.Exchange.mediaType;
import static dev.loommcp.transport.http.HeaderRules.SESSION_HEADER;

import dev.loommcp.McpException;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpSessionExpiredException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.spi.SendContext;
import java.lang.System.Logger.Level;
import java.net.http.HttpResponse;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Sends the client's messages: a request is POSTed in the current session and its answer (JSON, or SSE resumed
 * when it breaks) read until the response arrives; a notification or response is POSTed and its 2xx accepted. A 404
 * for a request that carried the session drops the session and fails with {@link McpSessionExpiredException} (the
 * client starts the new session; this class knows no MCP method). A request sent without a session takes the
 * {@code Mcp-Session-Id} its answer returns. Every exchange in flight is registered so that closing can abort it.
 * Thread-safe: many threads send at once.
 */
final class Sender {

    private final Exchange exchange;
    private final ResponseStream responses;
    private final Inbound inbound;
    private final AtomicReference<HttpSession> session;
    private final AtomicBoolean closed;
    private final Set<Call> active = ConcurrentHashMap.newKeySet();

    Sender(Exchange exchange, ResponseStream responses, Inbound inbound, AtomicReference<HttpSession> session,
           AtomicBoolean closed) {
        this.exchange = exchange;
        this.responses = responses;
        this.inbound = inbound;
        this.session = session;
        this.closed = closed;
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
     * Sends a request and reads its answer until the response was delivered.
     *
     * @param body the request, encoded
     */
    void sendRequest(JsonRpcMessage.Request r, byte[] body, SendContext ctx) throws InterruptedException {
        String what = "POST " + r.method() + " (id " + r.id() + ")";
        Call call = new Call(r.id(), what);
        active.add(call);
        inbound.expect(r.id(), call);
        ctx.onCancel(call::abort);
        try {
            if (closed.get()) {
                throw exchange.closedNow("cannot send");
            }
            try {
                postRequest(call, body, ctx);
            } catch (McpException e) {
                if (!call.completed()) {
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

    private void postRequest(Call call, byte[] body, SendContext ctx) throws InterruptedException {
        HttpSession current = session.get();
        String sid = current.id();
        HttpResponse<StreamBody> resp = exchange.send(call, "POST", body, current.postHeaders(),
                ctx.deadline().nanoTime());
        int status = resp.statusCode();
        if (status == 404 && sid != null) {
            resp.body().close();
            // the server no longer knows the session: drop it (unless another request already replaced it) and
            // let the client start a new one
            if (session.compareAndSet(current, HttpSession.NONE)) {
                LOG.log(Level.INFO, "session with {0} expired (HTTP 404); dropped it", exchange.origin());
            }
            throw new McpSessionExpiredException(call.what + " failed with HTTP 404: the server no longer knows "
                    + "the session");
        }
        if (status == 202 || status == 204) {
            resp.body().close();
            throw new McpProtocolException(call.what + " was answered with HTTP " + status + " and no response");
        }
        if (status < 200 || status >= 300) {
            exchange.failOrDeliverError(call, resp, call.awaitedId, m -> inbound.deliver(m, false),
                    ctx.deadline().nanoTime());
            return;
        }
        if (sid == null) {
            captureSession(resp); // the request that starts a session (initialize) gets its id in the answer
        }
        String type = mediaType(resp);
        if (type.equals("text/event-stream")) {
            responses.readRequestStream(call, resp.body(), ctx);
        } else if (isJson(type)) {
            responses.readJsonAnswer(call, resp.body(), ctx.deadline().nanoTime());
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
    void sendOneWay(byte[] body, SendContext ctx, String what) throws InterruptedException {
        Call call = new Call(null, what);
        active.add(call);
        ctx.onCancel(call::abort);
        try {
            if (closed.get()) {
                throw exchange.closedNow("cannot send");
            }
            exchange.postOneWay(call, body, session.get(), ctx.deadline().nanoTime());
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
        session.updateAndGet(s -> s.id() == null ? s.withId(sid) : s);
        inbound.clearServerRequests(); // a new session numbers its server requests anew
        LOG.log(Level.DEBUG, () -> "session started with " + exchange.origin());
    }
}
