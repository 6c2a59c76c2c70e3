package dev.loommcp.testing;

import dev.loommcp.McpException;
import dev.loommcp.McpSessionExpiredException;
import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.spi.JsonRpcFraming;
import dev.loommcp.spi.SendContext;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.spi.TransportSink;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * The connection side of a {@link ScriptedTransport}, behind its public methods: open, send in either
 * {@link ScriptedTransport.Mode mode} (inline: the answer goes to the reader's queue; blocking: an exchange of
 * {@link ScriptedExchanges}), the reader thread that hands everything inbound to the sink in order, close and loss,
 * and the scripted faults (a failing open, an expired session, a failed send). Thread-safe: the state is volatile or
 * atomic and the queues are concurrent; no lock.
 */
final class ScriptedConnection {

    private static final Object END = new Object();

    private final ScriptedTransport.Mode mode;
    private final SendLog log;
    private final ScriptedAnswers answers;
    private final ScriptedExchanges exchanges;
    private final LinkedBlockingQueue<Object> inbound = new LinkedBlockingQueue<>();
    private final AtomicInteger expiredRequests = new AtomicInteger();
    private final AtomicInteger openCount = new AtomicInteger();
    private final AtomicInteger closeCount = new AtomicInteger();
    private volatile boolean sessionExpired;
    private volatile @Nullable TransportSink sink;
    private volatile boolean closed;
    private volatile @Nullable McpTransportException lost;
    private volatile @Nullable String handshakeVersion;
    private volatile long openDeadline;
    private volatile @Nullable RuntimeException openFailure;
    private volatile @Nullable Runnable onClose;

    ScriptedConnection(ScriptedTransport.Mode mode, SendLog log, ScriptedAnswers answers) {
        this.mode = mode;
        this.log = log;
        this.answers = answers;
        this.exchanges = new ScriptedExchanges(this, answers, log);
    }

    ScriptedExchanges exchanges() {
        return exchanges;
    }

    // ------------------------------------------------------------------------------------------------ SPI

    void open(TransportContext context) {
        TransportSink sink = context.sink();
        RuntimeException failure = openFailure;
        if (failure != null) {
            throw failure;
        }
        if (openCount.incrementAndGet() != 1) {
            throw new IllegalStateException("open called twice");
        }
        this.openDeadline = context.openDeadline().nanoTime();
        this.sink = sink;
        Thread.ofVirtual().name("mcp-testing-reader").start(this::readLoop);
    }

    void send(JsonRpcMessage wire, SendContext context) {
        if (closed || lost != null) {
            log.reject(wire);
            throw new McpTransportException("scripted transport is " + (closed ? "closed" : "lost"));
        }
        if (!(wire instanceof JsonRpcMessage.Request request)) {
            if (wire instanceof JsonRpcMessage.Notification n && n.method().equals("notifications/initialized")) {
                sessionExpired = false; // the new session is established
            }
            log.record(wire, context);
            return;
        }
        if (sessionExpired && !request.method().equals("initialize")) {
            log.record(wire, context);
            expiredRequests.incrementAndGet();
            // queue-and-return: the failure reaches the core through the sink, as from a real HTTP exchange
            sink.onSendFailed(request.id(), new McpSessionExpiredException("POST " + request.method() + " (id "
                    + request.id() + ") failed with HTTP 404: the server no longer knows the session"));
            return;
        }
        if (mode == ScriptedTransport.Mode.INLINE) {
            log.record(wire, context);
            JsonRpcMessage answer = answers.answer(request);
            if (answer != null) {
                inbound.add(answer);
            }
            return;
        }
        exchanges.start(request, wire, context);
    }

    void handshakeCompleted(String protocolVersion) {
        this.handshakeVersion = protocolVersion;
        log.signal();
    }

    void close() {
        Runnable action = onClose;
        if (action != null && closeCount.get() == 0) {
            action.run();
        }
        closeCount.incrementAndGet();
        closed = true;
        exchanges.abortAll();
        inbound.add(END);
        log.signal();
    }

    // ------------------------------------------------------------------------------------------------ server side

    /** On the stream of request {@code id} while its exchange is open, otherwise through the reader. */
    void deliverOn(RequestId id, JsonRpcMessage wire) {
        if (!exchanges.deliverOn(id, wire)) {
            inbound.add(wire);
        }
    }

    /** Through the reader thread, after everything queued before. */
    void deliver(JsonRpcMessage wire) {
        inbound.add(wire);
    }

    /** JSON text through the reader thread, decoded with the core's framing. */
    void deliverJson(String json) {
        for (JsonRpcMessage m : JsonRpcFraming.standard().decode(json)) {
            inbound.add(m);
        }
    }

    /** To the sink on this thread, in wire form, bypassing the reader and the closed check. */
    void deliverNow(JsonRpcMessage message) {
        openSink().onMessage(ScriptedTransport.wire(message));
    }

    void expireSession() {
        sessionExpired = true;
    }

    void failSend(RequestId id, McpException cause) {
        openSink().onSendFailed(id, cause);
    }

    void failOpen(@Nullable RuntimeException failure) {
        this.openFailure = failure;
    }

    void onClose(@Nullable Runnable action) {
        this.onClose = action;
    }

    void lose(McpTransportException cause) {
        lost = cause;
        TransportSink s = sink;
        if (s != null) {
            s.onClosed(cause);
        }
        exchanges.abortAll();
        inbound.add(END);
    }

    // ------------------------------------------------------------------------------------------------ observation

    int expiredRequests() {
        return expiredRequests.get();
    }

    int openCount() {
        return openCount.get();
    }

    int closeCount() {
        return closeCount.get();
    }

    boolean isClosed() {
        return closed;
    }

    long openDeadline() {
        return openDeadline;
    }

    @Nullable String handshakeVersion() {
        return handshakeVersion;
    }

    /** The sink, or {@code null} before {@link #open} (for the blocking mode's exchanges). */
    @Nullable TransportSink sinkOrNull() {
        return sink;
    }

    private TransportSink openSink() {
        TransportSink s = sink;
        if (s == null) {
            throw new IllegalStateException("the scripted transport is not open");
        }
        return s;
    }

    private void readLoop() {
        while (true) {
            Object item;
            try {
                item = inbound.poll(1, TimeUnit.HOURS);
            } catch (InterruptedException e) {
                return;
            }
            if (item == null || item == END || closed || lost != null) {
                return;
            }
            sink.onMessage((JsonRpcMessage) item);
        }
    }
}
