package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.Exchange.isJson;
import static dev.loommcp.transport.http.Exchange.mediaType;

import dev.loommcp.McpProtocolException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.spi.SendContext;
import java.net.http.HttpResponse;

/**
 * How the transport speaks to the server in one era of the protocol: the session and routing step of an exchange.
 * {@link LegacyDialect} is the Streamable HTTP of MCP 2025-03-26 .. 2025-11-25 ({@code Mcp-Session-Id},
 * resumable response streams); {@link ModernDialect} the stateless exchange of MCP 2026-07-28 (routing headers, no
 * session). The transport holds one of each and a send uses the one of its era, which the core states on the
 * context: its {@link SendContext#routing() routing} is present exactly in the modern era. Implementations are
 * thread-safe.
 */
abstract sealed class Dialect permits LegacyDialect, ModernDialect {

    final Exchange exchange;
    final ResponseStream responses;
    final Inbound inbound;
    final HttpSettings settings;

    Dialect(Exchange exchange, ResponseStream responses, Inbound inbound, HttpSettings settings) {
        this.exchange = exchange;
        this.responses = responses;
        this.inbound = inbound;
        this.settings = settings;
    }

    /**
     * The headers of this dialect that are known when the message is handed to the transport (before anything is
     * started), so that headers that cannot be sent fail the send at once: the modern era's routing headers; none in
     * the legacy era, whose session headers are read when the POST goes out.
     *
     * @throws IllegalArgumentException when the context's routing cannot be sent as headers
     */
    abstract Headers fixedHeaders(SendContext ctx);

    /** Whether a request of this dialect may fall back to the HTTP+SSE transport of 2024-11-05. */
    abstract boolean mayFallBack();

    /** The call of a request's exchange. */
    abstract Call newCall(JsonRpcMessage.Request r, SendContext ctx, boolean onCallersThread);

    /**
     * POSTs a request and reads its answer until the response was delivered.
     *
     * @param fixed what {@link #fixedHeaders} returned for the send
     */
    abstract void postRequest(Call call, byte[] body, SendContext ctx, Headers fixed) throws InterruptedException;

    /** POSTs a notification or a response and accepts its 2xx. */
    abstract void postOneWay(Call call, byte[] body, SendContext ctx, Headers fixed) throws InterruptedException;

    /**
     * Reads a 2xx answer to a request that is not an event stream: a JSON answer that must hold its response, or
     * the failure for an unsupported content type.
     */
    final void readJsonAnswer(Call call, HttpResponse<StreamBody> resp, String type) throws InterruptedException {
        if (isJson(type)) {
            responses.readJsonAnswer(call, resp.body(),
                    resp.headers().firstValueAsLong("Content-Length").orElse(-1), call.deadline);
            if (!call.completed()) {
                throw new McpProtocolException(call.what + ": the JSON answer held no response to this request");
            }
            return;
        }
        resp.body().close();
        throw new McpProtocolException(call.what + " was answered with HTTP " + resp.statusCode()
                + " and unsupported content type " + (type.isEmpty() ? "(none)" : type));
    }

    /** The 202 or 204 answer to a request, which must have a response: the failure. */
    static McpProtocolException noResponse(Call call, HttpResponse<StreamBody> resp) {
        resp.body().close();
        return new McpProtocolException(call.what + " was answered with HTTP " + resp.statusCode()
                + " and no response");
    }

    /** The media type of a 2xx answer; an event stream marks the call as one the server is working on. */
    static String answerType(Call call, HttpResponse<StreamBody> resp) {
        String type = mediaType(resp);
        if (type.equals("text/event-stream")) {
            call.serverHasRequest = true; // the answer comes later on this stream: the server is working on it
        }
        return type;
    }
}
