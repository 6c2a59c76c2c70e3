package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.Exchange.LOG;
import static dev.loommcp.transport.http.HeaderRules.SESSION_HEADER;

import dev.loommcp.McpProtocolException;
import dev.loommcp.McpSessionExpiredException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.spi.SendContext;
import java.lang.System.Logger.Level;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The Streamable HTTP exchange of MCP 2025-03-26 .. 2025-11-25: every POST carries the session
 * ({@code Mcp-Session-Id}, {@code MCP-Protocol-Version}) read once when it goes out; the request sent without a
 * session ({@code initialize}) takes the id its answer returns; a 404 (or a 400 saying so) for a request that carried
 * the session expires it ({@link McpSessionExpiredException}), and while it is expired only {@code initialize} goes
 * out; a response stream that ends early is resumed ({@link ResponseStream#readRequestStream}).
 */
final class LegacyDialect extends Dialect {

    private final AtomicReference<HttpSession> session;

    LegacyDialect(Exchange exchange, ResponseStream responses, Inbound inbound, HttpSettings settings,
                  AtomicReference<HttpSession> session) {
        super(exchange, responses, inbound, settings);
        this.session = session;
    }

    @Override
    Headers fixedHeaders(SendContext ctx) {
        return Headers.NONE;
    }

    @Override
    boolean mayFallBack() {
        return true;
    }

    @Override
    Call newCall(JsonRpcMessage.Request r, SendContext ctx, boolean onCallersThread) {
        Call call = new Call(r.id(), "POST " + r.method() + " (id " + r.id() + ")", false, onCallersThread);
        call.startsSession = r.method().equals("initialize");
        return call;
    }

    @Override
    void postRequest(Call call, byte[] body, SendContext ctx, Headers fixed) throws InterruptedException {
        HttpSession current = session.get();
        if (current.expired() && !call.startsSession) {
            throw notSentExpired(call.what); // never without a session: the server would refuse it as unknown
        }
        String sid = current.id();
        // the chain itself, not Exchange.send: one frame less on every request's path
        HttpResponse<StreamBody> resp = exchange.steps.send(
                call.sending("POST", body, current.postHeaders(), ctx.deadline()), settings.target, settings.headers);
        int status = resp.statusCode();
        if (status == 404 && sid != null) {
            resp.body().close();
            throw sessionExpired(session, current, call.what, 404, exchange.origin());
        }
        if (status == 202 || status == 204) {
            throw noResponse(call, resp);
        }
        if (status < 200 || status >= 300) {
            exchange.errors.failOrDeliver(call, resp, call.awaitedId, m -> inbound.deliver(m, false),
                    sid == null ? null : () -> sessionExpired(session, current, call.what, 400, exchange.origin()),
                    true);
            return;
        }
        if (sid == null) {
            captureSession(resp); // the request that starts a session (initialize) gets its id in the answer
            if (call.startsSession) {
                // a server that assigns no session id: the expiry (if any) ends with the new initialize all the same
                session.updateAndGet(s -> s.expired() ? s.withId(null) : s);
            }
        }
        String type = answerType(call, resp);
        if (type.equals("text/event-stream")) {
            responses.readRequestStream(call, resp.body(), ctx, current);
        } else {
            readJsonAnswer(call, resp, type);
        }
    }

    @Override
    void postOneWay(Call call, byte[] body, SendContext ctx, Headers fixed) throws InterruptedException {
        HttpSession current = session.get();
        if (current.expired()) {
            throw notSentExpired(call.what); // a notification of the old session means nothing in the next one
        }
        exchange.postOneWay(call, body, current.postHeaders(), current.id() != null, ctx.deadline());
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

    /** A message that may not go out now: the session expired and no new one started yet. */
    private static McpSessionExpiredException notSentExpired(String what) {
        return new McpSessionExpiredException(what + " not sent: the server no longer knows the session and no new "
                + "one has started yet (the client starts it and may send the request then)", false);
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
