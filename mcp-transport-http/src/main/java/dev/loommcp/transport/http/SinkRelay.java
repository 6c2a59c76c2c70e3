package dev.loommcp.transport.http;

import dev.loommcp.McpException;
import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.spi.TransportSink;

/**
 * A sink that hands everything to another one: the base of the sinks that see a transport's inbound side first (the
 * HTTP+SSE transport's requests in flight, the fallback to it). Subclasses override what they look at and call
 * {@code super}. Thread-safe when the target is.
 */
class SinkRelay implements TransportSink {

    final TransportSink target;

    SinkRelay(TransportSink target) {
        this.target = target;
    }

    @Override
    public void onMessage(JsonRpcMessage message) {
        target.onMessage(message);
    }

    @Override
    public void onSkipped(String problem) {
        target.onSkipped(problem);
    }

    @Override
    public void onMalformedResponse(RequestId id, String problem) {
        target.onMalformedResponse(id, problem);
    }

    @Override
    public void onSendFailed(RequestId id, McpException cause) {
        target.onSendFailed(id, cause);
    }

    @Override
    public void onClosed(McpTransportException cause) {
        target.onClosed(cause);
    }
}
