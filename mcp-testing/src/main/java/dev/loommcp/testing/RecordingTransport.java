package dev.loommcp.testing;

import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.spi.SendContext;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.spi.TransportInfo;
import dev.loommcp.spi.TransportSink;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;

/**
 * A transport decorator that records every message the client sends and receives, so a test against a real server
 * can check what went over the wire (for example that a timed-out call sent {@code notifications/cancelled}).
 * Everything else (open, close, the handshake callback, every event of the sink, and the era seams
 * {@link #probeTransport()}, {@link #reopenable()}, {@link #reopen}, {@link #serverKey()} and
 * {@link #exchangePerRequest()}) is passed through unchanged,
 * so a recorded transport behaves in both protocol eras exactly like the one it wraps. A probe transport the
 * wrapped transport hands out is itself wrapped in a recorder, kept in {@link #probes()}.
 *
 * <p>Thread-safe: the recordings are copy-on-write lists; the getters return snapshots.
 */
public final class RecordingTransport implements McpTransport {

    private final McpTransport delegate;
    private final List<JsonRpcMessage> sent = new CopyOnWriteArrayList<>();
    private final List<JsonRpcMessage> received = new CopyOnWriteArrayList<>();
    private final List<RecordingTransport> probes = new CopyOnWriteArrayList<>();
    private final java.util.concurrent.atomic.AtomicInteger reopens = new java.util.concurrent.atomic.AtomicInteger();

    /**
     * Wraps a transport.
     *
     * @param delegate the real transport
     * @throws NullPointerException if {@code delegate} is {@code null}
     */
    public RecordingTransport(McpTransport delegate) {
        this.delegate = java.util.Objects.requireNonNull(delegate, "delegate");
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
     * Returns the recorders of the probe transports {@link #probeTransport()} handed out so far (stdio's throw-away
     * era probes), in order.
     *
     * @return a snapshot
     */
    public List<RecordingTransport> probes() {
        return List.copyOf(probes);
    }

    /**
     * Returns the sent notifications with the given method.
     *
     * @param method the method
     * @return an immutable snapshot, in send order
     */
    public List<JsonRpcMessage.Notification> sentNotifications(String method) {
        return sent.stream().filter(m -> m instanceof JsonRpcMessage.Notification n && n.method().equals(method))
                .map(m -> (JsonRpcMessage.Notification) m).toList();
    }

    /**
     * Opens the wrapped transport with a sink that records each received message before passing it on.
     *
     * @param context the client's context; its sink is wrapped, the rest passed through
     * @throws InterruptedException as the wrapped transport
     */
    @Override
    public void open(TransportContext context) throws InterruptedException {
        delegate.open(recorded(context));
    }

    /**
     * Passes {@link McpTransport#reopenable()} through.
     *
     * @return what the wrapped transport answers
     */
    @Override
    public boolean reopenable() {
        return delegate.reopenable();
    }

    /**
     * Reopens the wrapped transport with the context's sink wrapped as {@link #open} wraps it; what the new
     * connection receives is recorded in the same {@link #received()} list ({@link #reopens()} counts the calls).
     *
     * @param context the client's context; its sink is wrapped, the rest passed through
     * @throws InterruptedException as the wrapped transport
     */
    @Override
    public void reopen(TransportContext context) throws InterruptedException {
        reopens.incrementAndGet();
        delegate.reopen(recorded(context));
    }

    /**
     * Passes {@link McpTransport#info()} through, so interceptors and telemetry see the wrapped transport's kind and
     * server address.
     *
     * @return what the wrapped transport answers
     */
    @Override
    public TransportInfo info() {
        return delegate.info();
    }

    /**
     * Passes {@link McpTransport#sessionId()} through.
     *
     * @return what the wrapped transport answers
     */
    @Override
    public Optional<String> sessionId() {
        return delegate.sessionId();
    }

    /**
     * Returns how many times the client reopened the wrapped transport (stdio: the era probe ended the first
     * process, so a second one was started).
     *
     * @return the count
     */
    public int reopens() {
        return reopens.get();
    }

    private TransportContext recorded(TransportContext context) {
        TransportSink sink = context.sink();
        return context.withSink(new TransportSink() {
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
            public void onMalformedResponse(dev.loommcp.jsonrpc.RequestId id, String problem) {
                sink.onMalformedResponse(id, problem);
            }

            @Override
            public void onSendFailed(dev.loommcp.jsonrpc.RequestId id, dev.loommcp.McpException cause) {
                sink.onSendFailed(id, cause);
            }

            @Override
            public void onClosed(dev.loommcp.McpTransportException cause) {
                sink.onClosed(cause);
            }
        });
    }

    /**
     * Records the message, then sends it through the wrapped transport (recorded even if that send fails).
     *
     * @param message the message
     * @param context passed through
     * @throws InterruptedException as the wrapped transport
     */
    @Override
    public void send(JsonRpcMessage message, SendContext context) throws InterruptedException {
        sent.add(message);
        delegate.send(message, context);
    }

    /**
     * Passes the version to the wrapped transport.
     *
     * @param protocolVersion the negotiated version
     */
    @Override
    public void handshakeCompleted(String protocolVersion) {
        delegate.handshakeCompleted(protocolVersion);
    }

    /**
     * Returns the wrapped transport's probe transport, itself wrapped in a new recorder (listed in
     * {@link #probes()}), or empty when the wrapped transport has none.
     *
     * @return the recorded probe transport, or empty
     */
    @Override
    public java.util.Optional<McpTransport> probeTransport() {
        return delegate.probeTransport().map(p -> {
            RecordingTransport recorded = new RecordingTransport(p);
            probes.add(recorded);
            return recorded;
        });
    }

    /**
     * Returns the wrapped transport's era-verdict cache key.
     *
     * @return the key, or empty when the wrapped transport has none
     */
    @Override
    public java.util.Optional<String> serverKey() {
        return delegate.serverKey();
    }

    /**
     * Returns whether the wrapped transport runs one exchange per request.
     *
     * @return the wrapped transport's answer
     */
    @Override
    public boolean exchangePerRequest() {
        return delegate.exchangePerRequest();
    }

    /**
     * Returns the wrapped transport's description.
     *
     * @return the description
     */
    @Override
    public String describe() {
        return delegate.describe();
    }

    /** Closes the wrapped transport. */
    @Override
    public void close() {
        delegate.close();
    }
}
