package dev.loommcp;

import dev.loommcp.internal.concurrent.BoundedQueue;
import dev.loommcp.internal.concurrent.Joins;
import dev.loommcp.internal.concurrent.McpThreads;
import dev.loommcp.internal.concurrent.RequestScope;
import dev.loommcp.internal.concurrent.UserCode;
import dev.loommcp.internal.json.Json;
import dev.loommcp.internal.json.JsonSize;
import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.ClientCapabilities;
import dev.loommcp.schema.CompleteResult;
import dev.loommcp.schema.CompletionReference;
import dev.loommcp.schema.CreateMessageRequest;
import dev.loommcp.schema.CreateMessageResult;
import dev.loommcp.schema.ElicitRequest;
import dev.loommcp.schema.ElicitResult;
import dev.loommcp.schema.ElicitationCapability;
import dev.loommcp.schema.GetPromptResult;
import dev.loommcp.schema.Implementation;
import dev.loommcp.schema.InitializeResult;
import dev.loommcp.schema.ListPromptsResult;
import dev.loommcp.schema.ListResourceTemplatesResult;
import dev.loommcp.schema.ListResourcesResult;
import dev.loommcp.schema.ListToolsResult;
import dev.loommcp.schema.LoggingLevel;
import dev.loommcp.schema.LoggingMessageNotification;
import dev.loommcp.schema.ProgressNotification;
import dev.loommcp.schema.Prompt;
import dev.loommcp.schema.ReadResourceResult;
import dev.loommcp.schema.Resource;
import dev.loommcp.schema.ResourceTemplate;
import dev.loommcp.schema.Root;
import dev.loommcp.schema.RootsCapability;
import dev.loommcp.schema.SamplingCapability;
import dev.loommcp.schema.ServerCapabilities;
import dev.loommcp.schema.Tool;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.spi.SendContext;
import dev.loommcp.spi.TransportSink;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * A client of one MCP server: plain blocking calls, cheap to run from many virtual threads at once, each with its
 * own deadline and cancellation (DESIGN.md section 2; the seeds' {@code MCPClient} / {@code McpClient}).
 *
 * <pre>{@code
 * try (McpClient client = McpClient.newBuilder(StdioTransport.newBuilder("npx", "-y", "server").build())
 *         .clientInfo(Implementation.of("my-agent", "1.0"))
 *         .requestTimeout(Duration.ofSeconds(30))
 *         .build()) {
 *     client.connect();
 *     CallToolResult r = client.callTool("echo", Map.of("message", "hi"));
 * }
 * }</pre>
 *
 * <h2>Life cycle</h2>
 * {@link #connect()} opens the transport and runs the {@code initialize} handshake (legacy era, protocol versions
 * 2024-11-05 to 2025-11-25), then sends {@code notifications/initialized}. It may be called once; a failed or
 * cancelled connect closes the client (the transport is released; build a new client to try again). {@link #close()}
 * fails every call in flight with {@link McpClosedException}, interrupts running handlers, closes the transport
 * (which ends the server process tree or the HTTP session) and waits for the client's threads; afterwards every call
 * and every {@link McpTool} handle fails with {@link McpClosedException}.
 *
 * <h2>Deadlines and cancellation</h2>
 * Each call's deadline is the earlier of its {@link RequestOptions} timeout and deadline; when the call sets
 * neither, the client's {@linkplain Builder#requestTimeout default timeout} applies. When the deadline passes, the {@link CancellationToken}
 * fires, the calling thread is interrupted or the client closes, the pending request is removed, a
 * {@code notifications/cancelled} is sent to the server (never for {@code initialize}, and not on close), a late
 * response is dropped, and the call throws {@link McpTimeoutException}, {@link McpCancelledException},
 * {@link InterruptedException} or {@link McpClosedException} respectively (MCP "Cancellation").
 *
 * <h2>Threads</h2>
 * All methods are thread-safe. Listeners run one at a time on the client's event thread ({@code mcp-events-N});
 * server requests (sampling, elicitation, roots) run each on its own virtual thread ({@code mcp-handler-N}), at most
 * {@linkplain Builder#maxConcurrentServerRequests a bound} at once (beyond it they are refused at once). Neither
 * ever blocks the transport's reader. Listeners and handlers may call the client, including {@link #close()}. A
 * call's {@link ProgressListener} runs on the calling thread while it waits: every progress notification the server
 * sent before its response reaches it before the call returns, and none after.
 *
 * <h2>Memory</h2>
 * What waits for a listener is bounded by count and by bytes ({@link Builder#listenerQueueCapacity},
 * {@link Builder#listenerQueueBytes}; each call's progress queue likewise); notifications are kept for
 * {@link #drainNotifications()} only when asked ({@link Builder#keepNotifications}), within
 * {@link Builder#notificationQueueCapacity} and {@link Builder#notificationQueueBytes}. Beyond a bound the oldest
 * entries are dropped and counted ({@link #droppedEventCount()}, {@link #droppedNotificationCount()}).
 *
 * <p>Whatever a listener, handler or other callback of the application throws, {@link Error}s included, is logged at
 * {@code WARNING} (class and stack trace, never the message) and the client carries on: the event thread runs the
 * next listener, and a server request whose handler failed is answered with {@code -32603}.
 *
 * <h2>Errors</h2>
 * A JSON-RPC error from the server is an {@link McpRpcException}; a tool result with {@code isError: true} is a
 * normal {@link CallToolResult}. Capabilities are not checked before sending: a request for a feature the server did
 * not advertise is sent, and the server's "method not found" comes back as {@link McpRpcException}.
 */
public final class McpClient implements AutoCloseable {

    /** The protocol version this client offers in {@code initialize}. */
    public static final String LATEST_PROTOCOL_VERSION = "2025-11-25";

    /** The protocol versions this client accepts from a server, newest first. */
    public static final List<String> SUPPORTED_PROTOCOL_VERSIONS =
            List.of("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");

    /** The default of {@link Builder#maxConcurrentServerRequests(int)}. */
    public static final int DEFAULT_MAX_CONCURRENT_SERVER_REQUESTS = 64;

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");

    private enum State { NEW, CONNECTING, CONNECTED, CLOSED }

    private final McpTransport transport;
    private final Implementation clientInfo;
    private final Duration requestTimeout;
    private final Duration connectTimeout;
    private final ElicitationHandler elicitationHandler;
    private final boolean elicitationUrlMode;
    private final boolean applyElicitationDefaults;
    private final SamplingHandler samplingHandler;
    private final RootsHandler rootsHandler;
    private final NotificationListener notificationListener;
    private final Runnable toolListChangedListener;
    private final Consumer<LoggingMessageNotification> loggingListener;
    private final Runnable sessionRestartedListener;
    private final OutputSchemaValidation outputSchemaValidation;
    private final int maxListPages;
    private final int maxConcurrentServerRequests;
    /** One per running server-request handler: a server cannot park more than the bound. */
    private final Semaphore handlerPermits;
    /** One per answer sent off the reader thread (non-inline transports): pings and refusals. */
    private final Semaphore responderPermits;
    private final AtomicLong refusedServerRequests = new AtomicLong();
    private final AtomicLong droppedAnswers = new AtomicLong();
    private final int listenerQueueCapacity;
    private final long listenerQueueBytes;

    private final ReentrantLock stateLock = new ReentrantLock();
    private volatile State state = State.NEW;
    private volatile Throwable closeCause;
    private volatile InitializeResult initializeResult;

    private final AtomicLong ids = new AtomicLong();
    private final ConcurrentHashMap<Long, Pending> pending = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<RequestId, Thread> inboundHandlers = new ConcurrentHashMap<>();
    private final Set<RequestId> cancelledInbound = ConcurrentHashMap.newKeySet();
    private final Set<Thread> background = ConcurrentHashMap.newKeySet();
    /** Threads sending {@code notifications/cancelled} (non-inline transports): close() lets them finish first. */
    private final Set<Thread> cancelSenders = ConcurrentHashMap.newKeySet();
    /** How long close() waits for in-flight {@code notifications/cancelled} before it closes the transport. */
    private static final long CANCEL_FLUSH_NANOS = TimeUnit.SECONDS.toNanos(2);
    /** What a listener event without a message (list changed, session restarted) counts in the byte budget. */
    private static final long SMALL_EVENT_BYTES = 64;
    private final AtomicLong droppedEvents = new AtomicLong();
    private final BoundedQueue<Runnable> events;
    private volatile Thread eventThread;
    private final AtomicLong droppedNotifications = new AtomicLong();
    /** {@code null} unless the application asked to keep notifications for draining. */
    private final BoundedQueue<JsonRpcMessage.Notification> drainQueue;
    private final AtomicBoolean looseIdWarned = new AtomicBoolean();
    private final AtomicReference<Map<String, Object>> toolMeta = new AtomicReference<>(Map.of());
    private final ToolCatalog tools;
    private final Sink sink = new Sink();

    private McpClient(Builder b) {
        this.transport = b.transport;
        this.clientInfo = b.clientInfo;
        this.requestTimeout = b.requestTimeout;
        this.connectTimeout = b.connectTimeout;
        this.elicitationHandler = b.elicitationHandler;
        this.elicitationUrlMode = b.elicitationUrlMode;
        this.applyElicitationDefaults = b.applyElicitationDefaults;
        this.samplingHandler = b.samplingHandler;
        this.rootsHandler = b.rootsHandler;
        this.notificationListener = b.notificationListener;
        this.toolListChangedListener = b.toolListChangedListener;
        this.loggingListener = b.loggingListener;
        this.sessionRestartedListener = b.sessionRestartedListener;
        this.outputSchemaValidation = b.outputSchemaValidation;
        this.maxListPages = b.maxListPages;
        this.maxConcurrentServerRequests = b.maxConcurrentServerRequests;
        this.handlerPermits = new Semaphore(b.maxConcurrentServerRequests);
        this.responderPermits = new Semaphore(b.maxConcurrentServerRequests);
        this.listenerQueueCapacity = b.listenerQueueCapacity;
        this.listenerQueueBytes = b.listenerQueueBytes;
        this.events = new BoundedQueue<>(listenerQueueCapacity, listenerQueueBytes, droppedEvents);
        this.drainQueue = b.keepNotifications ? new BoundedQueue<>(b.notificationQueueCapacity,
                b.notificationQueueBytes, droppedNotifications) : null;
        this.tools = new ToolCatalog(outputSchemaValidation);
    }

    /**
     * Returns a builder for a client over the given transport.
     *
     * @param transport the transport, for example a {@code StdioTransport} or {@code HttpTransport}; the client owns
     *                  it from now on and closes it
     * @return the builder
     * @throws NullPointerException if {@code transport} is {@code null}
     */
    public static Builder newBuilder(McpTransport transport) {
        return new Builder(transport);
    }

    // ------------------------------------------------------------------------------------------------ life cycle

    /**
     * Connects with the {@linkplain Builder#connectTimeout connect timeout}: see {@link #connect(RequestOptions)}.
     *
     * @throws McpTransportException if the transport cannot start or the server exits (with exit code and stderr tail
     *                               for stdio)
     * @throws McpProtocolException  if the server answers with a protocol version this client does not support, or a
     *                               malformed result
     * @throws McpRpcException       if the server refuses {@code initialize}
     * @throws McpTimeoutException   if the handshake does not complete in time
     * @throws McpClosedException    if the client was closed
     * @throws IllegalStateException if {@code connect} was already called
     * @throws InterruptedException  if the calling thread is interrupted
     */
    public void connect() throws InterruptedException {
        connect(RequestOptions.DEFAULT);
    }

    /**
     * Opens the transport and runs the MCP handshake (MCP 2025-11-25 "Lifecycle: initialization"): sends
     * {@code initialize} offering {@value #LATEST_PROTOCOL_VERSION} with the client's capabilities (declared only for
     * the handlers that were set), checks the server's protocol version against {@link #SUPPORTED_PROTOCOL_VERSIONS},
     * then sends {@code notifications/initialized}.
     *
     * <p>The handshake is bounded by the options' timeout or deadline (default: the connect timeout) and token. MCP
     * never cancels {@code initialize} on the wire; on any failure, timeout or cancellation the client closes its
     * transport and stays unconnected: later calls fail with {@link McpClosedException}.
     *
     * @param options the handshake's deadline and token (other options are ignored)
     * @throws McpTransportException  if the transport cannot start or the server exits
     * @throws McpProtocolException   if the server's protocol version is not supported or its result is malformed
     * @throws McpRpcException        if the server refuses {@code initialize}
     * @throws McpTimeoutException    if the handshake does not complete in time
     * @throws McpCancelledException  if the token fires
     * @throws McpClosedException     if the client was closed
     * @throws IllegalStateException  if {@code connect} was already called
     * @throws InterruptedException   if the calling thread is interrupted
     */
    public void connect(RequestOptions options) throws InterruptedException {
        Objects.requireNonNull(options, "options");
        stateLock.lock();
        try {
            switch (state) {
                case NEW -> state = State.CONNECTING;
                case CLOSED -> throw closedException("connect");
                default -> throw new IllegalStateException("connect() was already called (client is " + state + ")");
            }
        } finally {
            stateLock.unlock();
        }
        RequestOptions handshake = options.timeoutValue() == null && options.deadlineValue() == null
                ? options.toBuilder().timeout(connectTimeout).build() : options;
        try {
            long deadline = deadlineOf(handshake, System.nanoTime());
            startEventThread();
            if (handshake.tokenValue() != null && handshake.tokenValue().isCancelled()) {
                throw new McpCancelledException("initialize cancelled before it was sent");
            }
            if (state != State.CONNECTING) {
                throw closedException("connect"); // close() came first: do not open a transport it already closed
            }
            transport.open(sink, deadline);
            Map<String, Object> params = new LinkedHashMap<>();
            params.put("protocolVersion", LATEST_PROTOCOL_VERSION);
            params.put("capabilities", dev.loommcp.internal.json.FastResults.plain(clientCapabilities()));
            params.put("clientInfo", dev.loommcp.internal.json.FastResults.plain(clientInfo));
            Object raw = call("initialize", params, handshake, true);
            InitializeResult result = dev.loommcp.internal.json.FastResults.initializeResult(raw,
                    "initialize result");
            if (result.protocolVersion() == null || !SUPPORTED_PROTOCOL_VERSIONS.contains(result.protocolVersion())) {
                throw new McpProtocolException("server " + transport.describe() + " answered initialize with protocol "
                        + "version " + (result.protocolVersion() == null ? "(none)" : "'" + result.protocolVersion() + "'")
                        + "; this client supports " + SUPPORTED_PROTOCOL_VERSIONS);
            }
            if (result.capabilities() == null || result.serverInfo() == null) {
                throw new McpProtocolException("server " + transport.describe() + " answered initialize without "
                        + (result.capabilities() == null ? "capabilities" : "serverInfo"));
            }
            initializeResult = result;
            transport.send(new JsonRpcMessage.Notification("notifications/initialized", null),
                    SendContext.detached(deadline));
            transport.handshakeCompleted(result.protocolVersion());
            // build the data-binding mappings the first listings need, off the caller's path
            startBackground("warmup", Json::warmUp);
            stateLock.lock();
            try {
                if (state != State.CONNECTING) {
                    throw closedException("connect");
                }
                state = State.CONNECTED;
            } finally {
                stateLock.unlock();
            }
        } catch (RuntimeException e) {
            boolean closedByOwner = closedByOwner();
            shutdown(e instanceof McpClosedException ? e.getCause() : e);
            throw closedByOwner ? closedInstead("connect", e) : e;
        } catch (InterruptedException | Error e) {
            shutdown(e);
            throw e;
        }
    }

    /**
     * Closes the client: fails every call in flight with {@link McpClosedException}, revokes every {@link McpTool},
     * interrupts running handlers, closes the transport (bounded by the transport's shutdown bounds) and waits for
     * the client's threads (listener, handlers, helpers) up to 5 seconds in all; a handler or listener that ignores
     * its interrupt longer is left to finish on its own (its answer is not sent). Idempotent; safe from any thread,
     * including a listener or handler of this client. Called from an interrupted thread it still closes and waits in
     * full, then returns with the interrupt status set again. A {@link #connect()} or call running meanwhile fails
     * with {@link McpClosedException}, whatever the transport threw when it was closed under it.
     */
    @Override
    public void close() {
        shutdown(null);
    }

    /**
     * Returns whether the client is closed (by {@link #close()}, a failed {@link #connect()}, or the loss of its
     * transport).
     *
     * @return whether it is closed
     */
    public boolean isClosed() {
        return state == State.CLOSED;
    }

    /**
     * Returns whether {@link #connect()} completed and the client is not closed.
     *
     * @return whether calls can be made
     */
    public boolean isConnected() {
        return state == State.CONNECTED;
    }

    // ------------------------------------------------------------------------------------------------ session info

    /**
     * Returns the protocol era of this connection. This client speaks the legacy era (handshake-based) only.
     *
     * @return {@link Era#LEGACY}
     */
    public Era era() {
        return Era.LEGACY;
    }

    /**
     * Returns the protocol version the server chose.
     *
     * @return the version, or {@code null} before {@link #connect()} completed
     */
    public String protocolVersion() {
        InitializeResult r = initializeResult;
        return r == null ? null : r.protocolVersion();
    }

    /**
     * Returns the server's capabilities from the handshake.
     *
     * @return the capabilities, or {@code null} before {@link #connect()} completed
     */
    public ServerCapabilities serverCapabilities() {
        InitializeResult r = initializeResult;
        return r == null ? null : r.capabilities();
    }

    /**
     * Returns the server's identity from the handshake.
     *
     * @return the server info, or {@code null} before {@link #connect()} completed
     */
    public Implementation serverInfo() {
        InitializeResult r = initializeResult;
        return r == null ? null : r.serverInfo();
    }

    /**
     * Returns the server's instructions from the handshake.
     *
     * @return the instructions, or {@code null} when none were sent or before {@link #connect()} completed
     */
    public String instructions() {
        InitializeResult r = initializeResult;
        return r == null ? null : r.instructions();
    }

    /**
     * Returns the whole {@code initialize} result.
     *
     * @return the result, or {@code null} before {@link #connect()} completed
     */
    public InitializeResult initializeResult() {
        return initializeResult;
    }

    /**
     * Returns the capabilities this client declares: {@code elicitation}, {@code sampling} and {@code roots} only when
     * the matching handler was set on the builder.
     *
     * @return the capabilities
     */
    public ClientCapabilities clientCapabilities() {
        ElicitationCapability elicitation = elicitationHandler == null ? null
                : new ElicitationCapability(Map.of(), elicitationUrlMode ? Map.of() : null);
        SamplingCapability sampling = samplingHandler == null ? null : new SamplingCapability(null, null);
        RootsCapability roots = rootsHandler == null ? null : new RootsCapability(true);
        return new ClientCapabilities(null, roots, sampling, elicitation, null, null);
    }

    /**
     * Returns how many requests of this client are waiting for their response: a diagnostic (zero when idle).
     *
     * @return the number of pending requests
     */
    public int pendingRequestCount() {
        return pending.size();
    }

    // ------------------------------------------------------------------------------------------------ utilities

    /**
     * Sends {@code ping} and waits for the answer (MCP "Ping").
     *
     * @throws McpException         when the ping fails (see the class documentation)
     * @throws InterruptedException if the calling thread is interrupted
     */
    public void ping() throws InterruptedException {
        ping(RequestOptions.DEFAULT);
    }

    /**
     * Sends {@code ping} with per-call options and waits for the answer.
     *
     * @param options timeout, token
     * @throws McpException         when the ping fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    public void ping(RequestOptions options) throws InterruptedException {
        call("ping", null, options, false);
    }

    /**
     * Sends any request and returns its raw result: the seeds' generic request, for methods the typed API lacks.
     * {@code options.meta()} is added to the params' {@code _meta}.
     *
     * @param method  the JSON-RPC method
     * @param params  the params object (plain JSON values), or {@code null}
     * @param options timeout, token, progress listener, {@code _meta}
     * @return the result object as plain JSON values
     * @throws McpRpcException        if the server answers with an error
     * @throws McpProtocolException   if the result is not an object
     * @throws McpTimeoutException    if the deadline passes
     * @throws McpCancelledException  if the token fires
     * @throws McpClosedException     if the client is or gets closed
     * @throws McpTransportException  if the transport fails
     * @throws IllegalStateException  if the client is not connected yet
     * @throws IllegalArgumentException if {@code params} holds something that is not plain JSON (a cycle, a {@code
     *                                  null} key, an arbitrary object)
     * @throws InterruptedException   if the calling thread is interrupted
     */
    public Map<String, Object> request(String method, Map<String, Object> params, RequestOptions options)
            throws InterruptedException {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(options, "options (use RequestOptions.DEFAULT)");
        return asObject(call(method, withMeta(params, options.meta()), options, false), method);
    }

    /**
     * Sends a notification to the server (for example {@code notifications/roots/list_changed}).
     *
     * @param method the method
     * @param params the params object, or {@code null}
     * @throws McpClosedException    if the client is closed
     * @throws McpTransportException if the transport fails
     * @throws IllegalStateException if the client is not connected yet
     * @throws InterruptedException  if the calling thread is interrupted
     */
    public void notify(String method, Map<String, Object> params) throws InterruptedException {
        ensureConnected(method);
        try {
            transport.send(new JsonRpcMessage.Notification(method, params),
                    SendContext.detached(deadlineOf(RequestOptions.DEFAULT, System.nanoTime())));
        } catch (RuntimeException e) {
            throw closedByOwner() ? closedInstead(method, e) : e;
        }
    }

    /**
     * Tells the server the roots changed ({@code notifications/roots/list_changed}); it will call the roots handler.
     *
     * @throws McpClosedException    if the client is closed
     * @throws McpTransportException if the transport fails
     * @throws InterruptedException  if the calling thread is interrupted
     */
    public void notifyRootsListChanged() throws InterruptedException {
        notify("notifications/roots/list_changed", null);
    }

    /**
     * Sets the minimum level of {@code notifications/message} the server sends ({@code logging/setLevel}).
     *
     * @param level the level
     * @throws McpException         when the call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    public void setLoggingLevel(LoggingLevel level) throws InterruptedException {
        request("logging/setLevel", Map.of("level", level.wireName()), RequestOptions.DEFAULT);
    }

    /**
     * Removes and returns the notifications received since the last drain, oldest first (the Rust seed's
     * {@code drain_notifications}). Notifications are kept only when the client was built with
     * {@link Builder#keepNotifications(boolean) keepNotifications(true)}; otherwise this always returns an empty
     * list and nothing is held. Every server notification but progress and cancellation is queued; the queue holds at
     * most {@linkplain Builder#notificationQueueCapacity the capacity} and {@linkplain Builder#notificationQueueBytes
     * the byte budget}, dropping the oldest beyond either ({@link #droppedNotificationCount()} counts them).
     *
     * @return the notifications, possibly empty
     */
    public List<JsonRpcMessage.Notification> drainNotifications() {
        return drainQueue == null ? List.of() : drainQueue.drain();
    }

    /**
     * Returns how many notifications were dropped because the drain queue was full.
     *
     * @return the count since the client was built
     */
    public long droppedNotificationCount() {
        return droppedNotifications.get();
    }

    /**
     * Returns how many listener events were dropped because the listeners fell behind: the listener queue (and each
     * call's progress queue) exceeded {@linkplain Builder#listenerQueueCapacity its capacity} or
     * {@linkplain Builder#listenerQueueBytes its byte budget}, and the oldest events were dropped.
     *
     * @return the count since the client was built
     */
    public long droppedEventCount() {
        return droppedEvents.get();
    }

    // ------------------------------------------------------------------------------------------------ tools

    /**
     * Reads one page of {@code tools/list} (MCP "Tools: listing"). The cursor is sent verbatim.
     *
     * @param cursor the {@code nextCursor} of the previous page, or {@code null} for the first page
     * @return the page
     * @throws McpException         when the call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    public ListToolsResult listTools(String cursor) throws InterruptedException {
        return listTools(cursor, RequestOptions.DEFAULT);
    }

    /**
     * Reads one page of {@code tools/list} with per-call options.
     *
     * @param cursor  the cursor, or {@code null}
     * @param options timeout, token
     * @return the page
     * @throws McpException         when the call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    public ListToolsResult listTools(String cursor, RequestOptions options) throws InterruptedException {
        long generation = tools.generation();
        Map<String, Object> result = request("tools/list", cursorParams(cursor), options);
        ListToolsResult page = Json.convert(requireList(result, "tools", "tools/list"), ListToolsResult.class,
                "tools/list result");
        tools.merge(rawItems(result, "tools"), page.tools(), generation, false);
        return page;
    }

    /**
     * Reads every page of {@code tools/list} and returns all tools (the seeds' complete listing). An empty-string
     * {@code nextCursor} is a cursor like any other; only an absent one ends the listing. A cursor seen twice, or more
     * pages than {@linkplain Builder#maxListPages the page cap}, stops with {@link McpProtocolException}. Refreshes
     * the definitions used to validate {@code structuredContent}.
     *
     * @return the tools in server order
     * @throws McpException         when a call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    public List<Tool> listAllTools() throws InterruptedException {
        return listAllTools(RequestOptions.DEFAULT);
    }

    /**
     * Reads every page of {@code tools/list} with per-page options; see {@link #listAllTools()}.
     *
     * @param options timeout and token for each page
     * @return the tools
     * @throws McpException         when a call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    public List<Tool> listAllTools(RequestOptions options) throws InterruptedException {
        List<Tool> all = new ArrayList<>();
        for (McpTool t : tools(options)) {
            all.add(t.tool());
        }
        return all;
    }

    /**
     * Reads every page of {@code tools/list} and returns a callable handle per tool, carrying its full definition as
     * received. Handles are revoked when the client closes.
     *
     * @return the handles in server order
     * @throws McpException         when a call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    public List<McpTool> tools() throws InterruptedException {
        return tools(RequestOptions.DEFAULT);
    }

    /**
     * Like {@link #tools()}, with per-page options.
     *
     * @param options timeout and token for each page
     * @return the handles
     * @throws McpException         when a call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    public List<McpTool> tools(RequestOptions options) throws InterruptedException {
        long generation = tools.generation();
        List<Map<String, Object>> raws = new ArrayList<>();
        List<Tool> typed = new ArrayList<>();
        forEachPage("tools/list", options, result -> {
            requireList(result, "tools", "tools/list");
            raws.addAll(rawItems(result, "tools"));
            typed.addAll(Json.convert(result, ListToolsResult.class, "tools/list result").tools());
        });
        tools.merge(raws, typed, generation, true);
        List<McpTool> handles = new ArrayList<>(typed.size());
        for (int i = 0; i < typed.size(); i++) {
            handles.add(new McpTool(this, typed.get(i), raws.get(i)));
        }
        return handles;
    }

    /**
     * Calls a tool with the client's default timeout; see {@link #callTool(String, Map, RequestOptions)}.
     *
     * @param name      the tool name
     * @param arguments the arguments (a plain JSON object), or {@code null}
     * @return the result
     * @throws McpException         when the call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    public CallToolResult callTool(String name, Map<String, Object> arguments) throws InterruptedException {
        return callTool(name, arguments, RequestOptions.DEFAULT);
    }

    /**
     * Calls a tool ({@code tools/call}, MCP "Tools: calling"). The persistent tool {@code _meta}
     * ({@link #setToolMeta}) is stamped on the call, with {@code options.meta()} merged over it key by key; a
     * progress listener adds an SDK-assigned {@code progressToken}. A result with {@code isError: true} is returned,
     * not thrown. When the tool's cached definition (from {@link #tools()} or {@link #listAllTools()}) has an
     * {@code outputSchema}, {@code structuredContent} is validated as {@link Builder#outputSchemaValidation} says.
     *
     * @param name      the tool name
     * @param arguments the arguments (a plain JSON object), or {@code null}
     * @param options   timeout, deadline, token, progress listener, extra {@code _meta}
     * @return the result
     * @throws McpRpcException        if the server answers with a JSON-RPC error (unknown tool, bad arguments)
     * @throws McpProtocolException   if the result is malformed, or fails its output schema in FAIL mode
     * @throws McpTimeoutException    if the deadline passes ({@code notifications/cancelled} is sent)
     * @throws McpCancelledException  if the token fires ({@code notifications/cancelled} is sent)
     * @throws McpClosedException     if the client is or gets closed
     * @throws McpTransportException  if the transport fails (process exit, HTTP status)
     * @throws IllegalStateException  if the client is not connected yet
     * @throws IllegalArgumentException if {@code arguments} hold something that is not plain JSON
     * @throws InterruptedException   if the calling thread is interrupted ({@code notifications/cancelled} is sent)
     */
    public CallToolResult callTool(String name, Map<String, Object> arguments, RequestOptions options)
            throws InterruptedException {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(options, "options");
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("name", name);
        if (arguments != null) {
            params.put("arguments", arguments);
        }
        Map<String, Object> meta = mergeMeta(toolMeta.get(), options.meta());
        if (!meta.isEmpty()) {
            params.put("_meta", meta);
        }
        Object raw = call("tools/call", params, options, false);
        CallToolResult result = dev.loommcp.internal.json.FastResults.callToolResult(asObject(raw, "tools/call"),
                "tools/call result of tool '" + name + "'");
        tools.validate(name, result);
        return result;
    }

    /**
     * Calls a tool on a new virtual thread (the seeds' async variant).
     *
     * @param name      the tool name
     * @param arguments the arguments, or {@code null}
     * @param options   the options; its token, if any, also cancels the call
     * @return a future completed with the result or the exception {@link #callTool(String, Map, RequestOptions)}
     *         would throw; its {@code cancel(true)} cancels the call on the wire ({@code notifications/cancelled})
     */
    public CompletableFuture<CallToolResult> callToolAsync(String name, Map<String, Object> arguments,
                                                           RequestOptions options) {
        return async(options, opts -> callTool(name, arguments, opts));
    }

    /**
     * Sends any request on a new virtual thread; see {@link #request(String, Map, RequestOptions)}.
     *
     * @param method  the method
     * @param params  the params, or {@code null}
     * @param options the options
     * @return a future whose {@code cancel(true)} cancels the request on the wire
     */
    public CompletableFuture<Map<String, Object>> requestAsync(String method, Map<String, Object> params,
                                                              RequestOptions options) {
        return async(options, opts -> request(method, params, opts));
    }

    /**
     * Sets the {@code _meta} stamped on every later {@code tools/call} (the Rust seed's {@code set_tool_meta}), for
     * example a run id that lets a server recognize a retried call. Per-call {@code _meta} wins key by key.
     *
     * @param meta the map (plain JSON values), or {@code null} to clear
     */
    public void setToolMeta(Map<String, Object> meta) {
        toolMeta.set(meta == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(meta)));
    }

    /**
     * Returns the persistent tool {@code _meta}.
     *
     * @return an unmodifiable map, empty when none is set
     */
    public Map<String, Object> toolMeta() {
        return toolMeta.get();
    }

    // ------------------------------------------------------------------------------------------------ resources

    /**
     * Reads one page of {@code resources/list}.
     *
     * @param cursor the cursor, or {@code null}
     * @return the page
     * @throws McpException         when the call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    public ListResourcesResult listResources(String cursor) throws InterruptedException {
        return Json.convert(request("resources/list", cursorParams(cursor), RequestOptions.DEFAULT),
                ListResourcesResult.class, "resources/list result");
    }

    /**
     * Reads every page of {@code resources/list} (loop-guarded like {@link #listAllTools()}).
     *
     * @return the resources
     * @throws McpException         when a call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    public List<Resource> listAllResources() throws InterruptedException {
        List<Resource> all = new ArrayList<>();
        forEachPage("resources/list", RequestOptions.DEFAULT, r -> all.addAll(Json.convert(
                requireList(r, "resources", "resources/list"), ListResourcesResult.class,
                "resources/list result").resources()));
        return all;
    }

    /**
     * Reads one page of {@code resources/templates/list}.
     *
     * @param cursor the cursor, or {@code null}
     * @return the page
     * @throws McpException         when the call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    public ListResourceTemplatesResult listResourceTemplates(String cursor) throws InterruptedException {
        return Json.convert(request("resources/templates/list", cursorParams(cursor), RequestOptions.DEFAULT),
                ListResourceTemplatesResult.class, "resources/templates/list result");
    }

    /**
     * Reads every page of {@code resources/templates/list}.
     *
     * @return the templates
     * @throws McpException         when a call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    public List<ResourceTemplate> listAllResourceTemplates() throws InterruptedException {
        List<ResourceTemplate> all = new ArrayList<>();
        forEachPage("resources/templates/list", RequestOptions.DEFAULT, r -> all.addAll(Json.convert(
                requireList(r, "resourceTemplates", "resources/templates/list"), ListResourceTemplatesResult.class,
                "resources/templates/list result").resourceTemplates()));
        return all;
    }

    /**
     * Reads a resource ({@code resources/read}).
     *
     * @param uri the resource URI
     * @return the contents
     * @throws McpException         when the call fails (a missing resource is an {@link McpRpcException})
     * @throws InterruptedException if the calling thread is interrupted
     */
    public ReadResourceResult readResource(String uri) throws InterruptedException {
        return readResource(uri, RequestOptions.DEFAULT);
    }

    /**
     * Reads a resource with per-call options.
     *
     * @param uri     the resource URI
     * @param options timeout, token
     * @return the contents
     * @throws McpException         when the call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    public ReadResourceResult readResource(String uri, RequestOptions options) throws InterruptedException {
        Objects.requireNonNull(uri, "uri");
        return Json.convert(request("resources/read", Map.of("uri", uri), options), ReadResourceResult.class,
                "resources/read result");
    }

    /**
     * Subscribes to updates of a resource ({@code resources/subscribe}); updates arrive as
     * {@code notifications/resources/updated} to the notification listener and the drain queue.
     *
     * @param uri the resource URI
     * @throws McpException         when the call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    public void subscribe(String uri) throws InterruptedException {
        request("resources/subscribe", Map.of("uri", Objects.requireNonNull(uri, "uri")), RequestOptions.DEFAULT);
    }

    /**
     * Ends a subscription ({@code resources/unsubscribe}).
     *
     * @param uri the resource URI
     * @throws McpException         when the call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    public void unsubscribe(String uri) throws InterruptedException {
        request("resources/unsubscribe", Map.of("uri", Objects.requireNonNull(uri, "uri")), RequestOptions.DEFAULT);
    }

    // ------------------------------------------------------------------------------------------------ prompts

    /**
     * Reads one page of {@code prompts/list}.
     *
     * @param cursor the cursor, or {@code null}
     * @return the page
     * @throws McpException         when the call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    public ListPromptsResult listPrompts(String cursor) throws InterruptedException {
        return Json.convert(request("prompts/list", cursorParams(cursor), RequestOptions.DEFAULT),
                ListPromptsResult.class, "prompts/list result");
    }

    /**
     * Reads every page of {@code prompts/list}.
     *
     * @return the prompts
     * @throws McpException         when a call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    public List<Prompt> listAllPrompts() throws InterruptedException {
        List<Prompt> all = new ArrayList<>();
        forEachPage("prompts/list", RequestOptions.DEFAULT, r -> all.addAll(Json.convert(
                requireList(r, "prompts", "prompts/list"), ListPromptsResult.class, "prompts/list result").prompts()));
        return all;
    }

    /**
     * Renders a prompt ({@code prompts/get}).
     *
     * @param name      the prompt name
     * @param arguments the arguments (string values), or {@code null}
     * @return the rendered messages
     * @throws McpException         when the call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    public GetPromptResult getPrompt(String name, Map<String, String> arguments) throws InterruptedException {
        return getPrompt(name, arguments, RequestOptions.DEFAULT);
    }

    /**
     * Renders a prompt with per-call options.
     *
     * @param name      the prompt name
     * @param arguments the arguments, or {@code null}
     * @param options   timeout, token
     * @return the rendered messages
     * @throws McpException         when the call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    public GetPromptResult getPrompt(String name, Map<String, String> arguments, RequestOptions options)
            throws InterruptedException {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("name", Objects.requireNonNull(name, "name"));
        if (arguments != null) {
            params.put("arguments", arguments);
        }
        return Json.convert(request("prompts/get", params, options), GetPromptResult.class, "prompts/get result");
    }

    /**
     * Asks for argument completions ({@code completion/complete}, MCP "Completion").
     *
     * @param reference     the prompt or resource template the argument belongs to
     * @param argumentName  the argument's name
     * @param argumentValue what was typed so far
     * @param context       values of arguments already chosen ({@code context.arguments}), or {@code null}
     * @return the completion values
     * @throws McpException         when the call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    public CompleteResult complete(CompletionReference reference, String argumentName, String argumentValue,
                                   Map<String, String> context) throws InterruptedException {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("ref", Json.toPlain(Objects.requireNonNull(reference, "reference")));
        params.put("argument", Map.of("name", argumentName, "value", argumentValue));
        if (context != null && !context.isEmpty()) {
            params.put("context", Map.of("arguments", context));
        }
        return Json.convert(request("completion/complete", params, RequestOptions.DEFAULT), CompleteResult.class,
                "completion/complete result");
    }

    // ------------------------------------------------------------------------------------------------ engine

    private interface PageConsumer {
        void accept(Map<String, Object> result);
    }

    private void forEachPage(String method, RequestOptions options, PageConsumer consumer)
            throws InterruptedException {
        Set<String> seen = new HashSet<>();
        String cursor = null;
        for (int page = 1; ; page++) {
            if (page > maxListPages) {
                throw new McpProtocolException(method + ": more than " + maxListPages
                        + " pages; stopped (raise McpClient.Builder.maxListPages if the server really has that many)");
            }
            Map<String, Object> result = request(method, cursorParams(cursor), options);
            consumer.accept(result);
            Object next = result.get("nextCursor");
            if (next == null) {
                return;
            }
            if (!(next instanceof String s)) {
                throw new McpProtocolException(method + ": nextCursor is not a string");
            }
            if (!seen.add(s)) {
                throw new McpProtocolException(method + ": the server repeated a cursor on page " + (page + 1)
                        + "; stopped to avoid a loop");
            }
            cursor = s;
        }
    }

    private static Map<String, Object> requireList(Map<String, Object> result, String key, String method) {
        if (!(result.get(key) instanceof List)) {
            throw new McpProtocolException("malformed " + method + " result: \"" + key + "\" is "
                    + dev.loommcp.internal.json.JsonRpcCodec.kind(result.get(key)) + ", not an array");
        }
        return result;
    }

    private static Map<String, Object> cursorParams(String cursor) {
        return cursor == null ? null : Map.of("cursor", cursor);
    }

    /** The items of a list result as deeply unmodifiable copies (handles and the tool catalog share them). */
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> rawItems(Map<String, Object> result, String key) {
        Object items = result.get(key);
        List<Map<String, Object>> out = new ArrayList<>();
        if (items instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof Map<?, ?> m) {
                    out.add((Map<String, Object>) Json.deepUnmodifiable(m));
                }
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asObject(Object result, String method) {
        if (result instanceof Map<?, ?> m) {
            return (Map<String, Object>) m;
        }
        throw new McpProtocolException("result of " + method + " is "
                + dev.loommcp.internal.json.JsonRpcCodec.kind(result) + ", not an object");
    }

    private static Map<String, Object> mergeMeta(Map<String, Object> base, Map<String, Object> extra) {
        if (extra == null || extra.isEmpty()) {
            return base;
        }
        Map<String, Object> merged = new LinkedHashMap<>(base);
        merged.putAll(extra);
        return merged;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> withMeta(Map<String, Object> params, Map<String, Object> meta) {
        if (meta == null || meta.isEmpty()) {
            return params;
        }
        Map<String, Object> copy = params == null ? new LinkedHashMap<>() : new LinkedHashMap<>(params);
        Object existing = copy.get("_meta");
        Map<String, Object> m = existing instanceof Map<?, ?> e
                ? new LinkedHashMap<>((Map<String, Object>) e) : new LinkedHashMap<>();
        m.putAll(meta);
        copy.put("_meta", m);
        return copy;
    }

    private long deadlineOf(RequestOptions options, long now) {
        // the client default applies only when the call sets neither a timeout nor a deadline
        Duration timeout = options.timeoutValue() != null ? options.timeoutValue()
                : options.deadlineValue() != null ? null : requestTimeout;
        long deadline = timeout == null ? Long.MAX_VALUE : saturatedAdd(now, timeout);
        if (options.deadlineValue() != null) {
            deadline = Math.min(deadline, monotonic(options.deadlineValue(), now));
        }
        return deadline;
    }

    /** Converts a wall-clock deadline into a {@link System#nanoTime()} one, once, at the start of a call. */
    private static long monotonic(Instant deadline, long now) {
        Duration left = Duration.between(Instant.now(), deadline);
        return saturatedAdd(now, left.isNegative() ? Duration.ZERO : left);
    }

    private static long saturatedAdd(long now, Duration d) {
        long nanos;
        try {
            nanos = d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
        long sum = now + nanos;
        return ((now ^ sum) & (nanos ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }

    private void ensureConnected(String method) {
        State s = state;
        if (s == State.CONNECTED) {
            return;
        }
        if (s == State.CLOSED) {
            throw closedException(method);
        }
        throw new IllegalStateException(method + ": the client is not connected; call connect() first");
    }

    /**
     * Whether {@link #close()} closed the client (not a failed connect or the loss of the transport, whose own
     * exception tells more). A transport closed under a running call or connect may throw anything; the caller then
     * gets {@link McpClosedException}.
     */
    private boolean closedByOwner() {
        return state == State.CLOSED && closeCause == null; // closeCause is final once the state is CLOSED
    }

    /** The exception for a call that failed because {@link #close()} closed the client under it. */
    private McpClosedException closedInstead(String method, RuntimeException transportFailure) {
        if (transportFailure instanceof McpClosedException c) {
            return c;
        }
        McpClosedException e = new McpClosedException(method + " failed: the client was closed", null);
        e.addSuppressed(transportFailure);
        return e;
    }

    private McpClosedException closedException(String method) {
        Throwable cause = closeCause;
        return new McpClosedException(method + " refused: the client is closed"
                + (cause == null ? "" : " (" + cause.getMessage() + ")"), cause);
    }

    /** One request waiting for its response. */
    private static final class Pending {
        final long id;
        final String method;
        final long startNanos;
        final CompletableFuture<JsonRpcMessage> future = new CompletableFuture<>();
        volatile long lastProgressNanos;
        /** Set with the listener: carries the call's progress to the calling thread. */
        volatile ProgressRelay relay;
        /** Answered with an id such as {@code "7"}: the transport did not recognize the answer as this request's. */
        volatile boolean looselyMatched;

        Pending(long id, String method, long startNanos) {
            this.id = id;
            this.method = method;
            this.startNanos = startNanos;
            this.lastProgressNanos = startNanos;
        }
    }

    /** Completes a pending request when the caller's token fires. */
    private static final class CancelSignal extends RuntimeException {
        final String reason;

        CancelSignal(String reason) {
            super(reason, null, false, false);
            this.reason = reason;
        }
    }

    /** The per-send context handed to the transport. */
    private static final class Context implements SendContext {
        private final long deadline;
        private final RequestId id;
        private final ConcurrentLinkedQueue<Runnable> hooks = new ConcurrentLinkedQueue<>();
        private final AtomicBoolean cancelled = new AtomicBoolean();
        private volatile boolean completed;

        Context(long deadline, RequestId id) {
            this.deadline = deadline;
            this.id = id;
        }

        @Override
        public long deadlineNanos() {
            return deadline;
        }

        @Override
        public RequestId requestId() {
            return id;
        }

        @Override
        public void onCancel(Runnable action) {
            hooks.add(action);
            if (cancelled.get() && hooks.remove(action)) {
                UserCode.run(LOG, "a cancel action of the transport", action);
            }
        }

        @Override
        public boolean isCancelled() {
            return cancelled.get();
        }

        /** The response arrived: a later scope close must not abort the exchange or count as a cancel. */
        void markCompleted() {
            completed = true;
            hooks.clear();
        }

        void cancel() {
            if (completed) {
                return;
            }
            if (cancelled.compareAndSet(false, true)) {
                Runnable r;
                while ((r = hooks.poll()) != null) {
                    UserCode.run(LOG, "a cancel action of the transport", r);
                }
            }
        }
    }

    /**
     * Sends one request and waits for its response. The heart of the client: DESIGN.md section 3, "the life of a
     * call".
     */
    private Object call(String method, Map<String, Object> params, RequestOptions options, boolean handshake)
            throws InterruptedException {
        if (!handshake) {
            ensureConnected(method);
        } else if (state != State.CONNECTING) {
            throw closedException(method);
        }
        if (Thread.interrupted()) {
            throw new InterruptedException(method + " not sent: the thread was interrupted");
        }
        CancellationToken token = options.tokenValue();
        if (token != null && token.isCancelled()) {
            throw new McpCancelledException(method + " not sent: the token was already cancelled ("
                    + token.reason() + ")");
        }
        long start = System.nanoTime();
        long deadline = deadlineOf(options, start);
        long hardDeadline = deadline;
        long timeoutNanos = 0;
        if (options.resetTimeoutOnProgress()) {
            timeoutNanos = deadline - start;
            hardDeadline = Long.MAX_VALUE;
            if (options.deadlineValue() != null) {
                hardDeadline = Math.min(hardDeadline, monotonic(options.deadlineValue(), start));
            }
            if (options.maxTotalTimeout() != null) {
                hardDeadline = Math.min(hardDeadline, saturatedAdd(start, options.maxTotalTimeout()));
            }
        }
        long id = ids.incrementAndGet();
        RequestId requestId = RequestId.of(id);
        Pending p = new Pending(id, method, start);
        if (options.progressListener() != null) {
            p.relay = new ProgressRelay(options.progressListener(), p.future, listenerQueueCapacity,
                    listenerQueueBytes, droppedEvents);
            params = withMeta(params, Map.of("progressToken", id));
        }
        JsonRpcMessage.Request request = new JsonRpcMessage.Request(requestId, method, params);
        Context context = new Context(options.resetTimeoutOnProgress() ? hardDeadline : deadline, requestId);
        pending.put(id, p);
        if (state == State.CLOSED) {
            pending.remove(id);
            throw closedException(method);
        }
        CancellationToken.Registration registration = token == null ? null
                : token.onCancel(() -> p.future.completeExceptionally(new CancelSignal(token.reason())));
        RequestScope scope = null;
        String cancelReason = null;
        try {
            if (transport.sendsInline()) {
                try {
                    transport.send(request, context);
                } catch (RuntimeException e) {
                    throw closedByOwner() ? closedInstead(method, e) : e;
                }
            } else {
                scope = RequestScope.open("request", context.deadlineNanos(), null);
                scope.onCancel(context::cancel);
                scope.fork(() -> {
                    try {
                        transport.send(request, context);
                    } catch (Throwable t) {
                        if (!context.isCancelled()) {
                            p.future.completeExceptionally(t);
                        }
                    }
                    return null;
                });
            }
            JsonRpcMessage response;
            try {
                response = await(p, deadline, hardDeadline, timeoutNanos, options.resetTimeoutOnProgress());
            } catch (McpTimeoutException e) {
                cancelReason = "timeout";
                throw e;
            } catch (McpCancelledException e) {
                cancelReason = token != null && token.reason() != null ? token.reason() : "cancelled";
                throw e;
            } catch (InterruptedException e) {
                cancelReason = "interrupted";
                throw e;
            }
            if (scope != null) {
                if (p.looselyMatched) {
                    context.cancel(); // the transport still waits for the exact id it will never see: end it
                } else {
                    // let the exchange finish on its own (it returns once the response was delivered)
                    context.markCompleted();
                }
                scope.join();
            }
            return switch (response) {
                case JsonRpcMessage.Response r -> r.result();
                case JsonRpcMessage.ErrorResponse e -> throw new McpRpcException(method, requestId, e.error());
                default -> throw new McpProtocolException("unexpected answer to " + method);
            };
        } finally {
            pending.remove(id);
            if (p.relay != null) {
                p.relay.close();
            }
            if (registration != null) {
                registration.close();
            }
            if (scope != null) {
                scope.close();
            }
            if (cancelReason != null && !handshake && state == State.CONNECTED) {
                sendCancelled(requestId, method, cancelReason);
            }
        }
    }

    private JsonRpcMessage await(Pending p, long deadline, long hardDeadline, long timeoutNanos, boolean reset)
            throws InterruptedException {
        while (true) {
            long effective = reset ? Math.min(saturatedAdd(p.lastProgressNanos, Duration.ofNanos(timeoutNanos)),
                    hardDeadline) : deadline;
            long left = effective == Long.MAX_VALUE ? Long.MAX_VALUE : effective - System.nanoTime();
            if (left <= 0) {
                throw new McpTimeoutException(p.method + " (id " + p.id + ") timed out: no response within "
                        + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - p.startNanos) + " ms");
            }
            try {
                ProgressRelay relay = p.relay;
                if (relay != null) {
                    return relay.await(p.future, left); // runs the progress listener on this thread meanwhile
                }
                return left == Long.MAX_VALUE ? p.future.get() : p.future.get(left, TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                // loop: progress may have moved the deadline
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof CancelSignal c) {
                    throw new McpCancelledException(p.method + " (id " + p.id + ") cancelled: " + c.reason);
                }
                if (cause instanceof McpClosedException closed) {
                    throw new McpClosedException(p.method + " (id " + p.id + ") failed: the client was closed",
                            closed.getCause());
                }
                if (cause instanceof McpException m) {
                    throw m;
                }
                if (cause instanceof InterruptedException ie) {
                    throw ie;
                }
                if (cause instanceof IllegalArgumentException iae) {
                    throw new IllegalArgumentException(iae.getMessage(), iae); // params that are not plain JSON
                }
                throw new McpTransportException(p.method + " (id " + p.id + ") could not be sent: " + cause, cause);
            }
        }
    }

    private void sendCancelled(RequestId id, String method, String reason) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("requestId", id.value());
        params.put("reason", reason);
        JsonRpcMessage.Notification n = new JsonRpcMessage.Notification("notifications/cancelled", params);
        Runnable send = () -> {
            try {
                transport.send(n, new Context(System.nanoTime() + TimeUnit.SECONDS.toNanos(5), id));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, () -> "notifications/cancelled for " + method + " (id " + id
                        + ") not sent: " + e.getMessage());
            }
        };
        if (transport.sendsInline()) {
            send.run();
        } else {
            // tracked apart from the other background threads: close() lets a cancellation go out before it closes
            // the transport (a call abandoned just before close, as on Ctrl+C, must still be cancelled on the wire)
            startBackground("cancel", send);
        }
    }

    private void startBackground(String purpose, Runnable task) {
        if (state == State.CLOSED && !purpose.equals("closer")) {
            return;
        }
        boolean cancel = purpose.equals("cancel");
        Thread[] self = new Thread[1];
        Thread t = McpThreads.newThread(purpose, () -> {
            try {
                task.run();
            } finally {
                background.remove(self[0]);
                if (cancel) {
                    cancelSenders.remove(self[0]);
                }
            }
        });
        self[0] = t;
        background.add(t);
        if (cancel) {
            cancelSenders.add(t); // before start: a close() right after this call must see it
        }
        t.start(); // even if the client closed meanwhile: the task then fails fast, and nothing is left unstarted
    }

    private interface AsyncCall<T> {
        T run(RequestOptions options) throws Exception;
    }

    /** A future whose {@code cancel} fires the call's token, which cancels the request on the wire. */
    private static final class CancellableFuture<T> extends CompletableFuture<T> {
        private final CancellationToken token;

        CancellableFuture(CancellationToken token) {
            this.token = token;
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean done = super.cancel(mayInterruptIfRunning);
            token.cancel("cancelled through its future");
            return done;
        }
    }

    private <T> CompletableFuture<T> async(RequestOptions options, AsyncCall<T> call) {
        Objects.requireNonNull(options, "options (use RequestOptions.DEFAULT)");
        CancellationToken token = CancellationToken.create();
        CancellationToken outer = options.tokenValue();
        CancellationToken.Registration link = outer == null ? null : outer.onCancel(() -> token.cancel(outer.reason()));
        CancellableFuture<T> future = new CancellableFuture<>(token);
        if (link != null) {
            // however the future ends (result, failure, cancel, a closed client that never ran the task), the
            // caller's token keeps nothing of this call
            future.whenComplete((r, e) -> link.close());
        }
        try {
            RequestOptions withToken = options.toBuilder().token(token).build();
            startBackground("async", () -> {
                try {
                    future.complete(call.run(withToken));
                } catch (Throwable e) {
                    future.completeExceptionally(e);
                }
            });
        } catch (RuntimeException | Error e) {
            future.completeExceptionally(e); // the thread could not be started
        }
        if (isClosed() && !future.isDone()) {
            future.completeExceptionally(closedException("async call"));
        }
        return future;
    }

    // ------------------------------------------------------------------------------------------------ inbound

    private final class Sink implements TransportSink {
        @Override
        public void onMessage(JsonRpcMessage message) {
            try {
                switch (message) {
                    case JsonRpcMessage.Response r -> complete(r.id(), r);
                    case JsonRpcMessage.ErrorResponse e -> {
                        if (e.id() == null) {
                            LOG.log(System.Logger.Level.WARNING, () -> "server " + transport.describe()
                                    + " sent a JSON-RPC error without id: code " + e.error().code());
                        } else {
                            complete(e.id(), e);
                        }
                    }
                    case JsonRpcMessage.Notification n -> onNotification(n);
                    case JsonRpcMessage.Request r -> onServerRequest(r);
                }
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "failed to handle an inbound message", e);
            }
        }

        @Override
        public void onSkipped(String problem) {
            LOG.log(System.Logger.Level.DEBUG, () -> "skipped inbound input: " + problem);
        }

        @Override
        public void onClosed(McpTransportException cause) {
            for (Pending p : pending.values()) {
                p.future.completeExceptionally(cause);
            }
            if (markClosed(cause)) {
                // closing the transport and joining threads must not run on the transport's own thread
                startBackground("closer", McpClient.this::release);
            }
        }

        @Override
        public void onSessionRestarted() {
            tools.markStale(); // the new session may list other tools: no check against the old definitions
            if (sessionRestartedListener != null) {
                dispatch(sessionRestartedListener);
            }
        }
    }

    private void complete(RequestId id, JsonRpcMessage message) {
        Pending p = id instanceof RequestId.NumberId n ? pending.get(n.number()) : looselyPending(id);
        if (p == null) {
            LOG.log(System.Logger.Level.DEBUG, () -> "dropped a response for request " + id
                    + " that is no longer pending");
            return;
        }
        p.future.complete(message);
    }

    /** A response id such as {@code "7"} or {@code 7.0} that equals exactly one pending request's id. */
    private Pending looselyPending(RequestId id) {
        Long loose = dev.loommcp.internal.json.Ids.looseInteger(id);
        Pending p = loose == null ? null : pending.get(loose);
        if (p != null) {
            p.looselyMatched = true;
        }
        if (p != null && looseIdWarned.compareAndSet(false, true)) {
            LOG.log(System.Logger.Level.WARNING, () -> "server " + transport.describe() + " answered request " + loose
                    + " with id " + id + " (not the integer sent); matched it, as for every such answer later");
        }
        return p;
    }

    private void onNotification(JsonRpcMessage.Notification n) {
        switch (n.method()) {
            case "notifications/progress" -> {
                Object token = n.params() == null ? null : n.params().get("progressToken");
                Long exact = dev.loommcp.internal.json.Ids.exactInteger(token);
                Pending p = exact == null ? null : pending.get(exact);
                if (p == null) {
                    return;
                }
                p.lastProgressNanos = System.nanoTime();
                ProgressRelay relay = p.relay;
                if (relay != null) {
                    ProgressNotification progress = Json.convert(n.params(), ProgressNotification.class,
                            "notifications/progress");
                    relay.offer(progress, JsonSize.ofMessage(n.method(), n.params()));
                }
                return;
            }
            case "notifications/cancelled" -> {
                Object rid = n.params() == null ? null : n.params().get("requestId");
                RequestId id = dev.loommcp.internal.json.Ids.exactId(rid);
                if (id != null) {
                    cancelledInbound.add(id);
                    Thread handler = inboundHandlers.get(id);
                    if (handler != null) {
                        handler.interrupt();
                    } else {
                        cancelledInbound.remove(id);
                    }
                }
                return;
            }
            case "notifications/tools/list_changed" -> {
                tools.markStale();
                if (toolListChangedListener != null) {
                    dispatch(toolListChangedListener);
                }
            }
            case "notifications/message" -> {
                if (loggingListener != null && n.params() != null) {
                    try {
                        LoggingMessageNotification m = Json.convert(n.params(), LoggingMessageNotification.class,
                                "notifications/message");
                        dispatch(() -> loggingListener.accept(m), JsonSize.ofMessage(n.method(), n.params()));
                    } catch (McpProtocolException e) {
                        LOG.log(System.Logger.Level.WARNING, () -> "server " + transport.describe()
                                + " sent a malformed log message: " + e.getMessage());
                    }
                }
            }
            default -> {
                // queued and passed to the general listener below
            }
        }
        if (drainQueue == null && notificationListener == null) {
            return;
        }
        long bytes = JsonSize.ofMessage(n.method(), n.params());
        if (drainQueue != null) {
            drainQueue.offer(n, bytes);
        }
        if (notificationListener != null) {
            dispatch(() -> notificationListener.onNotification(n), bytes);
        }
    }

    private void dispatch(Runnable r) {
        dispatch(r, SMALL_EVENT_BYTES);
    }

    private void dispatch(Runnable r, long bytes) {
        if (state == State.CLOSED) {
            return;
        }
        int dropped = events.offer(r, bytes);
        if (dropped > 0) {
            // listeners fell far behind a flood of notifications: drop the oldest rather than grow without bound
            long total = droppedEvents.get();
            if (total == dropped || (total - dropped) / 10_000 != total / 10_000) {
                LOG.log(System.Logger.Level.WARNING, () -> "listeners of the client for " + transport.describe()
                        + " fell behind (more than " + listenerQueueCapacity + " events or " + listenerQueueBytes
                        + " bytes queued); " + total + " events dropped so far");
            }
        }
    }

    private void startEventThread() {
        eventThread = McpThreads.start("events", () -> {
            while (state != State.CLOSED) {
                Runnable r;
                try {
                    r = events.take();
                } catch (InterruptedException e) {
                    if (state == State.CLOSED) {
                        return;
                    }
                    continue;
                }
                try {
                    r.run();
                } catch (Throwable t) {
                    // Errors included: a failing listener must not end the loop for the others
                    UserCode.failed(LOG, "a listener of the client for " + transport.describe(), t);
                }
                Thread.interrupted(); // a listener's stray interrupt must not end the loop
            }
        });
    }

    private void onServerRequest(JsonRpcMessage.Request r) {
        if ("ping".equals(r.method())) {
            respond(r.id(), Map.of(), null, true);
            return;
        }
        if (state == State.CLOSED) {
            return;
        }
        if (!handlerPermits.tryAcquire()) {
            refuseServerRequest(r);
            return;
        }
        Thread[] self = new Thread[1];
        try {
            Thread t = McpThreads.newThread("handler", () -> {
                try {
                    runHandler(r);
                } finally {
                    inboundHandlers.remove(r.id(), self[0]);
                    cancelledInbound.remove(r.id());
                    handlerPermits.release();
                }
            });
            self[0] = t;
            inboundHandlers.put(r.id(), t);
            t.start(); // a client closing meanwhile interrupts it through inboundHandlers or it answers nothing
        } catch (RuntimeException | Error e) {
            if (self[0] != null) {
                inboundHandlers.remove(r.id(), self[0]);
            }
            handlerPermits.release(); // the thread never ran: its permit is back
            throw e;
        }
    }

    /** Answers at once a server request beyond {@link Builder#maxConcurrentServerRequests}. */
    private void refuseServerRequest(JsonRpcMessage.Request r) {
        long refused = refusedServerRequests.incrementAndGet();
        if (refused == 1 || refused % 1000 == 0) {
            LOG.log(System.Logger.Level.WARNING, () -> "server " + transport.describe() + " has more than "
                    + maxConcurrentServerRequests + " requests to this client running at once; " + refused
                    + " refused with an error so far");
        }
        respond(r.id(), null, JsonRpcError.of(JsonRpcError.INTERNAL_ERROR, "client busy: more than "
                + maxConcurrentServerRequests + " server requests are already running; " + r.method()
                + " refused"), true);
    }

    private void runHandler(JsonRpcMessage.Request r) {
        Object result;
        boolean needsParams = r.method().equals("elicitation/create") || r.method().equals("sampling/createMessage");
        if (needsParams && r.params() == null
                && (r.method().equals("elicitation/create") ? elicitationHandler : samplingHandler) != null) {
            respond(r.id(), null, JsonRpcError.of(JsonRpcError.INVALID_PARAMS, r.method() + " without params"), false);
            return;
        }
        try {
            result = switch (r.method()) {
                case "roots/list" -> rootsHandler == null ? null : Map.of("roots", Json.toPlain(rootsList()));
                case "elicitation/create" -> elicitationHandler == null ? null : Json.toPlain(elicit(r));
                case "sampling/createMessage" -> samplingHandler == null ? null : Json.toPlain(
                        samplingHandler.createMessage(Json.convert(r.params(), CreateMessageRequest.class,
                                "sampling/createMessage params")));
                default -> null;
            };
            if (result == null) {
                respond(r.id(), null, JsonRpcError.of(JsonRpcError.METHOD_NOT_FOUND,
                        "method not supported by this client: " + r.method()), false);
                return;
            }
        } catch (McpProtocolException e) {
            respond(r.id(), null, JsonRpcError.of(JsonRpcError.INVALID_PARAMS, e.getMessage()), false);
            return;
        } catch (Throwable e) {
            // any Throwable, Errors and a handler's own InterruptedException included: the request is always
            // answered; respond() sends nothing when the server cancelled it or the client closed (the interrupts)
            if (e instanceof InterruptedException) {
                LOG.log(System.Logger.Level.DEBUG, () -> r.method() + " (id " + r.id() + ") handler interrupted");
            } else {
                UserCode.failed(LOG, "the client handler for " + r.method(), e);
            }
            respond(r.id(), null, JsonRpcError.of(JsonRpcError.INTERNAL_ERROR, "client handler for " + r.method()
                    + " failed: " + e.getClass().getSimpleName()), false);
            return;
        }
        respond(r.id(), result, null, false);
    }

    private List<Root> rootsList() throws Exception {
        List<Root> roots = rootsHandler.listRoots();
        return roots == null ? List.of() : roots;
    }

    private ElicitResult elicit(JsonRpcMessage.Request r) throws Exception {
        ElicitRequest request = Json.convert(r.params(), ElicitRequest.class, "elicitation/create params");
        if (request.isUrlMode() && !elicitationUrlMode) {
            throw new McpProtocolException("URL-mode elicitation was not declared by this client");
        }
        ElicitResult result = elicitationHandler.elicit(request);
        if (result == null) {
            return ElicitResult.decline();
        }
        if (applyElicitationDefaults && !request.isUrlMode() && "accept".equals(result.action())) {
            return new ElicitResult(result.action(), request.applyDefaults(result.content()), result.meta());
        }
        return result;
    }

    private void respond(RequestId id, Object result, JsonRpcError error, boolean fromReader) {
        if (cancelledInbound.contains(id) || state == State.CLOSED) {
            return;
        }
        JsonRpcMessage m = error == null ? new JsonRpcMessage.Response(id, result)
                : new JsonRpcMessage.ErrorResponse(id, error);
        Runnable send = () -> {
            try {
                transport.send(m, new Context(deadlineOf(RequestOptions.DEFAULT, System.nanoTime()), id));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, () -> "answer to server request " + id + " not sent: " + e);
            }
        };
        if (fromReader && !transport.sendsInline()) {
            if (!responderPermits.tryAcquire()) {
                // as many answers as the bound are still being sent: the server takes none of them
                long dropped = droppedAnswers.incrementAndGet();
                if (dropped == 1 || dropped % 1000 == 0) {
                    LOG.log(System.Logger.Level.WARNING, () -> "server " + transport.describe() + " takes no answers: "
                            + maxConcurrentServerRequests + " are still being sent; " + dropped
                            + " answers to its requests dropped so far");
                }
                return;
            }
            startBackground("respond", () -> {
                try {
                    send.run();
                } finally {
                    responderPermits.release();
                }
            });
        } else {
            send.run();
        }
    }

    // ------------------------------------------------------------------------------------------------ shutdown

    private void shutdown(Throwable cause) {
        if (markClosed(cause)) {
            release();
        }
    }

    /** Moves the client to CLOSED; returns whether this call did it (exactly one caller gets {@code true}). */
    private boolean markClosed(Throwable cause) {
        stateLock.lock();
        try {
            if (state == State.CLOSED) {
                return false;
            }
            closeCause = cause; // before the state: closedByOwner() reads them without the lock
            state = State.CLOSED;
            return true;
        } finally {
            stateLock.unlock();
        }
    }

    /** Releases everything of a client just marked closed: pending calls, handlers, transport, threads. */
    private void release() {
        // an interrupted closer (a task cancelled with Future.cancel(true)) still closes the transport and waits
        // within the bound; the interrupt is re-asserted at the end
        boolean interrupted = Thread.interrupted();
        Throwable cause = closeCause;
        McpClosedException closed = new McpClosedException("the client was closed", cause);
        for (Pending p : pending.values()) {
            p.future.completeExceptionally(closed);
        }
        Thread self = Thread.currentThread();
        for (Thread t : inboundHandlers.values()) {
            if (t != self) {
                t.interrupt();
            }
        }
        // a notifications/cancelled already on its way goes out before the transport closes (bounded: its own send
        // deadline is 5 s, the wait here 2 s); a closer that is itself the sender does not wait for itself
        List<Thread> senders = new ArrayList<>(cancelSenders);
        senders.remove(self);
        interrupted |= Joins.joinAll(senders, System.nanoTime() + CANCEL_FLUSH_NANOS);
        try {
            transport.close();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "closing the transport failed", e);
        }
        Thread events = eventThread;
        if (events != null && events != self) {
            events.interrupt();
        }
        List<Thread> toJoin = new ArrayList<>();
        if (events != null) {
            toJoin.add(events);
        }
        toJoin.addAll(inboundHandlers.values());
        toJoin.addAll(background);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        for (Thread t : toJoin) {
            if (t != self) {
                t.interrupt();
            }
        }
        interrupted |= Joins.joinAll(toJoin, end);
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "McpClient[" + transport.describe() + ", " + state.name().toLowerCase(java.util.Locale.ROOT) + "]";
    }

    // ------------------------------------------------------------------------------------------------ builder

    /**
     * Builds an {@link McpClient}. Not thread-safe; {@link #build()} may be called once per transport.
     */
    public static final class Builder {
        private final McpTransport transport;
        private Implementation clientInfo = Implementation.of("loom-mcp", "0.1.0");
        private Duration requestTimeout = Duration.ofSeconds(60);
        private Duration connectTimeout = Duration.ofSeconds(30);
        private ElicitationHandler elicitationHandler;
        private boolean elicitationUrlMode = true;
        private boolean applyElicitationDefaults;
        private SamplingHandler samplingHandler;
        private RootsHandler rootsHandler;
        private NotificationListener notificationListener;
        private Runnable toolListChangedListener;
        private Consumer<LoggingMessageNotification> loggingListener;
        private Runnable sessionRestartedListener;
        private OutputSchemaValidation outputSchemaValidation = OutputSchemaValidation.WARN;
        private int maxListPages = 1000;
        private int notificationQueueCapacity = 1024;
        private int maxConcurrentServerRequests = DEFAULT_MAX_CONCURRENT_SERVER_REQUESTS;
        private long notificationQueueBytes = 16L << 20;
        private boolean keepNotifications;
        private int listenerQueueCapacity = 65_536;
        private long listenerQueueBytes = 32L << 20;

        private Builder(McpTransport transport) {
            this.transport = Objects.requireNonNull(transport, "transport");
        }

        /**
         * Sets the client identity sent in {@code initialize}. Default: name {@code loom-mcp}, version
         * {@code 0.1.0}.
         *
         * @param info the identity
         * @return this builder
         */
        public Builder clientInfo(Implementation info) {
            this.clientInfo = Objects.requireNonNull(info, "info");
            return this;
        }

        /**
         * Sets the default timeout of each request (used when the call's options set neither timeout nor
         * deadline). Default 60 seconds.
         *
         * @param timeout positive duration
         * @return this builder
         * @throws IllegalArgumentException if not positive
         */
        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = positive(timeout, "requestTimeout");
            return this;
        }

        /**
         * Sets the default bound of {@link McpClient#connect()}: opening the transport plus the handshake. Default 30
         * seconds.
         *
         * @param timeout positive duration
         * @return this builder
         * @throws IllegalArgumentException if not positive
         */
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = positive(timeout, "connectTimeout");
            return this;
        }

        /**
         * Answers {@code elicitation/create} with this handler and declares the {@code elicitation} capability with
         * form and URL modes.
         *
         * @param handler the handler
         * @return this builder
         */
        public Builder elicitationHandler(ElicitationHandler handler) {
            return elicitationHandler(handler, true);
        }

        /**
         * Answers {@code elicitation/create} with this handler and declares the {@code elicitation} capability: form
         * mode always, URL mode when asked.
         *
         * @param handler the handler
         * @param urlMode whether to declare URL mode (MCP 2025-11-25)
         * @return this builder
         */
        public Builder elicitationHandler(ElicitationHandler handler, boolean urlMode) {
            this.elicitationHandler = Objects.requireNonNull(handler, "handler");
            this.elicitationUrlMode = urlMode;
            return this;
        }

        /**
         * When {@code true}, an accepted form-mode elicitation gets every schema property that has a {@code default}
         * and is missing from the handler's content filled in (MCP 2025-11-25, SEP-1034). Default {@code false}.
         *
         * @param apply whether to fill in defaults
         * @return this builder
         */
        public Builder applyElicitationDefaults(boolean apply) {
            this.applyElicitationDefaults = apply;
            return this;
        }

        /**
         * Answers {@code sampling/createMessage} with this handler and declares the {@code sampling} capability.
         *
         * @param handler the handler
         * @return this builder
         */
        public Builder samplingHandler(SamplingHandler handler) {
            this.samplingHandler = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /**
         * Answers {@code roots/list} with this handler and declares the {@code roots} capability with
         * {@code listChanged}.
         *
         * @param handler the handler
         * @return this builder
         */
        public Builder rootsHandler(RootsHandler handler) {
            this.rootsHandler = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /**
         * Sets a listener for every server notification except progress and cancellation.
         *
         * @param listener the listener
         * @return this builder
         */
        public Builder notificationListener(NotificationListener listener) {
            this.notificationListener = listener;
            return this;
        }

        /**
         * Sets a listener for {@code notifications/tools/list_changed} (the seeds' tool-list-changed handler). Until
         * the tools are listed again, output-schema checks are skipped for the stale definitions.
         *
         * @param listener the listener
         * @return this builder
         */
        public Builder toolListChangedListener(Runnable listener) {
            this.toolListChangedListener = listener;
            return this;
        }

        /**
         * Sets a listener for {@code notifications/message} (server log messages; see
         * {@link McpClient#setLoggingLevel}).
         *
         * @param listener the listener
         * @return this builder
         */
        public Builder loggingListener(Consumer<LoggingMessageNotification> listener) {
            this.loggingListener = listener;
            return this;
        }

        /**
         * Sets a listener told when the transport replaced its session with a new one (Streamable HTTP: the server
         * forgot the session and the handshake was replayed). Subscriptions of the old session are gone.
         *
         * @param listener the listener
         * @return this builder
         */
        public Builder sessionRestartedListener(Runnable listener) {
            this.sessionRestartedListener = listener;
            return this;
        }

        /**
         * Sets what happens when {@code structuredContent} fails the tool's {@code outputSchema}. Default
         * {@link OutputSchemaValidation#WARN}.
         *
         * @param mode the mode
         * @return this builder
         */
        public Builder outputSchemaValidation(OutputSchemaValidation mode) {
            this.outputSchemaValidation = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /**
         * Sets the most pages a complete listing ({@code listAll...}, {@code tools()}) reads before it stops with
         * {@link McpProtocolException}. Default 1000.
         *
         * @param pages at least 1
         * @return this builder
         * @throws IllegalArgumentException if less than 1
         */
        public Builder maxListPages(int pages) {
            if (pages < 1) {
                throw new IllegalArgumentException("maxListPages must be at least 1: " + pages);
            }
            this.maxListPages = pages;
            return this;
        }

        /**
         * Keeps server notifications for {@link McpClient#drainNotifications()}. Default {@code false}: nothing is
         * kept (listeners still get every notification).
         *
         * @param keep whether to keep them
         * @return this builder
         */
        public Builder keepNotifications(boolean keep) {
            this.keepNotifications = keep;
            return this;
        }

        /**
         * Sets the most bytes of notifications {@link McpClient#drainNotifications()} keeps (when
         * {@linkplain #keepNotifications(boolean) keeping}); beyond it the oldest are dropped. A notification counts
         * with its size as JSON text (estimated from the parsed message); its heap is about that for text-heavy
         * payloads and up to a few times more for payloads of many small values. The newest notification is always
         * kept, even alone above the budget. Default 16 MiB.
         *
         * @param bytes at least 1
         * @return this builder
         * @throws IllegalArgumentException if less than 1
         */
        public Builder notificationQueueBytes(long bytes) {
            this.notificationQueueBytes = atLeastOne(bytes, "notificationQueueBytes");
            return this;
        }

        /**
         * Sets how many events may wait for the listeners (notification, logging, list-changed and session
         * listeners, which run one at a time on the event thread); beyond it the oldest are dropped and counted
         * ({@link McpClient#droppedEventCount()}). Each call's progress notifications wait in a queue of their own
         * with the same bounds. Default 65,536.
         *
         * @param capacity at least 1
         * @return this builder
         * @throws IllegalArgumentException if less than 1
         */
        public Builder listenerQueueCapacity(int capacity) {
            this.listenerQueueCapacity = (int) atLeastOne(capacity, "listenerQueueCapacity");
            return this;
        }

        /**
         * Sets the most bytes of notifications that may wait for the listeners (counted as for
         * {@link #notificationQueueBytes(long)}); beyond it the oldest events are dropped and counted
         * ({@link McpClient#droppedEventCount()}). Each call's progress queue has the same budget. Default 32 MiB.
         *
         * @param bytes at least 1
         * @return this builder
         * @throws IllegalArgumentException if less than 1
         */
        public Builder listenerQueueBytes(long bytes) {
            this.listenerQueueBytes = atLeastOne(bytes, "listenerQueueBytes");
            return this;
        }

        private static long atLeastOne(long value, String what) {
            if (value < 1) {
                throw new IllegalArgumentException(what + " must be at least 1: " + value);
            }
            return value;
        }

        /**
         * Sets how many notifications {@link McpClient#drainNotifications()} keeps (when
         * {@linkplain #keepNotifications(boolean) keeping}); beyond it the oldest are dropped. Default 1024.
         *
         * @param capacity at least 1
         * @return this builder
         * @throws IllegalArgumentException if less than 1
         */
        public Builder notificationQueueCapacity(int capacity) {
            if (capacity < 1) {
                throw new IllegalArgumentException("notificationQueueCapacity must be at least 1: " + capacity);
            }
            this.notificationQueueCapacity = capacity;
            return this;
        }

        /**
         * Sets how many requests from the server ({@code roots/list}, {@code sampling/createMessage},
         * {@code elicitation/create}; also unknown methods, which a handler thread answers "method not found"; not
         * {@code ping}) may run their handler at the same time, each on its own virtual thread. A request beyond the
         * bound is answered at once with a JSON-RPC error {@code -32603} ("client busy") and no thread is started for
         * it; the refusals are logged at {@code WARNING} (the first and every 1000th). The same bound limits how many
         * answers a transport that sends off the caller's thread (Streamable HTTP) sends at once from the reader side
         * (pings and refusals); an answer beyond that is dropped and logged the same way. {@link McpClient#close()}
         * interrupts running handlers and waits for them within its bound. Default
         * {@value McpClient#DEFAULT_MAX_CONCURRENT_SERVER_REQUESTS}.
         *
         * @param max at least 1
         * @return this builder
         * @throws IllegalArgumentException if less than 1
         */
        public Builder maxConcurrentServerRequests(int max) {
            if (max < 1) {
                throw new IllegalArgumentException("maxConcurrentServerRequests must be at least 1: " + max);
            }
            this.maxConcurrentServerRequests = max;
            return this;
        }

        /**
         * Builds the client. Nothing is started until {@link McpClient#connect()}.
         *
         * @return the client
         */
        public McpClient build() {
            return new McpClient(this);
        }

        private static Duration positive(Duration d, String what) {
            Objects.requireNonNull(d, what);
            if (d.isZero() || d.isNegative()) {
                throw new IllegalArgumentException(what + " must be positive: " + d);
            }
            return d;
        }
    }
}
