package dev.loommcp.testing;

import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.spi.SendContext;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.spi.TransportSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * An in-memory {@link McpTransport} with a scriptable fake MCP server behind it, so that code which holds an
 * {@code McpClient} can be unit-tested without a process or a socket.
 *
 * <pre>{@code
 * ScriptedServerTransport server = ScriptedServerTransport.create()
 *         .on("tools/call", request -> Map.of("content", List.of(Map.of("type", "text", "text", "42"))));
 * try (McpClient client = McpClient.newBuilder(server).build()) {
 *     client.connect();
 *     assertEquals("42", client.callTool("answer", Map.of()).text());
 * }
 * assertEquals(1, server.requests("tools/call").size());
 * }</pre>
 *
 * <p><b>The fake server.</b> It answers each request the client sends with the {@link Responder} registered for the
 * request's method ({@link #on}). A responder returns a result (a {@code Map}, or {@code null} for {@code {}}), a
 * {@link JsonRpcError} (sent as an error response), a whole {@link JsonRpcMessage}, or {@link #HOLD} to not answer now:
 * the test answers later with {@link #reply}/{@link #replyError}, in any order, or never. A responder that throws is
 * answered with {@code -32603} (internal error). Defaults: {@code initialize} answers with
 * {@link #protocolVersion(String)} (default {@value #DEFAULT_PROTOCOL_VERSION}), {@link #serverCapabilities(Map)}
 * (default {@code {"tools":{"listChanged":true}}}) and {@link #serverInfo(Map)} (default
 * {@code {"name":"scripted-server","version":"1.0.0"}}); {@code ping} answers {@code {}}; any other method is answered
 * with {@code -32601} (method not found). Notifications and the client's answers to server requests are only recorded.
 *
 * <p><b>Delivery.</b> {@link #send} records the message and returns at once (the stdio model). Everything that goes
 * to the client (answers, and what the test pushes with {@link #deliver}/{@link #notifyClient}) is handed to the
 * client's sink in order by one reader thread, named {@code mcp-testing-reader}, which ends on {@link #close()} or
 * {@link #lose}. Messages travel as the objects given, not as encoded JSON: results built from {@code Map},
 * {@code List}, {@code String}, {@code Number}, {@code Boolean} and {@code null} are what a real peer's decoder would
 * produce.
 *
 * <p><b>Observation.</b> Every sent message is recorded ({@link #sent()}, {@link #requests}, {@link #notifications});
 * the {@code await...} methods block on a condition (never sleep) for at most {@link #awaitTimeout(Duration)} (default
 * 10 seconds) and then throw {@link AssertionError}, so they work in any test framework.
 *
 * <p><b>End.</b> {@link #lose} simulates the loss of the connection (the sink's {@code onClosed} runs on the calling
 * thread). After {@link #close()} or a loss, {@link #send} throws {@link McpTransportException} and nothing more
 * reaches the client.
 *
 * <p>Thread-safe: responders run on the client's sending thread; every other method may be called from any thread.
 */
public final class ScriptedServerTransport implements McpTransport {

    /** The protocol version the default {@code initialize} responder answers with unless told otherwise. */
    public static final String DEFAULT_PROTOCOL_VERSION = "2025-11-25";

    /** A responder's answer meaning "do not answer now"; the test answers later with {@link #reply}, or never. */
    public static final Object HOLD = new Object() {
        @Override
        public String toString() {
            return "HOLD";
        }
    };

    /** How the fake server answers one request. Runs on the client's sending thread. */
    @FunctionalInterface
    public interface Responder {
        /**
         * Answers a request.
         *
         * @param request the request the client sent
         * @return a result ({@code Map}), {@code null} for an empty result, a {@link JsonRpcError}, a whole
         *         {@link JsonRpcMessage}, or {@link #HOLD}
         * @throws Exception any exception, answered to the client as a {@code -32603} internal error
         */
        Object answer(JsonRpcMessage.Request request) throws Exception;
    }

    private static final Object END = new Object();

    private final Map<String, Responder> responders = new ConcurrentHashMap<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final List<JsonRpcMessage> sent = new ArrayList<>();
    private final LinkedBlockingQueue<Object> inbound = new LinkedBlockingQueue<>();
    private volatile TransportSink sink;
    private volatile Thread reader;
    private volatile boolean closed;
    private volatile McpTransportException lost;
    private volatile String handshakeVersion;
    private volatile Duration awaitTimeout = Duration.ofSeconds(10);
    private volatile String protocolVersion = DEFAULT_PROTOCOL_VERSION;
    private volatile Map<String, Object> serverCapabilities = Map.of("tools", Map.of("listChanged", true));
    private volatile Map<String, Object> serverInfo = Map.of("name", "scripted-server", "version", "1.0.0");

    private ScriptedServerTransport() {
        on("initialize", r -> initializeResult());
        on("ping", r -> Map.of());
    }

    /**
     * Creates a transport whose fake server answers {@code initialize} and {@code ping} (see the class comment).
     *
     * @return a new, unopened transport; open it by handing it to {@code McpClient.newBuilder} and connecting
     */
    public static ScriptedServerTransport create() {
        return new ScriptedServerTransport();
    }

    // ------------------------------------------------------------------------------------------------ script

    /**
     * Sets how the fake server answers a method, replacing any earlier responder for it (the defaults included).
     *
     * @param method    the JSON-RPC method, for example {@code "tools/call"}
     * @param responder the responder
     * @return this
     * @throws NullPointerException if an argument is {@code null}
     */
    public ScriptedServerTransport on(String method, Responder responder) {
        responders.put(Objects.requireNonNull(method, "method"), Objects.requireNonNull(responder, "responder"));
        return this;
    }

    /**
     * Makes the fake server leave a method unanswered; the test answers with {@link #reply}/{@link #replyError}, or
     * never (the client's call then ends by its own deadline or cancellation).
     *
     * @param method the method
     * @return this
     * @throws NullPointerException if {@code method} is {@code null}
     */
    public ScriptedServerTransport hold(String method) {
        return on(method, r -> HOLD);
    }

    /**
     * Sets the {@code protocolVersion} the default {@code initialize} responder answers with.
     *
     * @param version the version, or {@code null} to leave the field out
     * @return this
     */
    public ScriptedServerTransport protocolVersion(String version) {
        this.protocolVersion = version;
        return this;
    }

    /**
     * Sets the {@code capabilities} the default {@code initialize} responder answers with.
     *
     * @param capabilities plain JSON values, or {@code null} to leave the field out
     * @return this
     */
    public ScriptedServerTransport serverCapabilities(Map<String, Object> capabilities) {
        this.serverCapabilities = capabilities;
        return this;
    }

    /**
     * Sets the {@code serverInfo} the default {@code initialize} responder answers with.
     *
     * @param info plain JSON values, or {@code null} to leave the field out
     * @return this
     */
    public ScriptedServerTransport serverInfo(Map<String, Object> info) {
        this.serverInfo = info;
        return this;
    }

    /**
     * Sets how long the {@code await...} methods wait before failing.
     *
     * @param timeout the bound; default 10 seconds
     * @return this
     * @throws IllegalArgumentException if {@code timeout} is not positive
     */
    public ScriptedServerTransport awaitTimeout(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("await timeout must be positive: " + timeout);
        }
        this.awaitTimeout = timeout;
        return this;
    }

    /**
     * Returns the result the default {@code initialize} responder answers with, so a custom responder can extend it.
     *
     * @return a new mutable map
     */
    public Map<String, Object> initializeResult() {
        Map<String, Object> r = new LinkedHashMap<>();
        if (protocolVersion != null) {
            r.put("protocolVersion", protocolVersion);
        }
        if (serverCapabilities != null) {
            r.put("capabilities", serverCapabilities);
        }
        if (serverInfo != null) {
            r.put("serverInfo", serverInfo);
        }
        return r;
    }

    // ------------------------------------------------------------------------------------------------ server side

    /**
     * Answers a (held) request with a result, through the reader thread after everything queued before.
     *
     * @param id     the request's id
     * @param result the result (plain JSON values), or {@code null} for {@code {}}
     */
    public void reply(RequestId id, Map<String, Object> result) {
        deliver(new JsonRpcMessage.Response(id, result == null ? Map.of() : result));
    }

    /**
     * Answers a (held) request with a JSON-RPC error, through the reader thread.
     *
     * @param id      the request's id
     * @param code    the error code, for example {@link JsonRpcError#INVALID_PARAMS}
     * @param message the error message
     */
    public void replyError(RequestId id, int code, String message) {
        deliver(new JsonRpcMessage.ErrorResponse(id, new JsonRpcError(code, message, null)));
    }

    /**
     * Hands a message to the client through the reader thread, after everything queued before: a notification, a
     * server request (the client's answer shows up in {@link #sent()}), or a response. Ignored after close or loss.
     *
     * @param message the message
     * @throws NullPointerException if {@code message} is {@code null}
     */
    public void deliver(JsonRpcMessage message) {
        inbound.add(Objects.requireNonNull(message, "message"));
    }

    /**
     * Sends the client a notification through the reader thread, for example
     * {@code notifyClient("notifications/tools/list_changed", null)}.
     *
     * @param method the method
     * @param params the params (plain JSON values), or {@code null}
     */
    public void notifyClient(String method, Map<String, Object> params) {
        deliver(new JsonRpcMessage.Notification(method, params));
    }

    /**
     * Simulates the loss of the connection: calls the sink's {@code onClosed(cause)} on this thread (so the client
     * has reacted when this returns), then stops the reader. Later sends throw.
     *
     * @param cause what the client is told
     * @throws NullPointerException if {@code cause} is {@code null}
     */
    public void lose(McpTransportException cause) {
        lost = Objects.requireNonNull(cause, "cause");
        TransportSink s = sink;
        if (s != null) {
            s.onClosed(cause);
        }
        inbound.add(END);
        signal();
    }

    // ------------------------------------------------------------------------------------------------ SPI

    /**
     * Starts the reader thread. Called by the client on {@code connect()}.
     *
     * @param context where the client receives messages (its sink); its deadline is ignored (opening is instant)
     * @throws IllegalStateException if already opened
     */
    @Override
    public void open(TransportContext context) {
        TransportSink sink = Objects.requireNonNull(context, "context").sink();
        lock.lock();
        try {
            if (this.sink != null) {
                throw new IllegalStateException("scripted server transport opened twice");
            }
            this.sink = Objects.requireNonNull(sink, "sink");
            reader = Thread.ofVirtual().name("mcp-testing-reader").start(this::readLoop);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Records the message and, for a request, queues the fake server's answer. Returns at once.
     *
     * @param message the message
     * @param context ignored (answers are immediate or held)
     * @throws McpTransportException if the transport was closed or lost
     */
    @Override
    public void send(JsonRpcMessage message, SendContext context) {
        if (closed || lost != null) {
            throw new McpTransportException("scripted server transport is " + (closed ? "closed" : "lost"));
        }
        lock.lock();
        try {
            sent.add(message);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        if (message instanceof JsonRpcMessage.Request request) {
            Object answer = answer(request);
            if (answer != HOLD) {
                inbound.add(toMessage(request.id(), answer));
            }
        }
    }

    /**
     * Records the negotiated version (see {@link #handshakeVersion()}).
     *
     * @param protocolVersion the version
     */
    @Override
    public void handshakeCompleted(String protocolVersion) {
        this.handshakeVersion = protocolVersion;
        signal();
    }

    /**
     * Describes this transport for error messages.
     *
     * @return {@code "scripted-server"}
     */
    @Override
    public String describe() {
        return "scripted-server";
    }

    /** Stops the reader thread; idempotent. Later sends throw {@link McpTransportException}. */
    @Override
    public void close() {
        closed = true;
        inbound.add(END);
        signal();
        Thread r = reader;
        if (r != null && r != Thread.currentThread()) {
            try {
                r.join(awaitTimeout);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ observation

    /**
     * Returns every message the client sent so far, in order.
     *
     * @return an immutable snapshot
     */
    public List<JsonRpcMessage> sent() {
        lock.lock();
        try {
            return List.copyOf(sent);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Returns the requests the client sent with the given method, in order.
     *
     * @param method the method
     * @return an immutable snapshot
     */
    public List<JsonRpcMessage.Request> requests(String method) {
        return sent().stream().filter(m -> m instanceof JsonRpcMessage.Request r && r.method().equals(method))
                .map(JsonRpcMessage.Request.class::cast).toList();
    }

    /**
     * Returns the notifications the client sent with the given method, in order.
     *
     * @param method the method
     * @return an immutable snapshot
     */
    public List<JsonRpcMessage.Notification> notifications(String method) {
        return sent().stream().filter(m -> m instanceof JsonRpcMessage.Notification n && n.method().equals(method))
                .map(JsonRpcMessage.Notification.class::cast).toList();
    }

    /**
     * Waits for the first message the client sent (or sends) that matches.
     *
     * @param what      what is awaited, for the failure message
     * @param predicate the match
     * @return the message
     * @throws AssertionError if none is sent within {@link #awaitTimeout(Duration)}, or the thread is interrupted
     *                        (its interrupt status is then set again)
     */
    public JsonRpcMessage awaitSent(String what, Predicate<JsonRpcMessage> predicate) {
        long end = System.nanoTime() + awaitTimeout.toNanos();
        lock.lock();
        try {
            while (true) {
                for (JsonRpcMessage m : sent) {
                    if (predicate.test(m)) {
                        return m;
                    }
                }
                long left = end - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("timed out after " + awaitTimeout + " waiting for the client to send "
                            + what + "; sent: " + summary(sent));
                }
                changed.awaitNanos(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for " + what, e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits for the first request with the method.
     *
     * @param method the method
     * @return the request
     * @throws AssertionError as {@link #awaitSent}
     */
    public JsonRpcMessage.Request awaitRequest(String method) {
        return (JsonRpcMessage.Request) awaitSent("a " + method + " request",
                m -> m instanceof JsonRpcMessage.Request r && r.method().equals(method));
    }

    /**
     * Waits for the first notification with the method.
     *
     * @param method the method
     * @return the notification
     * @throws AssertionError as {@link #awaitSent}
     */
    public JsonRpcMessage.Notification awaitNotification(String method) {
        return (JsonRpcMessage.Notification) awaitSent("a " + method + " notification",
                m -> m instanceof JsonRpcMessage.Notification n && n.method().equals(method));
    }

    /**
     * Waits for the client's answer (response or error response) to a server request sent with {@link #deliver}.
     *
     * @param id the server request's id
     * @return the answer
     * @throws AssertionError as {@link #awaitSent}
     */
    public JsonRpcMessage awaitAnswerTo(RequestId id) {
        return awaitSent("an answer to server request " + id,
                m -> (m instanceof JsonRpcMessage.Response r && r.id().equals(id))
                        || (m instanceof JsonRpcMessage.ErrorResponse e && id.equals(e.id())));
    }

    /**
     * Returns the protocol version the client reported after its handshake.
     *
     * @return the version, or {@code null} before the handshake completed
     */
    public String handshakeVersion() {
        return handshakeVersion;
    }

    /**
     * Returns whether {@link #close()} was called.
     *
     * @return whether closed
     */
    public boolean isClosed() {
        return closed;
    }

    // ------------------------------------------------------------------------------------------------ internals

    private Object answer(JsonRpcMessage.Request request) {
        Responder r = responders.get(request.method());
        if (r == null) {
            return new JsonRpcError(JsonRpcError.METHOD_NOT_FOUND, "Method not found: " + request.method(), null);
        }
        try {
            return r.answer(request);
        } catch (Exception e) {
            return new JsonRpcError(JsonRpcError.INTERNAL_ERROR, "scripted responder failed: " + e, null);
        }
    }

    private static JsonRpcMessage toMessage(RequestId id, Object answer) {
        return switch (answer == null ? Map.of() : answer) {
            case JsonRpcMessage msg -> msg;
            case JsonRpcError error -> new JsonRpcMessage.ErrorResponse(id, error);
            case Map<?, ?> result -> new JsonRpcMessage.Response(id, result);
            case Object other -> new JsonRpcMessage.ErrorResponse(id, new JsonRpcError(JsonRpcError.INTERNAL_ERROR,
                    "scripted responder returned a " + other.getClass().getName()
                            + "; expected a Map, JsonRpcError, JsonRpcMessage, null or HOLD", null));
        };
    }

    private void signal() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void readLoop() {
        while (true) {
            Object item;
            try {
                item = inbound.take();
            } catch (InterruptedException e) {
                return;
            }
            if (item == END || closed || lost != null) {
                return;
            }
            sink.onMessage((JsonRpcMessage) item);
        }
    }

    private static String summary(List<JsonRpcMessage> messages) {
        return messages.stream().map(m -> switch (m) {
            case JsonRpcMessage.Request r -> r.method() + "#" + r.id();
            case JsonRpcMessage.Notification n -> n.method();
            case JsonRpcMessage.Response r -> "response#" + r.id();
            case JsonRpcMessage.ErrorResponse e -> "error#" + e.id();
        }).collect(Collectors.joining(", ", "[", "]"));
    }

    @Override
    public String toString() {
        return "ScriptedServerTransport[" + (closed ? "closed" : lost != null ? "lost" : "open") + "]";
    }
}
