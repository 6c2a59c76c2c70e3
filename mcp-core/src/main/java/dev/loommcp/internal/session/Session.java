package dev.loommcp.internal.session;

import dev.loommcp.CancellationToken;
import dev.loommcp.config.Era;
import dev.loommcp.McpCancelledException;
import dev.loommcp.McpClosedException;
import dev.loommcp.McpTransportException;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.RequestOptions;
import dev.loommcp.event.Subscription;
import dev.loommcp.event.SubscriptionFilter;
import dev.loommcp.event.SubscriptionListener;
import dev.loommcp.internal.session.base.EventLoop;
import dev.loommcp.internal.session.base.Params;
import dev.loommcp.internal.session.config.SessionConfig;
import dev.loommcp.internal.session.era.EraSetup;
import dev.loommcp.internal.session.era.Handshake;
import dev.loommcp.event.McpClientListener;
import dev.loommcp.policy.CircuitState;
import dev.loommcp.policy.CircuitStateChange;
import dev.loommcp.internal.session.inbound.ClientHandlers;
import dev.loommcp.internal.session.inbound.InboundDispatcher;
import dev.loommcp.internal.session.subscriptions.Subscriptions;
import dev.loommcp.internal.session.tools.ToolCatalog;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.DiscoverResult;
import dev.loommcp.schema.Implementation;
import dev.loommcp.schema.InitializeResult;
import dev.loommcp.schema.ServerCapabilities;
import dev.loommcp.Deadline;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.spi.TransportInfo;
import dev.loommcp.intercept.McpConnection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The engine behind {@code McpClient}, and the only class of the engine the facade names: it composes the parts,
 * runs connect, and is entered once per call. The client's life (state machine {@code NEW → CONNECTING → CONNECTED
 * → CLOSED}, close cause, close gate, scope tree, background threads) is {@link ClientLife}'s, and the parts that
 * need it get it, never this class. The era choice at connect is {@link EraSetup}'s; it also picks the era's
 * {@link WirePath} once ({@link LegacyWire} with session renewal, or {@link ModernRequests}), through which every
 * request goes to the life of one request, {@link CallLife} (send, await with deadline and token, {@code
 * notifications/cancelled} on the wire). Tool calls are composed by {@link ToolCalls} (header routing:
 * {@link HeaderRoutedCalls}); the tasks seam and the channel of an installed task driver are {@link TaskBridge}'s.
 * Inbound notifications and server requests go to an {@link InboundDispatcher}; it gets what it needs from here,
 * never the other way round. The transport's sink is {@link SessionSink}, the adapters the split-out parts call back
 * through are {@link SessionHosts}, the release at close is {@link SessionRelease}, the wait for a response is
 * {@link PendingCall#await}. Thread-safe.
 */
public final class Session {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");

    private final SessionConfig config;
    private final McpTransport transport;
    private final Duration requestTimeout;
    private final Duration connectTimeout;
    private final Handshake handshake;
    private final InboundDispatcher inbound;
    private final ToolCatalog tools;
    private final Subscriptions subscriptions;

    /** The client's state, close cause, close gate and scopes. */
    private final ClientLife life;
    private volatile InitializeResult initializeResult;

    /** The calls waiting for their answer, by id: the {@link CallLife}'s, completed by the {@link Answers}. */
    private final ConcurrentHashMap<Long, PendingCall> pending = new ConcurrentHashMap<>();
    private final AtomicLong droppedEvents = new AtomicLong();
    private final EventLoop events;
    private final CallLife calls;
    private final SessionSink sink;
    private final Answers answers;
    private final Events observed;
    private final Envelope envelope;
    private final ResultCache cache;
    private final InputRounds inputRounds;
    private final EraSetup eraSetup;
    private final LegacyWire legacy;
    private final ModernRequests modern;
    private final TaskBridge tasks;
    private final ToolCalls toolCalls;
    private final SessionRelease release;
    /** The client's resilience policy at work, or {@code null} for none. */
    private final Resilience resilience;

    /** What interceptors see of the connection. */
    private final Connection connection;

    /** The era of the connection, set once connect completed; {@code null} before. */
    private volatile Era era;
    /** The wire path of the connection's era, chosen at connect; the legacy one before (its calls fail there). */
    private volatile WirePath path;
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
        this.requestTimeout = config.requestTimeout();
        this.connectTimeout = config.connectTimeout();
        this.events = new EventLoop(config.listenerQueueCapacity(), config.listenerQueueBytes(), droppedEvents,
                transport::describe, this::isClosed);
        this.tools = new ToolCatalog(config.outputSchemaValidation(),
                () -> path.routesToolHeaders()); // x-mcp-header routing (issue 10)
        ProtocolMode mode = config.protocolMode();
        this.handshake = new Handshake(transport, config.clientInfo(), config.clientCapabilities(),
                mode.forcedEra().orElse(null) == Era.LEGACY ? mode.pinnedVersion().orElse(null) : null);
        this.subscriptions = new Subscriptions(new SessionHosts.SubscriptionHost(life, events, transport,
                requestTimeout, this::era, this::serverCapabilities, this::call,
                (m, p, o, onSent) -> request(m, p, o)));
        this.connection = new Connection();
        ClientHandlers handlers = new ClientHandlers(config, connection);
        this.inbound = new InboundDispatcher(config, new SessionHosts.DispatcherHost(life, events, pending,
                requestTimeout), tools, subscriptions, handlers);
        this.observed = new Events(config.eventListener());
        AtomicLong ids = new AtomicLong();
        this.answers = new Answers(pending, ids, transport::describe);
        this.calls = new CallLife(life, transport, config, droppedEvents, observed, ids, pending);
        this.envelope = new Envelope(config, tools, transport.exchangePerRequest());
        this.cache = new ResultCache(() -> era == Era.MODERN, config.resultCacheEntries(),
                config.resultCacheBytes());
        this.inputRounds = new InputRounds(handlers, config.maxInputRounds(), transport::describe);
        Interception interception = Interception.of(config.interceptors(), connection, tools);
        HeaderRoutedCalls headerRouting = new HeaderRoutedCalls(tools, config.maxListPages(), this::request);
        this.resilience = Resilience.of(config.resilience(), serverLabel(), tools::isIdempotent,
                life::isClosed, this::circuitChanged);
        CallGuard guard = resilience; // the seam of both wire paths (null: no policy, nothing in the way)
        this.modern = new ModernRequests(envelope, cache, inputRounds, calls, headerRouting,
                transport.exchangePerRequest(), guard, interception);
        this.legacy = new LegacyWire(calls, new SessionRenewal(handshake, calls, tools, result -> {
            initializeResult = result;
            inbound.onSessionRestarted(); // marks the tool catalog stale and tells the listener
        }), guard, interception);
        this.path = legacy;
        this.tasks = new TaskBridge(new TaskHost(), life, events, subscriptions, config, tools, inputRounds,
                headerRouting);
        this.toolCalls = new ToolCalls(tools, tasks, () -> path, requestTimeout);
        tasks.bind(toolCalls);
        this.release = new SessionRelease(life, pending, tasks, transport, observed, subscriptions);
        this.sink = new SessionSink(life, transport, pending, answers, cache, inbound, tasks, this::release);
        this.eraSetup = new EraSetup(transport, config.protocolMode(), config.eraVerdictFile(),
                config.probeTimeout(), handshake, envelope, new SessionHosts.EraHost(life, transport, sink, pending,
                        (m, p, o) -> calls.call(m, p, o, true, null, null), modern, d -> discover = d,
                        r -> initializeResult = r, release::transportRefusedOpen));
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
            Deadline deadline = calls.deadlineOf(handshakeOptions);
            events.start(life::startBackground);
            if (handshakeOptions.token().map(CancellationToken::isCancelled).orElse(false)) {
                throw new McpCancelledException("initialize cancelled before it was sent");
            }
            if (!life.isConnecting()) {
                throw life.closedException("connect"); // close() came first: do not open a transport it closed
            }
            Era chosen = establish(handshakeOptions, deadline);
            WirePath chosenPath = chosen == Era.MODERN ? modern : legacy; // the one era test of the call path
            life.markConnected(() -> {
                era = chosen;
                path = chosenPath;
            });
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
    public Subscriptions subscriptions() {
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
        toolCalls.setToolMeta(meta);
    }

    /** Returns the persistent tool {@code _meta}. */
    public Map<String, Object> toolMeta() {
        return toolCalls.toolMeta();
    }

    // ------------------------------------------------------------------------------------------------ calls

    /**
     * Calls a tool: stamps the tool {@code _meta}, sends {@code tools/call}, validates the result ({@link ToolCalls};
     * a task answer goes to the task support through the {@link TaskBridge}).
     *
     * @param name      the tool name
     * @param arguments the arguments, or {@code null}
     * @param options   the call's options
     * @return the result
     * @throws InterruptedException if the calling thread is interrupted
     */
    public CallToolResult callTool(String name, Map<String, Object> arguments, RequestOptions options)
            throws InterruptedException {
        return toolCalls.call(name, arguments, options);
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
        return Params.asObject(path.call(method, Params.withMeta(params, options.meta()), options, null), method);
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
        path.notify(method, params, options); // a method the era removed is refused there
    }

    /**
     * Sends a request and returns its raw result: no caller {@code _meta} added, no check of the result's Java type;
     * through the era's wire path ({@link WirePath#call}).
     */
    public Object call(String method, Map<String, Object> params, RequestOptions options)
            throws InterruptedException {
        return path.call(method, params, options, null);
    }

    /**
     * Sends one request the way the connection's era wants it, in its own scope: {@link LegacyWire} (session
     * renewal) or {@link ModernRequests} (envelope, routing, corrective retry, {@code resultType}, input rounds).
     * Nothing of {@code options.meta()} is added (put it into {@code params}).
     *
     * @param method  the method
     * @param params  the params (plain JSON), or {@code null}
     * @param options deadline, token, progress listener
     * @param onSent  told each request's JSON-RPC id just before it is handed to the transport (a corrective retry
     *                is a new request with a new id); or {@code null}
     * @return the result ({@code resultType} complete)
     * @throws InterruptedException if the calling thread is interrupted
     */
    public Object call(String method, Map<String, Object> params, RequestOptions options,
                       Consumer<RequestId> onSent) throws InterruptedException {
        return path.call(method, params, options, onSent);
    }

    /** The state of the client's circuit breaker, or empty when its policy has none. */
    public java.util.Optional<CircuitState> circuitState() {
        return resilience == null ? java.util.Optional.empty() : resilience.circuitState();
    }

    /**
     * A change of the circuit breaker, under its lock: only queued (no I/O, no user code under that lock); the event
     * thread logs it and tells the listener, in order, under no lock.
     */
    private void circuitChanged(CircuitStateChange change) {
        McpClientListener listener = config.listener();
        events.dispatch(() -> {
            LOG.log(change.state() == CircuitState.OPEN ? System.Logger.Level.INFO : System.Logger.Level.DEBUG,
                    () -> "the circuit breaker of " + serverLabel() + " went from " + change.previous()
                            + " to " + change.state());
            if (listener != null) {
                listener.onCircuitStateChanged(change);
            }
        }, EventLoop.SMALL_EVENT_BYTES);
    }

    /**
     * The server as the user knows it, for the messages of the policies: {@code server 'name'} when the builder gave
     * it a name (a hosted server's key), else the transport's description (the command or the endpoint).
     */
    private String serverLabel() {
        String name = config.serverName();
        return name != null ? "server '" + name + "'" : transport.describe();
    }

    /** Runs a call on a new virtual thread with a cancellable future: {@link AsyncCalls#start}. */
    public <T> CompletableFuture<T> async(RequestOptions options, AsyncCall<T> call) {
        return AsyncCalls.start(life, options, call);
    }

    // ------------------------------------------------------------------------------------------------ helpers

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
        return calls.deadlineScans();
    }

    /** The connection as interceptors see it: each accessor reads the session's state now. */
    private final class Connection implements McpConnection {
        @Override
        public Optional<Era> era() {
            return Optional.ofNullable(era);
        }

        @Override
        public Optional<String> protocolVersion() {
            return Optional.ofNullable(Session.this.protocolVersion());
        }

        @Override
        public Optional<String> sessionId() {
            return era == Era.MODERN ? Optional.empty() : transport.sessionId(); // no sessions in the 2026 era
        }

        @Override
        public TransportInfo transport() {
            return transport.info();
        }

        @Override
        public String server() {
            String name = config.serverName();
            return name != null ? name : transport.describe();
        }

        @Override
        public Optional<Implementation> serverInfo() {
            return Optional.ofNullable(Session.this.serverInfo());
        }

        @Override
        public String toString() {
            return "McpConnection[" + transport.describe() + ", " + era + "]";
        }
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
