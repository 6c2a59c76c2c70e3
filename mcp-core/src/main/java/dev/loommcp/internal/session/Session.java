package dev.loommcp.internal.session;

import dev.loommcp.CancellationToken;
import dev.loommcp.Era;
import dev.loommcp.McpCancelledException;
import dev.loommcp.McpClosedException;
import dev.loommcp.McpMissingCapabilityException;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpRpcException;
import dev.loommcp.McpSessionExpiredException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpTransportException;
import dev.loommcp.McpUnsupportedInEraException;
import dev.loommcp.McpUnsupportedVersionException;
import dev.loommcp.ProtocolMode;
import dev.loommcp.RequestOptions;
import dev.loommcp.Subscription;
import dev.loommcp.SubscriptionFilter;
import dev.loommcp.SubscriptionListener;
import dev.loommcp.internal.scope.RequestScope;
import dev.loommcp.internal.scope.Scope;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.DiscoverResult;
import dev.loommcp.schema.Implementation;
import dev.loommcp.schema.InitializeResult;
import dev.loommcp.schema.ServerCapabilities;
import dev.loommcp.spi.Deadline;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.spi.RequestRouting;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The engine behind {@code McpClient}, and the only class of the engine the facade names: it composes the parts and
 * holds the pending requests and the life of a call (send, await with deadline and token, {@code
 * notifications/cancelled} on the wire). The client's life (state machine {@code NEW → CONNECTING → CONNECTED →
 * CLOSED}, close cause, close gate, scope tree, background threads) is {@link ClientLife}'s, and the parts that need
 * it get it, never this class. The era choice at connect is {@link EraSetup}'s, the modern request path
 * is {@link ModernRequests}, tool calls with header routing are {@link HeaderRoutedCalls}, every tool call and the
 * channel of an installed task driver are {@link TaskBridge}'s. Inbound notifications and
 * server requests go to an {@link InboundDispatcher}; it gets what it needs from here, never the other way round.
 * The transport's sink is {@link SessionSink}, the adapters the split-out parts call back through are
 * {@link SessionHosts}, the release at close is {@link SessionRelease}, the wait for a response is
 * {@link PendingCall#await}. Thread-safe.
 */
public final class Session {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");

    private final SessionConfig config;
    private final McpTransport transport;
    private final Duration requestTimeout;
    private final Duration connectTimeout;
    private final int listenerQueueCapacity;
    private final long listenerQueueBytes;
    private final Handshake handshake;
    private final SessionRenewal renewal;
    private final InboundDispatcher inbound;
    private final ToolCatalog tools;
    private final Subscriptions subscriptions;

    /** The client's state, close cause, close gate and scopes. */
    private final ClientLife life;
    private volatile InitializeResult initializeResult;

    private final AtomicLong ids = new AtomicLong();
    private final ConcurrentHashMap<Long, PendingCall> pending = new ConcurrentHashMap<>();
    /** Fails the plain calls of {@link #pending} at their deadline, one thread for all of them. */
    private final DeadlineWatch deadlines;
    private final AtomicLong droppedEvents = new AtomicLong();
    private final EventLoop events;
    private final AtomicReference<Map<String, Object>> toolMeta = new AtomicReference<>(Map.of());
    private final SessionSink sink;
    private final Answers answers;
    private final Events observed;
    private final Envelope envelope;
    private final ResultCache cache;
    private final InputRounds inputRounds;
    private final EraSetup eraSetup;
    private final ModernRequests modern;
    private final HeaderRoutedCalls headerRouting;
    private final TaskBridge tasks;
    private final SessionRelease release;

    /** The era of the connection, set once connect completed; {@code null} before. */
    private volatile Era era;
    /** The adopted {@code server/discover} result of a modern connection. */
    private volatile DiscoverResult discover;
    /**
     * Creates an unconnected session; nothing starts before {@link #connect}.
     *
     * @param config the client's configuration
     */
    public Session(SessionConfig config) {
        this.config = config;
        this.transport = config.transport();
        this.life = new ClientLife(transport.describe());
        this.deadlines = new DeadlineWatch(pending, life);
        this.requestTimeout = config.requestTimeout();
        this.connectTimeout = config.connectTimeout();
        this.listenerQueueCapacity = config.listenerQueueCapacity();
        this.listenerQueueBytes = config.listenerQueueBytes();
        this.events = new EventLoop(listenerQueueCapacity, listenerQueueBytes, droppedEvents, transport::describe,
                this::isClosed);
        this.tools = new ToolCatalog(config.outputSchemaValidation(),
                () -> era() == Era.MODERN && transport.exchangePerRequest()); // x-mcp-header routing (issue 10)
        ProtocolMode mode = config.protocolMode();
        this.handshake = new Handshake(transport, config.clientInfo(), config.clientCapabilities(),
                mode.forcedEra().orElse(null) == Era.LEGACY ? mode.pinnedVersion().orElse(null) : null);
        this.subscriptions = new Subscriptions(new SessionHosts.SubscriptionHost(life, events, transport,
                requestTimeout, this::era, this::serverCapabilities, this::modernCall,
                (m, p, o, onSent) -> request(m, p, o)));
        this.inbound = new InboundDispatcher(config, new SessionHosts.DispatcherHost(life, events, pending,
                requestTimeout), tools, subscriptions);
        this.observed = new Events(config.eventListener());
        this.answers = new Answers(pending, ids, transport::describe);
        this.envelope = new Envelope(config, tools, transport.exchangePerRequest());
        this.cache = new ResultCache(() -> era == Era.MODERN, config.resultCacheEntries(),
                config.resultCacheBytes());
        this.inputRounds = new InputRounds(new ClientHandlers(config), config.maxInputRounds(), transport::describe);
        this.modern = new ModernRequests(envelope, cache, inputRounds, new SessionHosts.ModernHost(this::callOnce, life,
                requestTimeout, transport));
        this.headerRouting = new HeaderRoutedCalls(tools, config.maxListPages(), this::request,
                (m, p, o) -> call(m, p, o, false));
        this.tasks = new TaskBridge(new TaskHost(), life, events, subscriptions, config, tools, inputRounds,
                headerRouting);
        this.release = new SessionRelease(life, pending, tasks, transport, observed, subscriptions);
        this.sink = new SessionSink(life, transport, pending, answers, cache, inbound, tasks, this::release);
        this.eraSetup = new EraSetup(config, handshake, envelope, new SessionHosts.EraHost(life, transport, sink,
                pending, (m, p, o) -> callOnce(m, p, o, true, null, null), modern, d -> discover = d,
                r -> initializeResult = r));
        this.renewal = new SessionRenewal(handshake, tools, result -> {
            initializeResult = result;
            inbound.onSessionRestarted(); // marks the tool catalog stale and tells the listener
        });
    }

    // ------------------------------------------------------------------------------------------------ life cycle

    /**
     * Opens the transport and runs the handshake; see {@code McpClient.connect(RequestOptions)} for the contract.
     *
     * @param options the handshake's deadline and token
     * @throws InterruptedException if the calling thread is interrupted
     */
    public void connect(RequestOptions options) throws InterruptedException {
        Objects.requireNonNull(options, "options");
        life.beginConnect();
        RequestOptions handshakeOptions = options.timeout().isEmpty() && options.deadline().isEmpty()
                ? options.toBuilder().timeout(connectTimeout).build() : options;
        try {
            Deadline deadline = deadlineOf(handshakeOptions, Deadline.ofNanoTime(System.nanoTime()));
            events.start(life::startBackground);
            if (handshakeOptions.token().map(CancellationToken::isCancelled).orElse(false)) {
                throw new McpCancelledException("initialize cancelled before it was sent");
            }
            if (!life.isConnecting()) {
                throw life.closedException("connect"); // close() came first: do not open a transport it closed
            }
            Era chosen = establish(handshakeOptions, deadline);
            life.markConnected(() -> era = chosen);
        } catch (RuntimeException e) {
            boolean closedByOwner = life.closedByOwner();
            shutdown(e instanceof McpClosedException ? e.getCause() : e);
            if (closedByOwner) {
                throw ClientLife.closedInstead("connect", e);
            }
            if (e instanceof McpClosedException c && c.getCause() instanceof McpTransportException lost) {
                // the transport was lost (the server exited) before a handshake step was sent: connect reports
                // that loss itself, as when it comes while the step waits, not the closed client it left behind
                throw lost;
            }
            throw e;
        } catch (InterruptedException | Error e) {
            shutdown(e);
            throw e;
        }
    }

    // ------------------------------------------------------------------------------------------------ era

    /** Opens the transport and picks the era: {@link EraSetup}. */
    private Era establish(RequestOptions options, Deadline deadline) throws InterruptedException {
        return eraSetup.establish(options, deadline);
    }

    /** Closes the session: see {@code McpClient.close()}. Idempotent; safe from any thread. */
    public void close() {
        shutdown(null);
    }

    /** Returns whether the session is closed. */
    public boolean isClosed() {
        return life.isClosed();
    }

    /** Returns whether the handshake completed and the session is not closed. */
    public boolean isConnected() {
        return life.isConnected();
    }

    /** Returns the {@code initialize} result. */
    public InitializeResult initializeResult() {
        return initializeResult;
    }

    /** Returns the era of the connection, or {@code null} before connect completed. */
    public Era era() {
        return era;
    }

    /** Returns the {@code server/discover} result of a modern connection, else {@code null}. */
    public DiscoverResult discoverResult() {
        return era == Era.MODERN ? discover : null;
    }

    /** Returns the protocol version in use: negotiated (legacy) or of the requests (modern); null before connect. */
    public String protocolVersion() {
        return byEra(d -> modern.version(), InitializeResult::protocolVersion);
    }

    /** Returns the server's capabilities ({@code initialize} or {@code server/discover}); null before connect. */
    public ServerCapabilities serverCapabilities() {
        return byEra(DiscoverResult::capabilities, InitializeResult::capabilities);
    }

    /**
     * Returns the server's identity: from {@code initialize} (legacy), or the latest modern result's
     * {@code _meta["io.modelcontextprotocol/serverInfo"]} (modern; {@code null} when the server never sent one).
     */
    public Implementation serverInfo() {
        return byEra(d -> modern.serverInfo(), InitializeResult::serverInfo);
    }

    /** Returns the server's instructions from {@code initialize} or {@code server/discover}, or null. */
    public String instructions() {
        return byEra(DiscoverResult::instructions, InitializeResult::instructions);
    }

    /** A fact of the server from the era's source: the discover result (modern) or the initialize result. */
    private <T> T byEra(java.util.function.Function<DiscoverResult, T> modern,
                        java.util.function.Function<InitializeResult, T> legacy) {
        Era e = era;
        if (e == Era.MODERN) {
            return modern.apply(discover);
        }
        InitializeResult r = e == null ? null : initializeResult;
        return r == null ? null : legacy.apply(r);
    }

    /** Returns the cache of the modern era's cacheable results (listings use it). */
    public ResultCache resultCache() {
        return cache;
    }

    /**
     * Opens a subscription: see {@code McpClient.listen}.
     *
     * @param filter   the filter, not empty
     * @param listener the listener
     * @param options  deadline and token of opening it
     * @return the subscription
     * @throws InterruptedException if the calling thread is interrupted
     */
    public Subscription listen(SubscriptionFilter filter, SubscriptionListener listener, RequestOptions options)
            throws InterruptedException {
        return subscriptions.open(filter, listener, options);
    }

    /** The session's subscriptions (tests). */
    Subscriptions subscriptions() {
        return subscriptions;
    }

    /** Returns how many requests wait for their response. */
    public int pendingCount() {
        return pending.size();
    }

    /** Returns the notifications kept since the last drain. */
    public List<JsonRpcMessage.Notification> drainNotifications() {
        return inbound.drainNotifications();
    }

    /** Returns how many notifications the drain queue dropped. */
    public long droppedNotificationCount() {
        return inbound.droppedNotificationCount();
    }

    /** Returns how many listener and progress events were dropped. */
    public long droppedEventCount() {
        return droppedEvents.get();
    }

    /** Returns the tool definitions used to validate {@code structuredContent}. */
    public ToolCatalog tools() {
        return tools;
    }

    /** Sets the persistent tool {@code _meta}. */
    public void setToolMeta(Map<String, Object> meta) {
        toolMeta.set(meta == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(meta)));
    }

    /** Returns the persistent tool {@code _meta}. */
    public Map<String, Object> toolMeta() {
        return toolMeta.get();
    }

    // ------------------------------------------------------------------------------------------------ calls

    /**
     * Calls a tool: stamps the tool {@code _meta}, sends {@code tools/call}, validates the result.
     *
     * @param name      the tool name
     * @param arguments the arguments, or {@code null}
     * @param options   the call's options
     * @return the result
     * @throws InterruptedException if the calling thread is interrupted
     */
    public CallToolResult callTool(String name, Map<String, Object> arguments, RequestOptions options)
            throws InterruptedException {
        return tasks.callTool(name, arguments, options); // a task answer goes to the TaskSupport: TaskBridge
    }

    /** Sends a {@code tools/call} with its params as built: with header routing where it applies. */
    Object sendToolCall(String name, Map<String, Object> params, RequestOptions options, Deadline deadline)
            throws InterruptedException {
        return era == Era.MODERN && transport.exchangePerRequest()
                ? headerRouting.callTool(name, params, options, deadline)
                : call("tools/call", params, options, false);
    }

    /** Returns the channel a {@code TaskSupport} is bound to. */
    public dev.loommcp.spi.TaskChannel taskChannel() {
        return tasks;
    }

    /**
     * Sends a request with {@code options.meta()} added to its params' {@code _meta}; returns the result object.
     *
     * @param method  the method
     * @param params  the params, or {@code null}
     * @param options the call's options
     * @return the result object
     * @throws InterruptedException if the calling thread is interrupted
     */
    public Map<String, Object> request(String method, Map<String, Object> params, RequestOptions options)
            throws InterruptedException {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(options, "options (use RequestOptions.DEFAULT)");
        try {
            return Params.asObject(call(method, Params.withMeta(params, options.meta()), options, false), method);
        } catch (McpRpcException e) {
            throw TaskBridge.notFound(method, params, e); // -32602 of tasks/get|update|cancel|result: typed
        }
    }

    /**
     * Sends a notification within the options' deadline; the token, when it fires, aborts the send.
     *
     * @param method  the method
     * @param params  the params, or {@code null}
     * @param options deadline and token
     * @throws InterruptedException if the calling thread is interrupted
     */
    public void notify(String method, Map<String, Object> params, RequestOptions options)
            throws InterruptedException {
        Objects.requireNonNull(options, "options (use RequestOptions.DEFAULT)");
        life.ensureConnected(method);
        ModernRequests.refuseRemoved(era, method);
        CancellationToken token = options.token().orElse(null);
        if (token != null && token.isCancelled()) {
            throw new McpCancelledException(method + " not sent: the token was already cancelled ("
                    + token.reason() + ")");
        }
        Deadline deadline = deadlineOf(options, Deadline.ofNanoTime(System.nanoTime()));
        if (deadline.isExpired()) {
            throw new McpTimeoutException(method + " not sent: its deadline had passed");
        }
        // the caller learns a refused delivery (an HTTP error status), as it always did
        CallContext context = new CallContext(deadline, null, true, era == Era.MODERN
                ? Envelope.notificationRouting(method, modern.version()) : null, life.work());
        CancellationToken.Registration registration = token == null ? null : token.onCancel(context::cancel);
        try {
            transport.send(new JsonRpcMessage.Notification(method, params), context);
        } catch (RuntimeException e) {
            if (life.closedByOwner()) {
                throw ClientLife.closedInstead(method, e);
            }
            if (context.isCancelled()) {
                McpCancelledException c = new McpCancelledException(method + " cancelled while sending: "
                        + token.reason());
                c.addSuppressed(e);
                throw c;
            }
            throw e;
        } finally {
            if (registration != null) {
                registration.close();
            }
        }
    }

    /**
     * Sends a request and returns its raw result: no caller {@code _meta} added, no check of the result's Java type.
     * In the modern era it takes the modern path ({@link #modernCall}: envelope, retry, {@code resultType}).
     */
    public Object call(String method, Map<String, Object> params, RequestOptions options)
            throws InterruptedException {
        return call(method, params, options, false);
    }

    /**
     * Sends one request and waits for its response: in the modern era through {@link #modernCall}; in the legacy
     * era a session expiry is handled by {@link SessionRenewal#call}.
     */
    private Object call(String method, Map<String, Object> params, RequestOptions options, boolean handshake)
            throws InterruptedException {
        if (handshake) {
            return callOnce(method, params, options, true, null, null);
        }
        return modernCall(method, params, options, null);
    }

    /**
     * Sends one request the way the connection's era wants it. In the modern era (MODERN-ERA.md C.1): the
     * {@code _meta} envelope ({@link Envelope}: protocol version, exactly the client's capabilities, client info,
     * merged into the caller's {@code _meta}), the {@link RequestRouting} on the send context, a new id; a
     * {@code -32022} answer is retried once with the newest mutual version (even the same one), then fails with
     * {@link McpUnsupportedVersionException}; {@code -32021} fails with {@link McpMissingCapabilityException}; the
     * result's {@code resultType} is checked (absent or {@code complete}: done; {@code input_required} on
     * {@code tools/call}, {@code prompts/get} or {@code resources/read}: completed through {@link InputRounds}
     * within the same deadline and token; anything else: {@link McpProtocolException}). A method removed in the
     * modern era fails with {@link McpUnsupportedInEraException} and nothing is sent. In the legacy era: the
     * existing path with session renewal. Nothing of {@code options.meta()} is added (put it into {@code params}).
     *
     * @param method  the method
     * @param params  the params (plain JSON), or {@code null}
     * @param options deadline, token, progress listener
     * @param onSent  told each request's JSON-RPC id just before it is handed to the transport (a corrective retry
     *                is a new request with a new id); or {@code null}
     * @return the result ({@code resultType} complete)
     * @throws InterruptedException if the calling thread is interrupted
     */
    public Object modernCall(String method, Map<String, Object> params, RequestOptions options,
                             Consumer<RequestId> onSent) throws InterruptedException {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(options, "options (use RequestOptions.DEFAULT)");
        Deadline start = Deadline.ofNanoTime(System.nanoTime());
        try (Scope<Object, Void> scope = openRequestScope(method, options.resetTimeoutOnProgress()
                ? Deadlines.hardLimit(options, start) : deadlineOf(options, start))) {
            if (era != Era.MODERN) {
                return renewal.call(method, params, options, deadlineOf(options, start).earliest(scope.deadline()),
                        (m, p, o, h) -> callOnce(m, p, o, h, null, h ? null : onSent));
            }
            return modern.call(method, params, options, onSent);
        }
    }

    /**
     * Opens the scope of one request (all its rounds and retries): under the scope the calling thread is in (a
     * handler or listener of another request, on this client or another, or a user's fan-out scope), so that the
     * request inherits its deadline and ends with it; else under the client's own scope. Code running inside it
     * reads it as {@code McpContext.current()}.
     *
     * @throws McpClosedException    if the client has closed
     * @throws McpCancelledException if the scope the calling thread is in has ended (the outer request was
     *                               cancelled or timed out): nothing is sent
     */
    private Scope<Object, Void> openRequestScope(String method, Deadline deadline) {
        Scope<?, ?> outer = Scope.current();
        if (outer != null && outer.isCancelled()) {
            throw new McpCancelledException(method + " not sent: " + outer.name()
                    + " it was called in has ended");
        }
        try {
            return Scope.open(method, Scope.Joiner.awaitAll(), deadline, life.work(),
                    new RequestScope(life, method, transport.describe()));
        } catch (IllegalStateException ended) {
            if (life.isClosed()) {
                throw life.closedException(method);
            }
            throw new McpCancelledException(method + " not sent: the scope it was called in has ended");
        }
    }

    /**
     * Sends one request and waits for its response. The heart of the client: DESIGN.md section 3, "the life of a
     * call".
     */
    Object callOnce(String method, Map<String, Object> params, RequestOptions options, boolean handshake,
                            RequestRouting routing, Consumer<RequestId> onSent) throws InterruptedException {
        if (!handshake) {
            life.ensureConnected(method);
        } else if (!life.isOpen()) {
            throw life.closedException(method);
        }
        if (Thread.interrupted()) {
            throw new InterruptedException(method + " not sent: the thread was interrupted");
        }
        CancellationToken token = options.token().orElse(null);
        if (token != null && token.isCancelled()) {
            throw new McpCancelledException(method + " not sent: the token was already cancelled ("
                    + token.reason() + ")");
        }
        long start = System.nanoTime();
        Deadline startAt = Deadline.ofNanoTime(start);
        Deadline deadline = deadlineOf(options, startAt);
        Deadline hardDeadline = deadline;
        Duration progressTimeout = null; // with resetTimeoutOnProgress: how long after the last progress
        if (options.resetTimeoutOnProgress()) {
            progressTimeout = deadline.isNone() ? null : Duration.ofNanos(deadline.nanoTime() - start);
            hardDeadline = Deadlines.hardLimit(options, startAt);
        }
        // the scope the call runs in: its request's (opened by modernCall), or, for the handshake, whatever scope
        // the connecting thread is in; its deadline bounds the call, its end cancels it
        Scope<?, ?> scope = Scope.current();
        RequestScope ours = scope != null && scope.attachment() instanceof RequestScope r && r.isOf(life) ? r : null;
        if (scope != null && !scope.deadline().isNone()) {
            hardDeadline = hardDeadline.earliest(scope.deadline());
            if (!options.resetTimeoutOnProgress()) {
                deadline = hardDeadline;
            }
        }
        if (deadline.isExpired()) {
            // a deadline already in the past (a tiny timeout, an Instant before now): nothing goes on the wire
            throw new McpTimeoutException(method + " not sent: its deadline had passed");
        }
        long id = ids.incrementAndGet();
        RequestId requestId = RequestId.of(id);
        PendingCall p = new PendingCall(id, method, start);
        if (options.progressListener().isPresent()) {
            p.relay = new ProgressRelay(options.progressListener().get(), p.future, listenerQueueCapacity,
                    listenerQueueBytes, droppedEvents);
        }
        if (p.relay != null || options.resetTimeoutOnProgress()) {
            // a server sends progress only for a request with a token: resetting the timeout needs it too
            params = Params.withMeta(params, Map.of("progressToken", id));
        }
        JsonRpcMessage.Request request = new JsonRpcMessage.Request(requestId, method, params);
        CallContext context = new CallContext(options.resetTimeoutOnProgress() ? hardDeadline : deadline, requestId,
                false, routing, ours != null ? scope : life.work());
        if (ours != null) {
            ours.sent(requestId);
        }
        if (p.relay == null && !options.resetTimeoutOnProgress()) {
            p.waitsInline(context); // this thread only blocks for the answer after send: the exchange may run on it
        }
        pending.put(id, p);
        if (life.isClosed()) {
            pending.remove(id);
            throw life.closedException(method);
        }
        if (p.relay == null && !options.resetTimeoutOnProgress() && !deadline.isNone()) {
            deadlines.watch(p, deadline.nanoTime()); // the caller then waits without a timer of its own
        }
        CancellationToken.Registration registration = token == null ? null
                : token.onCancel(() -> p.future.completeExceptionally(new PendingCall.CancelSignal(token.reason())));
        // the end of the scope it runs in (the outer request, a fan-out scope, the client) cancels it on the wire
        Scope.Registration scopeEnd = scope == null ? null : scope.onCancel(() -> p.future.completeExceptionally(
                new PendingCall.CancelSignal(scope.endedBy())));
        String cancelReason = null;
        observed.requestStart(method, requestId);
        try {
            try {
                if (onSent != null) {
                    onSent.accept(requestId);
                }
                // queues and returns; a failure of the exchange comes back through the sink's onSendFailed
                transport.send(request, context);
            } catch (RuntimeException e) {
                if (life.closedByOwner()) {
                    throw ClientLife.closedInstead(method, e);
                }
                if (scope != null && scope.isCancelled()) { // the scope ended while the request was being sent
                    cancelReason = scope.endedBy();
                    McpCancelledException c = new McpCancelledException(method + " cancelled while sending: "
                            + cancelReason);
                    c.addSuppressed(e);
                    throw c;
                }
                throw e;
            }
            JsonRpcMessage response;
            try {
                response = p.await(deadline, hardDeadline, progressTimeout, options.resetTimeoutOnProgress());
            } catch (McpTimeoutException e) {
                cancelReason = "timeout";
                String waiting = context.waitingFor();
                if (waiting != null) { // the transport was waiting for something of its own: say what
                    McpTimeoutException said = new McpTimeoutException(e.getMessage() + " (the transport was "
                            + waiting + ")");
                    said.setStackTrace(e.getStackTrace());
                    throw said;
                }
                throw e;
            } catch (McpCancelledException e) {
                cancelReason = token != null && token.reason() != null ? token.reason()
                        : scope != null && scope.isCancelled() ? scope.endedBy() : "cancelled";
                throw e;
            } catch (InterruptedException e) {
                cancelReason = "interrupted";
                throw e;
            } catch (McpTransportException e) {
                if (context.accepted() && !(e instanceof McpSessionExpiredException)) {
                    // the server has the request and may still be working on it: a transport failure is not a
                    // cancel (Streamable HTTP), so say that the client stopped waiting
                    cancelReason = "the client stopped waiting: the request's answer stream failed";
                }
                throw e;
            }
            if (p.looselyMatched) {
                context.cancel(); // the transport still waits for the exact id it will never see: end it
            } else {
                context.markCompleted(); // the exchange ends on its own once the response was delivered
            }
            if (response instanceof JsonRpcMessage.Response) {
                observed.requestEnd(method, requestId, start);
            }
            return switch (response) {
                case JsonRpcMessage.Response r -> Answers.resultOf(r, p);
                case JsonRpcMessage.ErrorResponse e -> throw new McpRpcException(method, requestId, e.error());
                default -> throw new McpProtocolException("unexpected answer to " + method);
            };
        } catch (Throwable t) {
            observed.requestFailed(method, requestId, start, t, cancelReason);
            throw t;
        } finally {
            pending.remove(id);
            if (p.relay != null) {
                p.relay.close();
            }
            if (registration != null) {
                registration.close();
            }
            if (scopeEnd != null) {
                scopeEnd.close();
            }
            context.cancel(); // aborts the exchange of a call that ended without its response (no-op after it)
            // modern HTTP-like transports cancel by aborting the exchange (context.cancel() above), never in-band
            if (cancelReason != null && !handshake && life.isConnected()
                    && (routing == null || !transport.exchangePerRequest())) {
                sendCancelled(requestId, method, cancelReason, routing);
            }
        }
    }

    private void sendCancelled(RequestId id, String method, String reason, RequestRouting requestRouting) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("requestId", id.value());
        params.put("reason", reason);
        JsonRpcMessage.Notification n = new JsonRpcMessage.Notification("notifications/cancelled", params);
        try {
            // queued; the transport's close() lets it go out (bounded) before it aborts what is in flight
            // the client's scope owns the send: the request's scope ends right after this, and its end would
            // interrupt the send it owned
            transport.send(n, new CallContext(Deadline.after(Duration.ofSeconds(5)), id, false,
                    requestRouting == null ? null : Envelope.notificationRouting(n.method(),
                            requestRouting.protocolVersion()), life.work()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "notifications/cancelled for " + method + " (id " + id
                    + ") not sent: " + e.getMessage());
        }
    }

    /** Runs a call on a new virtual thread with a cancellable future: {@link AsyncCalls#start}. */
    public <T> CompletableFuture<T> async(RequestOptions options, AsyncCall<T> call) {
        return AsyncCalls.start(life, options, call);
    }

    // ------------------------------------------------------------------------------------------------ helpers

    Deadline deadlineOf(RequestOptions options, Deadline start) {
        return Deadlines.of(options, start, requestTimeout);
    }

    // ------------------------------------------------------------------------------------------------ shutdown

    private void shutdown(Throwable cause) {
        life.close(cause, release);
    }

    /** Releases everything of a client just marked closed (by the transport's loss): {@link SessionRelease}. */
    private void release() {
        life.release(release);
    }

    /** How often the deadline watch looked at the pending calls (tests). */
    long deadlineScans() {
        return deadlines.scans();
    }

    /** What the task bridge may do with this session. */
    private final class TaskHost implements TaskBridge.Host {
        @Override
        public Era era() {
            return era;
        }

        @Override
        public ServerCapabilities serverCapabilities() {
            return Session.this.serverCapabilities();
        }

        @Override
        public String protocolVersion() {
            return Session.this.protocolVersion();
        }

        @Override
        public Map<String, Object> toolMeta() {
            return toolMeta.get();
        }

        @Override
        public Object sendToolCall(String name, Map<String, Object> params, RequestOptions options,
                                   Deadline deadline) throws InterruptedException {
            return Session.this.sendToolCall(name, params, options, deadline);
        }

        @Override
        public Map<String, Object> request(String method, Map<String, Object> params, RequestOptions options)
                throws InterruptedException {
            return Session.this.request(method, params, options);
        }
    }

    @Override
    public String toString() {
        return transport.describe() + ", " + life;
    }
}
