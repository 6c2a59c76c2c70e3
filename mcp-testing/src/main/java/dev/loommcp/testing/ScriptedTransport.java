package dev.loommcp.testing;

import dev.loommcp.McpException;
import dev.loommcp.McpSessionExpiredException;
import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.spi.JsonRpcFraming;
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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * An in-memory {@link McpTransport} with a scriptable fake MCP server behind it, so that code which holds an
 * {@code McpClient} can be unit-tested without a process or a socket (loom-mcp's own client tests use it too).
 *
 * <pre>{@code
 * ScriptedTransport server = ScriptedTransport.create()
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
 * <p><b>The wire.</b> Every message in either direction is encoded and decoded back with the core's framing
 * ({@link JsonRpcFraming#standard()}), so what is recorded and what the client receives are exactly what would travel
 * on a wire (integers come back as {@code Integer}, objects as maps).
 *
 * <p><b>Delivery</b>, in one of two {@link Mode}s, as the SPI allows:
 * <ul>
 *   <li>{@link Mode#INLINE} (stdio-like, the default of {@link #create()}): {@link #send} records the message and
 *       returns at once; everything inbound (answers, and what the test pushes with {@link #deliver}/
 *       {@link #notifyClient}) is handed to the client in order by one reader thread, named
 *       {@code mcp-testing-reader}, which ends on {@link #close()} or {@link #lose}.</li>
 *   <li>{@link Mode#BLOCKING} (HTTP-like): {@link #send} of a request returns at once and runs the request's exchange
 *       on a thread of the request's scope ({@link SendContext#fork}), which delivers what the fake server puts on that
 *       request's stream ({@link #deliverOn}: progress, server requests, then the answer) and ends with the answer.
 *       The exchange ends early, reported to the sink's {@code onSendFailed}, when the core runs the
 *       {@link SendContext#onCancel} hooks, or when its thread is interrupted. Messages not tied to a request
 *       ({@link #deliver}) go through the reader thread, like a GET stream.</li>
 * </ul>
 *
 * <p><b>Observation.</b> Every sent message is recorded ({@link #sent()}, {@link #requests}, {@link #notifications},
 * with what the core passed along in {@link #sendRecords()}); the {@code await...} methods block on a condition (never
 * sleep) for at most {@link #awaitTimeout(Duration)} (default 10 seconds) and then throw {@link AssertionError}, so they
 * work in any test framework. The bound is a safety net, not a statement about speed.
 *
 * <p><b>Faults.</b> {@link #lose} simulates the loss of the connection (the sink's {@code onClosed} runs on the calling
 * thread); {@link #failOpen}, {@link #failSend}, {@link #expireSession} and {@link #deliverJson} (raw, possibly
 * malformed, JSON) script the other failures a real transport reports. After {@link #close()} or a loss, {@link #send}
 * throws {@link McpTransportException} (the message is recorded in {@link #rejectedSends()}) and nothing more reaches
 * the client.
 *
 * <p>Thread-safe: responders run on the client's sending thread (inline mode) or on the exchange's thread (blocking
 * mode); every other method may be called from any thread.
 */
public final class ScriptedTransport implements McpTransport {

    /** The protocol version the default {@code initialize} responder answers with unless told otherwise. */
    public static final String DEFAULT_PROTOCOL_VERSION = "2025-11-25";

    /** How sends behave; see the class comment. */
    public enum Mode {
        /** stdio-like: send records and returns; one reader thread delivers everything inbound, in order. */
        INLINE,
        /**
         * HTTP-like: send returns at once and each request's exchange runs on a thread of its own
         * ({@link SendContext#fork}), carrying that request's stream; {@link McpTransport#exchangePerRequest()} is
         * {@code true}.
         */
        BLOCKING
    }

    /** A responder's answer meaning "do not answer now"; the test answers later with {@link #reply}, or never. */
    public static final Object HOLD = new Object() {
        @Override
        public String toString() {
            return "HOLD";
        }
    };

    /** How the fake server answers one request. Runs on the thread that handles the request (see the class comment). */
    @FunctionalInterface
    public interface Responder {
        /**
         * Answers a request.
         *
         * @param request the request the client sent, as decoded from the wire
         * @return a result ({@code Map}), {@code null} for an empty result, a {@link JsonRpcError}, a whole
         *         {@link JsonRpcMessage}, or {@link #HOLD}
         * @throws Exception any exception, answered to the client as a {@code -32603} internal error
         */
        @Nullable Object answer(JsonRpcMessage.Request request) throws Exception;
    }

    private static final Object END = new Object();
    private static final Object ABORT = new Object();

    /**
     * What the core passed along with one sent message.
     *
     * @param message       the message (wire form)
     * @param requestId     {@link SendContext#requestId()}
     * @param deadlineNanos {@link SendContext#deadline()} as a {@link System#nanoTime()} value
     * @param thread        the name of the sending thread
     * @param routing       {@link SendContext#routing()}: present in the modern era only
     */
    public record SendRecord(JsonRpcMessage message, RequestId requestId, long deadlineNanos, String thread,
                             java.util.Optional<dev.loommcp.spi.RequestRouting> routing) {
    }

    private static final class Exchange {
        final LinkedBlockingQueue<Object> stream = new LinkedBlockingQueue<>();
    }

    private final Mode mode;
    private volatile @Nullable String stacksOf;
    private final List<List<String>> sendStacks = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile boolean sessionExpired;
    private final java.util.concurrent.atomic.AtomicInteger expiredRequests =
            new java.util.concurrent.atomic.AtomicInteger();
    private final Map<String, Responder> responders = new ConcurrentHashMap<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final List<JsonRpcMessage> sent = new ArrayList<>();
    private final List<JsonRpcMessage> rejected = new ArrayList<>();
    private final List<SendRecord> records = new ArrayList<>();
    private final LinkedBlockingQueue<Object> inbound = new LinkedBlockingQueue<>();
    private final ConcurrentHashMap<RequestId, Exchange> exchanges = new ConcurrentHashMap<>();
    private final Set<RequestId> cancelHooksRun = ConcurrentHashMap.newKeySet();
    private final Set<RequestId> interruptedSends = ConcurrentHashMap.newKeySet();
    private final Set<RequestId> finishedSends = ConcurrentHashMap.newKeySet();
    private final AtomicInteger openCount = new AtomicInteger();
    private final AtomicInteger closeCount = new AtomicInteger();
    private volatile @Nullable TransportSink sink;
    private volatile boolean closed;
    private volatile @Nullable McpTransportException lost;
    private volatile @Nullable String handshakeVersion;
    private volatile long openDeadline;
    private volatile @Nullable RuntimeException openFailure;
    private volatile @Nullable Runnable onClose;
    private volatile Duration awaitTimeout = Duration.ofSeconds(10);
    private volatile @Nullable String protocolVersion = DEFAULT_PROTOCOL_VERSION;
    private volatile @Nullable Map<String, @Nullable Object> serverCapabilities = Map.of("tools", Map.of("listChanged", true));
    private volatile @Nullable Map<String, @Nullable Object> serverInfo = Map.of("name", "scripted-server", "version", "1.0.0");
    private volatile java.util.function.@Nullable Supplier<ScriptedTransport> probes;
    private final List<ScriptedTransport> probesMade = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile @Nullable String serverKey;

    private ScriptedTransport(Mode mode) {
        this.mode = mode;
        on("initialize", r -> initializeResult());
        on("ping", r -> Map.of());
    }

    /**
     * Creates an {@link Mode#INLINE} (stdio-like) transport whose fake server answers {@code initialize} and
     * {@code ping} (see the class comment).
     *
     * @return a new, unopened transport; open it by handing it to {@code McpClient.newBuilder} and connecting
     */
    public static ScriptedTransport create() {
        return create(Mode.INLINE);
    }

    /**
     * Creates a transport in the given mode whose fake server answers {@code initialize} and {@code ping}.
     *
     * @param mode inline (stdio-like) or blocking (HTTP-like)
     * @return a new, unopened transport
     * @throws NullPointerException if {@code mode} is {@code null}
     */
    public static ScriptedTransport create(Mode mode) {
        return new ScriptedTransport(Objects.requireNonNull(mode, "mode"));
    }

    /**
     * Returns the mode.
     *
     * @return the mode
     */
    public Mode mode() {
        return mode;
    }

    // ------------------------------------------------------------------------------------------------ script

    /**
     * Sets the protocol version the default {@code initialize} responder answers with ({@code null}: none).
     *
     * @param version the version, or {@code null} for none
     * @return this
     */
    public ScriptedTransport protocolVersion(@Nullable String version) {
        this.protocolVersion = version;
        return this;
    }

    /**
     * Sets the capabilities the default {@code initialize} responder answers with ({@code null}: none).
     *
     * @param capabilities the capabilities (plain JSON), or {@code null} for none
     * @return this
     */
    public ScriptedTransport serverCapabilities(@Nullable Map<String, @Nullable Object> capabilities) {
        this.serverCapabilities = capabilities;
        return this;
    }

    /**
     * Sets the server info the default {@code initialize} responder answers with ({@code null}: none).
     *
     * @param info the info (plain JSON), or {@code null} for none
     * @return this
     */
    public ScriptedTransport serverInfo(@Nullable Map<String, @Nullable Object> info) {
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
    public ScriptedTransport awaitTimeout(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("await timeout must be positive: " + timeout);
        }
        this.awaitTimeout = timeout;
        return this;
    }

    /**
     * Makes {@link #open} throw, as a transport that cannot start its server or reach it.
     *
     * @param failure the exception to throw, or {@code null} to open normally
     * @return this
     */
    public ScriptedTransport failOpen(@Nullable RuntimeException failure) {
        this.openFailure = failure;
        return this;
    }

    /**
     * Returns the result the default {@code initialize} responder answers with, so a custom responder can extend it.
     *
     * @return a new mutable map
     */
    public Map<String, @Nullable Object> initializeResult() {
        Map<String, @Nullable Object> r = new LinkedHashMap<>();
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

    /**
     * Sets how the fake server answers a method (replacing any earlier responder, including the defaults).
     *
     * @param method    the JSON-RPC method, for example {@code "tools/call"}
     * @param responder the responder
     * @return this
     * @throws NullPointerException if an argument is {@code null}
     */
    public ScriptedTransport on(String method, Responder responder) {
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
    public ScriptedTransport hold(String method) {
        return on(method, r -> HOLD);
    }

    // ------------------------------------------------------------------------------------------------ server side

    /**
     * Answers a request with a result: on the request's stream while its exchange is open (blocking mode), otherwise
     * through the reader (a late answer after the exchange ended is delivered like that too).
     *
     * @param id     the request id
     * @param result the result (plain JSON values), or {@code null} for {@code {}}
     */
    public void reply(RequestId id, @Nullable Map<String, @Nullable Object> result) {
        deliverOn(id, new JsonRpcMessage.Response(id, result == null ? Map.of() : result));
    }

    /**
     * Answers a request with a JSON-RPC error without data; see {@link #reply}.
     *
     * @param id      the request id
     * @param code    the error code, for example {@link JsonRpcError#INVALID_PARAMS}
     * @param message the error message
     */
    public void replyError(RequestId id, int code, String message) {
        replyError(id, code, message, null);
    }

    /**
     * Answers a request with a JSON-RPC error; see {@link #reply}.
     *
     * @param id      the request id
     * @param code    the error code
     * @param message the error message
     * @param data    the error data (plain JSON values), or {@code null}
     */
    public void replyError(RequestId id, int code, String message, @Nullable Object data) {
        deliverOn(id, new JsonRpcMessage.ErrorResponse(id, new JsonRpcError(code, message, data)));
    }

    /**
     * Delivers a message on the stream of request {@code id} while its exchange is open (blocking mode), otherwise
     * through the reader thread.
     *
     * @param id      the request whose stream carries it
     * @param message the message
     */
    public void deliverOn(RequestId id, JsonRpcMessage message) {
        JsonRpcMessage wire = wire(message);
        Exchange ex = exchanges.get(id);
        if (ex != null) {
            ex.stream.add(wire);
        } else {
            inbound.add(wire);
        }
    }

    /**
     * Delivers a message through the reader thread (stdio stdout, HTTP GET stream), after everything queued before.
     *
     * @param message a notification, a server request (the client's answer shows up in {@link #sent()}), or a
     *                response
     */
    public void deliver(JsonRpcMessage message) {
        inbound.add(wire(message));
    }

    /**
     * Delivers JSON text through the reader thread, decoded with the core's framing as a transport would decode what
     * it read (a batch array gives several messages).
     *
     * @param json the text
     * @throws dev.loommcp.McpProtocolException if the text is not JSON-RPC (the framing's error, on this thread)
     */
    public void deliverJson(String json) {
        for (JsonRpcMessage m : JsonRpcFraming.standard().decode(json)) {
            inbound.add(m);
        }
    }

    /**
     * Delivers a notification through the reader thread.
     *
     * @param method the method
     * @param params the params, or {@code null}
     */
    public void notifyClient(String method, @Nullable Map<String, @Nullable Object> params) {
        deliver(new JsonRpcMessage.Notification(method, params));
    }

    /**
     * Delivers a message to the sink on this thread, at once, bypassing the reader and the closed check: what a
     * reader thread racing with {@link #close()} could do.
     *
     * @param message the message
     * @throws IllegalStateException if the transport was never opened
     */
    public void deliverNow(JsonRpcMessage message) {
        openSink().onMessage(wire(message));
    }

    /**
     * Expires the server's session, as an HTTP server that answers 404 for an unknown session: every request sent
     * from now on but {@code initialize} (recorded, then refused with {@link McpSessionExpiredException}) until the
     * client sends {@code notifications/initialized}, which establishes the new session.
     */
    public void expireSession() {
        sessionExpired = true;
    }

    /**
     * Reports through the sink that sending the request {@code id} failed, as a transport whose exchange broke after
     * {@code send} returned does ({@link TransportSink#onSendFailed}), on this thread.
     *
     * @param id    the request's id
     * @param cause the failure
     * @throws IllegalStateException if the transport was never opened
     */
    public void failSend(RequestId id, McpException cause) {
        openSink().onSendFailed(id, cause);
    }

    /**
     * Returns how many requests were refused because the session had expired.
     *
     * @return the count
     */
    public int expiredRequests() {
        return expiredRequests.get();
    }

    /**
     * Sets an action run at the start of the first {@link #close()}, before the transport counts as closed (on the
     * closing thread).
     *
     * @param action the action, or {@code null} for none
     * @return this
     */
    public ScriptedTransport onClose(@Nullable Runnable action) {
        this.onClose = action;
        return this;
    }

    /**
     * Simulates the loss of the transport: calls {@link TransportSink#onClosed} on this thread (so the core's
     * reaction to it has happened when this returns), then ends every open exchange and the reader. Later sends are
     * rejected.
     *
     * @param cause the cause handed to the sink
     */
    public void lose(McpTransportException cause) {
        lost = cause;
        TransportSink s = sink;
        if (s != null) {
            s.onClosed(cause);
        }
        abortExchanges();
        inbound.add(END);
    }

    // ------------------------------------------------------------------------------------------------ SPI

    @Override
    public void open(TransportContext context) {
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

    /**
     * Records, at each send of a request of {@code method}, the frames of the sending thread above this transport's
     * {@code send} (innermost first, as {@code SimpleClassName.method}): how the core reached the transport.
     *
     * @param method the request method whose sends are recorded
     * @return this transport
     */
    public ScriptedTransport recordStacksOf(String method) {
        stacksOf = method;
        return this;
    }

    /**
     * Returns the stacks recorded at the sends of {@link #recordStacksOf}'s method, in send order.
     *
     * @return a snapshot
     */
    public List<List<String>> sendStacks() {
        return List.copyOf(sendStacks);
    }

    @Override
    public void send(JsonRpcMessage message, SendContext context) throws InterruptedException {
        if (message instanceof JsonRpcMessage.Request r && r.method().equals(stacksOf)) {
            sendStacks.add(java.lang.StackWalker.getInstance().walk(frames -> frames.skip(1)
                    .map(f -> f.getClassName().substring(f.getClassName().lastIndexOf('.') + 1) + "."
                            + f.getMethodName()).toList()));
        }
        JsonRpcMessage wire = wire(message);
        if (closed || lost != null) {
            lock.lock();
            try {
                rejected.add(wire);
                changed.signalAll();
            } finally {
                lock.unlock();
            }
            throw new McpTransportException("scripted transport is " + (closed ? "closed" : "lost"));
        }
        if (!(wire instanceof JsonRpcMessage.Request request)) {
            if (wire instanceof JsonRpcMessage.Notification n && n.method().equals("notifications/initialized")) {
                sessionExpired = false; // the new session is established
            }
            record(wire, context);
            return;
        }
        if (sessionExpired && !request.method().equals("initialize")) {
            record(wire, context);
            expiredRequests.incrementAndGet();
            // queue-and-return: the failure reaches the core through the sink, as from a real HTTP exchange
            sink.onSendFailed(request.id(), new McpSessionExpiredException("POST " + request.method() + " (id "
                    + request.id() + ") failed with HTTP 404: the server no longer knows the session"));
            return;
        }
        if (mode == Mode.INLINE) {
            record(wire, context);
            Object answer = answer(request);
            if (answer != HOLD) {
                inbound.add(toMessage(request.id(), answer));
            }
            return;
        }
        RequestId id = request.id();
        Exchange ex = new Exchange();
        exchanges.put(id, ex);
        record(wire, context);
        // the exchange runs on its own thread, as an HTTP transport's does; send returns at once
        // ... as a fork of the request's scope, as the SPI asks (SendContext.fork)
        Thread t;
        try {
            t = context.fork("scripted-exchange", () -> exchange(request, ex));
        } catch (RuntimeException e) {
            // the request ended between its record and its fork (a close or a loss the test caused once it saw the
            // request): this send ends by throwing, as awaitSendFinished counts it
            exchanges.remove(id, ex);
            finishedSends.add(id);
            signal();
            throw e;
        }
        context.onCancel(() -> {
            cancelHooksRun.add(id);
            ex.stream.add(ABORT);
            t.interrupt();
            signal();
        });
    }

    /** One blocking-mode exchange, on its own thread; a failure goes to the sink's {@code onSendFailed}. */
    private void exchange(JsonRpcMessage.Request request, Exchange ex) {
        RequestId id = request.id();
        try {
            Object answer = answer(request);
            if (answer != HOLD) {
                ex.stream.add(toMessage(id, answer));
            }
            while (true) {
                Object item = ex.stream.take();
                if (item == ABORT) {
                    throw new McpTransportException("scripted exchange of request " + id + " aborted");
                }
                JsonRpcMessage m = (JsonRpcMessage) item;
                TransportSink s = sink;
                if (!closed && s != null) {
                    s.onMessage(m);
                }
                if (answers(m, id)) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            interruptedSends.add(id);
        } catch (McpException e) {
            TransportSink s = sink;
            if (s != null) {
                s.onSendFailed(id, e);
            }
        } finally {
            exchanges.remove(id, ex);
            finishedSends.add(id);
            signal();
        }
    }

    /**
     * Makes {@link #probeTransport()} return a new transport from {@code factory} each time (as stdio does), instead
     * of empty (as HTTP does).
     *
     * @param factory makes an unopened probe transport
     * @return this
     */
    public ScriptedTransport probes(java.util.function.Supplier<ScriptedTransport> factory) {
        this.probes = factory;
        return this;
    }

    /**
     * Returns the probe transports {@link #probeTransport()} handed out, in order.
     *
     * @return a snapshot
     */
    public List<ScriptedTransport> probesMade() {
        return List.copyOf(probesMade);
    }

    /**
     * Sets what {@link #serverKey()} returns.
     *
     * @param key the key, or {@code null} for none
     * @return this
     */
    public ScriptedTransport serverKey(@Nullable String key) {
        this.serverKey = key;
        return this;
    }

    @Override
    public java.util.Optional<McpTransport> probeTransport() {
        java.util.function.Supplier<ScriptedTransport> factory = probes;
        if (factory == null) {
            return java.util.Optional.empty();
        }
        ScriptedTransport probe = factory.get();
        probesMade.add(probe);
        return java.util.Optional.of(probe);
    }

    @Override
    public java.util.Optional<String> serverKey() {
        return java.util.Optional.ofNullable(serverKey);
    }

    /** {@code true} in {@link Mode#BLOCKING} (HTTP-like: one exchange per request). */
    @Override
    public boolean exchangePerRequest() {
        return mode == Mode.BLOCKING;
    }

    @Override
    public void handshakeCompleted(String protocolVersion) {
        this.handshakeVersion = protocolVersion;
        signal();
    }

    @Override
    public String describe() {
        return "scripted-server";
    }

    @Override
    public void close() {
        Runnable action = onClose;
        if (action != null && closeCount.get() == 0) {
            action.run();
        }
        closeCount.incrementAndGet();
        closed = true;
        abortExchanges();
        inbound.add(END);
        signal();
    }

    // ------------------------------------------------------------------------------------------------ observation

    /**
     * Returns every message sent so far (wire form), in order.
     *
     * @return a snapshot
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
     * Returns what the core passed with each sent message, in send order.
     *
     * @return a snapshot
     */
    public List<SendRecord> sendRecords() {
        lock.lock();
        try {
            return List.copyOf(records);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Returns the record of the first sent message that matches.
     *
     * @param predicate the match
     * @return the record
     * @throws AssertionError if none matches
     */
    public SendRecord recordOf(Predicate<JsonRpcMessage> predicate) {
        return sendRecords().stream().filter(r -> predicate.test(r.message())).findFirst()
                .orElseThrow(() -> new AssertionError("no such message sent"));
    }

    /**
     * Returns the messages the client tried to send after close or loss.
     *
     * @return a snapshot
     */
    public List<JsonRpcMessage> rejectedSends() {
        lock.lock();
        try {
            return List.copyOf(rejected);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Returns the sent requests with the given method.
     *
     * @param method the method
     * @return a snapshot
     */
    public List<JsonRpcMessage.Request> requests(String method) {
        return sent().stream().filter(m -> m instanceof JsonRpcMessage.Request r && r.method().equals(method))
                .map(m -> (JsonRpcMessage.Request) m).toList();
    }

    /**
     * Returns the sent notifications with the given method.
     *
     * @param method the method
     * @return a snapshot
     */
    public List<JsonRpcMessage.Notification> notifications(String method) {
        return sent().stream().filter(m -> m instanceof JsonRpcMessage.Notification n && n.method().equals(method))
                .map(m -> (JsonRpcMessage.Notification) m).toList();
    }

    /**
     * Returns the sent responses and error responses to the given (server request) id.
     *
     * @param id the id
     * @return a snapshot
     */
    public List<JsonRpcMessage> answersTo(RequestId id) {
        return sent().stream().filter(m -> answers(m, id)).toList();
    }

    /**
     * Waits for the first sent message that matches.
     *
     * @param what      description for the failure message
     * @param predicate the match
     * @return the message
     * @throws AssertionError if none comes within the {@link #awaitTimeout(Duration)}, or if interrupted
     */
    public JsonRpcMessage awaitSent(String what, Predicate<JsonRpcMessage> predicate) {
        return await("the client to send " + what, () -> {
            for (JsonRpcMessage m : sent) {
                if (predicate.test(m)) {
                    return m;
                }
            }
            return null;
        });
    }

    /**
     * Waits until at least {@code count} requests with the method were sent and returns the first {@code count}.
     *
     * @param method the method
     * @param count  how many
     * @return the requests in send order
     * @throws AssertionError if fewer come within the {@link #awaitTimeout(Duration)}, or if interrupted
     */
    public List<JsonRpcMessage.Request> awaitRequests(String method, int count) {
        return await(count + " " + method + " requests", () -> {
            List<JsonRpcMessage.Request> found = sent.stream()
                    .filter(m -> m instanceof JsonRpcMessage.Request r && r.method().equals(method))
                    .map(m -> (JsonRpcMessage.Request) m).toList();
            return found.size() >= count ? found.subList(0, count) : null;
        });
    }

    /**
     * Waits for the first request with the method.
     *
     * @param method the method
     * @return the request
     * @throws AssertionError if none comes within the {@link #awaitTimeout(Duration)}
     */
    public JsonRpcMessage.Request awaitRequest(String method) {
        return awaitRequests(method, 1).get(0);
    }

    /**
     * Waits for the first notification with the method.
     *
     * @param method the method
     * @return the notification
     * @throws AssertionError if none comes within the {@link #awaitTimeout(Duration)}
     */
    public JsonRpcMessage.Notification awaitNotification(String method) {
        return (JsonRpcMessage.Notification) awaitSent("a " + method + " notification",
                m -> m instanceof JsonRpcMessage.Notification n && n.method().equals(method));
    }

    /**
     * Waits for the client's answer (response or error response) to a server request.
     *
     * @param id the server request's id
     * @return the answer
     * @throws AssertionError if none comes within the {@link #awaitTimeout(Duration)}
     */
    public JsonRpcMessage awaitAnswerTo(RequestId id) {
        return awaitSent("an answer to server request " + id, m -> answers(m, id));
    }

    /**
     * Waits until the blocking-mode send of request {@code id} has returned or thrown.
     *
     * @param id the request id
     * @throws AssertionError if it does not end within the {@link #awaitTimeout(Duration)}, or if interrupted
     */
    public void awaitSendFinished(RequestId id) {
        await("the send of request " + id + " to end", () -> finishedSends.contains(id) ? id : null);
    }

    /**
     * Returns whether the core ran the {@link SendContext#onCancel} hook of request {@code id} (blocking mode).
     *
     * @param id the request id
     * @return whether it ran
     */
    public boolean cancelHookRan(RequestId id) {
        return cancelHooksRun.contains(id);
    }

    /**
     * Returns whether the blocking-mode send of request {@code id} ended with an interrupt.
     *
     * @param id the request id
     * @return whether it was interrupted
     */
    public boolean sendInterrupted(RequestId id) {
        return interruptedSends.contains(id);
    }

    /**
     * Returns how many blocking-mode exchanges are open.
     *
     * @return the count
     */
    public int openExchanges() {
        return exchanges.size();
    }

    /**
     * Returns how often {@link #open} was called.
     *
     * @return the count
     */
    public int openCount() {
        return openCount.get();
    }

    /**
     * Returns how often {@link #close()} was called.
     *
     * @return the count
     */
    public int closeCount() {
        return closeCount.get();
    }

    /**
     * Returns whether {@link #close()} was called.
     *
     * @return whether closed
     */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Returns the deadline passed to {@link #open}.
     *
     * @return the {@link System#nanoTime()} deadline
     */
    public long openDeadline() {
        return openDeadline;
    }

    /**
     * Returns the version passed to {@link #handshakeCompleted}.
     *
     * @return the version, or empty if not called
     */
    public java.util.Optional<String> handshakeVersion() {
        return java.util.Optional.ofNullable(handshakeVersion);
    }

    // ------------------------------------------------------------------------------------------------ internals

    /**
     * Encodes a message with the core's framing ({@link JsonRpcFraming#standard()}) and decodes it back: its wire
     * form, as a peer would read it.
     *
     * @param message the message
     * @return what a peer would read
     * @throws IllegalArgumentException if the message holds something that is not plain JSON
     */
    public static JsonRpcMessage wire(JsonRpcMessage message) {
        JsonRpcFraming framing = JsonRpcFraming.standard();
        byte[] bytes = framing.encode(message);
        List<JsonRpcMessage> decoded = framing.decode(bytes, 0, bytes.length);
        if (decoded.size() != 1) {
            throw new AssertionError("one message encoded as " + decoded.size());
        }
        return decoded.get(0);
    }

    /**
     * Waits, under the lock and on its condition (signalled by every send and state change), until {@code found}
     * gives a value, for at most the await timeout.
     */
    private <T> T await(String what, java.util.function.Supplier<@Nullable T> found) {
        long end = System.nanoTime() + awaitTimeout.toNanos();
        lock.lock();
        try {
            while (true) {
                T value = found.get();
                if (value != null) {
                    return value;
                }
                long left = end - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("timed out waiting for " + what + "; sent: " + describe(sent));
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

    private TransportSink openSink() {
        TransportSink s = sink;
        if (s == null) {
            throw new IllegalStateException("the scripted transport is not open");
        }
        return s;
    }

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

    @SuppressWarnings("unchecked")
    private static JsonRpcMessage toMessage(RequestId id, Object answer) {
        Object a = answer == null ? Map.of() : answer;
        JsonRpcMessage m = switch (a) {
            case JsonRpcMessage msg -> msg;
            case JsonRpcError error -> new JsonRpcMessage.ErrorResponse(id, error);
            case Map<?, ?> result -> new JsonRpcMessage.Response(id, result);
            default -> throw new IllegalArgumentException("a responder returned " + a.getClass());
        };
        return wire(m);
    }

    private static boolean answers(JsonRpcMessage m, RequestId id) {
        return (m instanceof JsonRpcMessage.Response r && r.id().equals(id))
                || (m instanceof JsonRpcMessage.ErrorResponse e && id.equals(e.id()));
    }

    private void record(JsonRpcMessage wire, SendContext context) {
        lock.lock();
        try {
            sent.add(wire);
            records.add(new SendRecord(wire, context.requestId(), context.deadline().nanoTime(),
                    Thread.currentThread().getName(), context.routing()));
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void signal() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void abortExchanges() {
        for (Exchange ex : exchanges.values()) {
            ex.stream.add(ABORT);
        }
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

    private static String describe(List<JsonRpcMessage> messages) {
        return messages.stream().map(m -> switch (m) {
            case JsonRpcMessage.Request r -> r.method() + "#" + r.id();
            case JsonRpcMessage.Notification n -> n.method();
            case JsonRpcMessage.Response r -> "response#" + r.id();
            case JsonRpcMessage.ErrorResponse e -> "error#" + e.id();
        }).collect(Collectors.joining(", ", "[", "]"));
    }

    @Override
    public String toString() {
        return "ScriptedTransport[" + mode + "]";
    }
}
