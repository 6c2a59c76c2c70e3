package dev.loommcp.internal.session;

import dev.loommcp.CancellationToken;
import dev.loommcp.config.Era;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpRpcException;
import dev.loommcp.McpTaskNotFoundException;
import dev.loommcp.RequestOptions;
import dev.loommcp.event.Subscription;
import dev.loommcp.event.SubscriptionListener;
import dev.loommcp.internal.concurrent.UserCode;
import dev.loommcp.internal.json.JsonRpcCodec;
import dev.loommcp.internal.json.JsonSize;
import dev.loommcp.internal.session.base.Deadlines;
import dev.loommcp.internal.session.base.EventLoop;
import dev.loommcp.internal.session.config.SessionConfig;
import dev.loommcp.internal.session.subscriptions.Subscriptions;
import dev.loommcp.internal.session.tools.ToolCatalog;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.ServerCapabilities;
import dev.loommcp.Deadline;
import dev.loommcp.spi.TaskChannel;
import dev.loommcp.spi.TaskSupport;
import dev.loommcp.spi.TransportThreads;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The core's side of tasks (MODERN-ERA.md C.5 and C.6), the tasks seam: the {@link TaskChannel} a
 * {@link TaskSupport} is bound to, and what tasks change in a {@code tools/call} that {@link ToolCalls} composes. A
 * plain call of a legacy tool whose {@code execution.taskSupport} is
 * {@code required} on a server declaring {@code capabilities.tasks.requests.tools.call} is augmented with
 * {@code task: {ttl}}; a call answered with a task (modern {@code resultType: "task"}, legacy {@code {"task": ...}}
 * to an augmented call) is checked and handed to {@link TaskSupport#awaitToolResult} on the caller's thread, and its
 * final result decoded and screened like any result. Also: the {@code -32602} mapping of {@code tasks/*} requests,
 * the listeners of {@link #onNotification}, and the close token. The extension's declaration itself is the
 * {@link Envelope}'s, the {@code resultType} rules are {@link ModernRequests}'. Thread-safe.
 */
final class TaskBridge implements TaskChannel {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");

    /** The requests whose {@code -32602} means an unknown or expired task (C.5.11, C.6.10). */
    private static final Set<String> TASK_LOOKUPS = Set.of("tasks/get", "tasks/update", "tasks/cancel",
            "tasks/result");
    /** The JSON-RPC code of invalid params, which servers answer for an unknown or expired task. */
    private static final int INVALID_PARAMS = -32602;
    private static final String TASK_NOTIFICATION = "notifications/tasks";

    /** The tool calls the channel makes for the task support: {@link ToolCalls}'. */
    interface Tools {
        /** {@link TaskChannel#callTool}. */
        Map<String, Object> callTool(String name, Map<String, Object> arguments, Map<String, Object> legacyTask,
                                     RequestOptions options) throws InterruptedException;

        /** {@link TaskChannel#toolResult}. */
        CallToolResult toolResult(String name, Map<String, Object> result);
    }

    /** What the bridge needs of the session: the connection's facts and its requests. */
    interface Host {
        /** The connection's era, {@code null} before connect. */
        Era era();

        /** The server's capabilities, {@code null} before connect. */
        ServerCapabilities serverCapabilities();

        /** The protocol version in use, {@code null} before connect. */
        String protocolVersion();

        /** A request with the options' {@code _meta}; the {@code -32602} of a task lookup typed. */
        Map<String, Object> request(String method, Map<String, Object> params, RequestOptions options)
                throws InterruptedException;
    }

    private final Host session;
    private final ClientLife life;
    private final EventLoop events;
    private final Subscriptions subscriptions;
    private final SessionConfig config;
    private final ToolCatalog tools;
    private final InputRounds inputRounds;
    private final HeaderRoutedCalls headerRouting;
    private final TaskSupport support;
    /** The tool calls of the channel, bound once after construction ({@link #bind}). */
    private volatile Tools toolCalls;
    private final CancellationToken closeToken = CancellationToken.create();
    private final ConcurrentHashMap<String, List<Consumer<Map<String, Object>>>> listeners =
            new ConcurrentHashMap<>();
    /** The task driver's threads: forks of the client's own scope (cancelled and awaited at close). */
    private final TransportThreads threads;

    TaskBridge(Host session, ClientLife life, EventLoop events, Subscriptions subscriptions, SessionConfig config,
               ToolCatalog tools, InputRounds inputRounds, HeaderRoutedCalls headerRouting) {
        this.session = session;
        this.life = life;
        this.events = events;
        this.subscriptions = subscriptions;
        this.threads = new ScopedThreads(life.work());
        this.config = config;
        this.tools = tools;
        this.inputRounds = inputRounds;
        this.headerRouting = headerRouting;
        this.support = config.taskSupport();
    }

    /** Binds the tool calls the channel makes; once, right after construction. */
    void bind(Tools tools) {
        this.toolCalls = tools;
    }

    // ------------------------------------------------------------------------------------------------ tools/call

    /**
     * The {@code task} a plain {@code tools/call} of {@code name} is augmented with (a legacy tool that must run as a
     * task, with a task support installed), or {@code null}.
     */
    Map<String, Object> requiredTask(String name, RequestOptions options, Deadline deadline)
            throws InterruptedException {
        return support != null && legacyAugment(name, true, options, deadline) ? legacyTask(support.legacyTtl())
                : null;
    }

    /**
     * Drives a {@code tools/call} answered with a task to its final result through the installed task support, within
     * what is left of the call's deadline.
     *
     * @throws McpProtocolException if no task support is installed
     */
    Map<String, Object> awaitToolResult(String name, Map<String, Object> raw, RequestOptions options,
                                        Deadline deadline) throws InterruptedException {
        if (support == null) { // unreachable: ModernRequests refuses a task without the extension
            throw new McpProtocolException("tools/call of tool '" + name + "' answered with a task, but this "
                    + "client has no TaskSupport");
        }
        return support.awaitToolResult(name, raw, rest(options, deadline));
    }

    @Override
    public Map<String, Object> callTool(String name, Map<String, Object> arguments, Map<String, Object> legacyTask,
                                        RequestOptions options) throws InterruptedException {
        return toolCalls.callTool(name, arguments, legacyTask, options);
    }

    @Override
    public CallToolResult toolResult(String name, Map<String, Object> result) {
        return toolCalls.toolResult(name, result);
    }

    /**
     * Whether a legacy call is augmented with {@code task} (C.6.1, C.6.2): the server declares
     * {@code capabilities.tasks.requests.tools.call}, and the tool's {@code execution.taskSupport} is
     * {@code required} (or, unless {@code requiredOnly}, {@code optional}). A tool no listing described is looked up
     * with one listing first. Never in the modern era, where the server decides.
     */
    boolean legacyAugment(String name, boolean requiredOnly, RequestOptions options, Deadline deadline)
            throws InterruptedException {
        if (session.era() != Era.LEGACY || !legacyToolTasks(session.serverCapabilities())
                || !speaksLegacyTasks(session.protocolVersion())) {
            return false;
        }
        String mode = tools.taskSupport(name);
        if (mode == null) {
            headerRouting.learnToolRoutes(Deadlines.within(options, deadline, "tools/list"));
            mode = tools.taskSupport(name);
            if (mode == null) {
                tools.notListed(name); // listed once: not again for each call
            }
        }
        return "required".equals(mode) || !requiredOnly && "optional".equals(mode);
    }

    /** The first legacy version with tasks (MCP 2025-11-25 "Tasks"; earlier versions have none). */
    static final String FIRST_TASKS_VERSION = "2025-11-25";

    /** Whether the negotiated legacy version has tasks: 2025-11-25 or later (versions are dates, compared as text). */
    static boolean speaksLegacyTasks(String version) {
        return version != null && version.compareTo(FIRST_TASKS_VERSION) >= 0;
    }

    /** Whether legacy capabilities declare {@code tasks.requests.tools.call}. */
    private static boolean legacyToolTasks(ServerCapabilities caps) {
        return caps != null && caps.tasks() != null && caps.tasks().get("requests") instanceof Map<?, ?> requests
                && requests.get("tools") instanceof Map<?, ?> toolRequests
                && toolRequests.get("call") instanceof Map<?, ?>;
    }

    /** The {@code task} augmentation of a plain call: {@code {ttl}} in milliseconds, or empty. */
    private static Map<String, Object> legacyTask(Duration ttl) {
        return ttl == null ? Map.of() : Map.of("ttl", ttl.toMillis());
    }

    /**
     * Whether {@code raw} creates a task: in the modern era {@code resultType: "task"} (flat), or the {@code task}
     * object answering an augmented legacy call (nested); either must name its task with a string {@code taskId}
     * and carry a string {@code status}.
     *
     * @throws McpProtocolException if the creation is malformed
     */
    boolean created(String name, Map<String, Object> raw, boolean augmented) {
        Object task;
        if ("task".equals(raw.get("resultType")) && session.era() == Era.MODERN) {
            task = raw;
        } else if (augmented && raw.containsKey("task")) {
            task = raw.get("task");
        } else {
            return false;
        }
        String what = "tools/call of tool '" + name + "' to server " + config.transport().describe() + " created a task";
        if (!(task instanceof Map<?, ?> t)) {
            throw new McpProtocolException(what + " that is " + JsonRpcCodec.kind(task) + ", not an object; "
                    + "the result was not used");
        }
        if (!(t.get("taskId") instanceof String id) || id.isEmpty()) {
            throw new McpProtocolException(what + " without a string taskId; the result was not used");
        }
        if (!(t.get("status") instanceof String)) {
            throw new McpProtocolException(what + " (taskId " + id + ") without a string status; the result was "
                    + "not used");
        }
        return true;
    }

    /**
     * The options of the task's driver: what is left of the call's deadline (at least a nanosecond, so that an
     * expired one cancels the task), the same token and {@code _meta}; no progress listener (a task reports no
     * progress, MODERN-ERA.md C.5.9, and each poll would carry a progress token).
     */
    private static RequestOptions rest(RequestOptions options, Deadline deadline) {
        RequestOptions.Builder b = options.toBuilder().progressListener(null);
        if (!deadline.isNone()) {
            Duration left = deadline.remaining(); // at least a nanosecond: an expired deadline cancels the task
            b.timeout(left.isZero() ? Duration.ofNanos(1) : left);
        }
        return b.build();
    }

    private Deadline deadlineOf(RequestOptions options) {
        return Deadlines.of(options, Deadline.ofNanoTime(System.nanoTime()), config.requestTimeout());
    }

    // ------------------------------------------------------------------------------------------------ channel

    @Override
    public Era era() {
        Era e = session.era(); // set once connect completed; kept after close
        if (e == null) {
            throw new IllegalStateException(life.isClosed() ? "the client was closed before it connected"
                    : "the client is not connected; call connect() first");
        }
        return e;
    }

    @Override
    public String serverKey() {
        String key = config.transport().serverKey();
        return key != null ? key : config.transport().describe();
    }

    @Override
    public ServerCapabilities serverCapabilities() {
        era();
        return session.serverCapabilities();
    }

    @Override
    public Map<String, Object> request(String method, Map<String, Object> params, RequestOptions options)
            throws InterruptedException {
        return session.request(method, params, options); // maps -32602 of a task lookup: notFound
    }

    /**
     * The exception for a failed request: {@link McpTaskNotFoundException} for {@code -32602} on
     * {@code tasks/get|update|cancel|result} (the task is unknown or expired; its id from {@code params.taskId}),
     * else {@code e} unchanged.
     *
     * @param method the request's method
     * @param params its params, or {@code null}
     * @param e      the failure
     * @return the exception to throw
     */
    static McpRpcException notFound(String method, Map<String, Object> params, McpRpcException e) {
        if (e.code() != INVALID_PARAMS || !TASK_LOOKUPS.contains(method) || e instanceof McpTaskNotFoundException) {
            return e;
        }
        String taskId = params != null && params.get("taskId") instanceof String id ? id : null;
        McpTaskNotFoundException typed = new McpTaskNotFoundException(method, taskId, e.requestId(), e.error());
        typed.setStackTrace(e.getStackTrace());
        return typed;
    }

    @Override
    public Map<String, Object> answerInputRequests(Map<String, Object> inputRequests, RequestOptions options)
            throws InterruptedException {
        Objects.requireNonNull(inputRequests, "inputRequests");
        Objects.requireNonNull(options, "options");
        return inputRounds.answerAll("task input to server " + config.transport().describe(), inputRequests,
                deadlineOf(options), options.token().orElse(null));
    }

    @Override
    public Subscription listenTasks(List<String> taskIds, Consumer<Map<String, Object>> onTask,
                                    RequestOptions options) throws InterruptedException {
        Objects.requireNonNull(onTask, "onTask");
        return subscriptions.openTasks(taskIds, new SubscriptionListener() {
            @Override
            public void onNotification(JsonRpcMessage.Notification notification) {
                if (notification.method().equals(TASK_NOTIFICATION) && notification.params() != null) {
                    onTask.accept(notification.params());
                }
            }
        }, options);
    }

    @Override
    public AutoCloseable onNotification(String method, Consumer<Map<String, Object>> listener) {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(listener, "listener");
        listeners.computeIfAbsent(method, m -> new CopyOnWriteArrayList<>()).add(listener);
        return () -> {
            List<Consumer<Map<String, Object>>> list = listeners.get(method);
            if (list != null) {
                list.remove(listener);
            }
        };
    }

    /**
     * Passes a server notification to the listeners registered for its method, on the client's event loop.
     * Called on the transport's reader thread; never blocks, never throws.
     *
     * @param n the notification
     */
    void onNotification(JsonRpcMessage.Notification n) {
        List<Consumer<Map<String, Object>>> list = listeners.get(n.method());
        if (list == null || list.isEmpty()) {
            return;
        }
        Map<String, Object> params = n.params() == null ? Map.of() : n.params();
        long bytes = JsonSize.ofMessage(n.method(), n.params());
        for (Consumer<Map<String, Object>> l : list) {
            events.dispatch(() -> UserCode.run(LOG, "a task notification listener", () -> l.accept(params)),
                    bytes);
        }
    }

    @Override
    public TransportThreads threads() {
        return threads;
    }

    @Override
    public boolean isClosed() {
        return life.isClosed();
    }

    @Override
    public Throwable closeCause() {
        return life.closeCause();
    }

    @Override
    public CancellationToken closeToken() {
        return closeToken;
    }

    /** The client closed: fires the close token, then tells the driver. Never throws. */
    void clientClosed() {
        closeToken.cancel("the client was closed");
        if (support == null) {
            return;
        }
        try {
            support.clientClosed();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "the task support failed to stop at client close", e);
        }
    }
}
