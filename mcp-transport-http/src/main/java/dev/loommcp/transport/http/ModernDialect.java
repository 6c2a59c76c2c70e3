package dev.loommcp.transport.http;

import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.spi.SendContext;
import java.net.http.HttpResponse;

/**
 * The stateless exchange of MCP 2026-07-28 ("Streamable HTTP"): every POST carries the routing headers
 * ({@link RoutingHeaders}) and never a session id; a request without a deadline (a {@code subscriptions/listen}
 * stream) is bounded by no transport timer; a non-2xx answer's JSON-RPC error is the request's answer except for
 * 401, 403 and 5xx; a response stream that ends before the response is not resumed.
 */
final class ModernDialect extends Dialect {

    ModernDialect(Exchange exchange, ResponseStream responses, Inbound inbound, HttpSettings settings) {
        super(exchange, responses, inbound, settings);
    }

    @Override
    Headers fixedHeaders(SendContext ctx) {
        return RoutingHeaders.post(ctx.routing().orElseThrow());
    }

    @Override
    boolean mayFallBack() {
        return false;
    }

    @Override
    Call newCall(JsonRpcMessage.Request r, SendContext ctx, boolean onCallersThread) {
        return new Call(r.id(), "POST " + r.method() + " (id " + r.id() + ")", ctx.deadline().isNone(),
                onCallersThread);
    }

    @Override
    void postRequest(Call call, byte[] body, SendContext ctx, Headers fixed) throws InterruptedException {
        // the chain itself, not Exchange.send: one frame less on every request's path
        HttpResponse<StreamBody> resp = exchange.steps.send(call.sending("POST", body, fixed, ctx.deadline()),
                settings.target, settings.headers);
        int status = resp.statusCode();
        if (status == 202 || status == 204) {
            throw noResponse(call, resp);
        }
        if (status < 200 || status >= 300) {
            exchange.errors.failOrDeliver(call, resp, call.awaitedId, m -> inbound.deliver(m, false), null, false);
            return;
        }
        String type = answerType(call, resp);
        if (type.equals("text/event-stream")) {
            responses.readModernStream(call, resp.body());
        } else {
            readJsonAnswer(call, resp, type);
        }
    }

    @Override
    void postOneWay(Call call, byte[] body, SendContext ctx, Headers fixed) throws InterruptedException {
        exchange.postOneWay(call, body, fixed, false, ctx.deadline());
    }
}
