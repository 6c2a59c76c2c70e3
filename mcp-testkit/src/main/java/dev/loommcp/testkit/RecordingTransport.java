package dev.loommcp.testkit;

import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.spi.SendContext;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.spi.TransportSink;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A transport decorator that records every message the client sends and receives, so a test against a real server
 * can check what went over the wire (for example that a timed-out call sent {@code notifications/cancelled}).
 * Thread-safe.
 */
public final class RecordingTransport implements McpTransport {

    private final McpTransport delegate;
    private final List<JsonRpcMessage> sent = new CopyOnWriteArrayList<>();
    private final List<JsonRpcMessage> received = new CopyOnWriteArrayList<>();

    /**
     * Wraps a transport.
     *
     * @param delegate the real transport
     */
    public RecordingTransport(McpTransport delegate) {
        this.delegate = delegate;
    }

    /**
     * Returns what the client sent so far, in order.
     *
     * @return a snapshot
     */
    public List<JsonRpcMessage> sent() {
        return List.copyOf(sent);
    }

    /**
     * Returns what the client received so far, in order.
     *
     * @return a snapshot
     */
    public List<JsonRpcMessage> received() {
        return List.copyOf(received);
    }

    /**
     * Returns the sent notifications with the given method.
     *
     * @param method the method
     * @return the notifications
     */
    public List<JsonRpcMessage.Notification> sentNotifications(String method) {
        return sent.stream().filter(m -> m instanceof JsonRpcMessage.Notification n && n.method().equals(method))
                .map(m -> (JsonRpcMessage.Notification) m).toList();
    }

    @Override
    public void open(TransportContext context) throws InterruptedException {
        TransportSink sink = context.sink();
        delegate.open(context.withSink(new TransportSink() {
            @Override
            public void onMessage(JsonRpcMessage message) {
                received.add(message);
                sink.onMessage(message);
            }

            @Override
            public void onSkipped(String problem) {
                sink.onSkipped(problem);
            }

            @Override
            public void onClosed(dev.loommcp.McpTransportException cause) {
                sink.onClosed(cause);
            }
        }));
    }

    @Override
    public void send(JsonRpcMessage message, SendContext context) throws InterruptedException {
        sent.add(message);
        delegate.send(message, context);
    }

    @Override
    public boolean sendsInline() {
        return delegate.sendsInline();
    }

    @Override
    public void handshakeCompleted(String protocolVersion) {
        delegate.handshakeCompleted(protocolVersion);
    }

    @Override
    public String describe() {
        return delegate.describe();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
