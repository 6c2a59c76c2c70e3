package dev.loommcp.internal.session;

import dev.loommcp.Registration;
import dev.loommcp.CancellationToken;
import dev.loommcp.config.Era;
import dev.loommcp.McpProtocolException;
import dev.loommcp.RequestOptions;
import dev.loommcp.event.Subscription;
import dev.loommcp.event.SubscriptionListener;
import dev.loommcp.internal.concurrent.UserCode;
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
import dev.loommcp.spi.TaskAugmentation;
import dev.loommcp.spi.TaskChannel;
import dev.loommcp.spi.TaskServer;
import dev.loommcp.spi.TaskSupport;
import dev.loommcp.spi.ToolCallAnswer;
import dev.loommcp.spi.TransportThreads;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The core's side of tasks (MODERN-ERA.md C.5 and C.6), the tasks seam: the {@link TaskChannel} a
 * {@link TaskSupport} is bound to, and the two points where a {@code tools/call} that {@link ToolCalls} composes meets
 * the installed support: before it is sent ({@link TaskSupport#augmentation}: whether it asks for a task) and when
 * its answer is not final ({@link #pending}: modern {@code resultType: "task"}, or a {@code task} answering an
 * augmented call), handed to {@link TaskSupport#awaitResult} on the caller's thread. Every task rule (when to
 * augment, the task shapes, what {@code -32602} means on {@code tasks/*}, the task exceptions) is the support's
 * ({@code mcp-tasks}). Also the listeners of {@link #onNotification} and the close token. The extension's
 * declaration itself is the {@link Envelope}'s, the {@code resultType} rules are {@link ModernRequests}'.
 * Thread-safe.
 */
final class TaskBridge implements TaskChannel {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");

    private static final String TASK_NOTIFICATION = "notifications/tasks";

    /** The tool calls the channel makes for the task support: {@link ToolCalls}'. */
    interface Tools {
        /** {@link TaskChannel#callTool}. */
        ToolCallAnswer callTool(String name, Map<String, Object> arguments, TaskAugmentation augmentation,
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

        /** A request with the options' {@code _meta}. */
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
     * The hook before a plain {@code tools/call} of {@code name} is sent: the task it asks for, as the installed
     * support decides, or {@code null} (always without a support, and before the client connected).
     */
    TaskAugmentation augmentation(String name, RequestOptions options, Deadline deadline)
            throws InterruptedException {
        if (support == null || session.era() == null) {
            return null; // before connect: the call fails as any call does, without asking the support
        }
        return support.augmentation(name, rest(options, deadline));
    }

    /**
     * The hook when a {@code tools/call} answer is not final: drives the task to its final result through the
     * installed support, within what is left of the call's deadline.
     *
     * @throws McpProtocolException if no task support is installed
     */
    CallToolResult awaitResult(ToolCallAnswer.Pending pending, RequestOptions options, Deadline deadline)
            throws InterruptedException {
        if (support == null) { // unreachable: ModernRequests refuses a task without the extension
            throw new McpProtocolException("tools/call of tool '" + pending.toolName() + "' answered with a task, "
                    + "but this client has no TaskSupport");
        }
        CallToolResult r = support.awaitResult(pending, rest(options, deadline));
        if (r == null) {
            throw new McpProtocolException("the TaskSupport returned no result for tools/call of tool '"
                    + pending.toolName() + "'");
        }
        return r;
    }

    /**
     * Whether {@code raw} answers a {@code tools/call} with a task instead of a result: in the modern era
     * {@code resultType: "task"}; in the legacy era a {@code task} member answering an augmented call. What the task
     * holds is the support's to read.
     *
     * @return the pending answer, or {@code null} for a final one
     */
    ToolCallAnswer.Pending pending(String name, Map<String, Object> raw, boolean augmented) {
        boolean task = session.era() == Era.MODERN ? "task".equals(raw.get("resultType"))
                : augmented && raw.containsKey("task");
        return task ? new ToolCallAnswer.Pending(name, raw) : null;
    }

    @Override
    public ToolCallAnswer callTool(String name, Map<String, Object> arguments, TaskAugmentation augmentation,
                                   RequestOptions options) throws InterruptedException {
        return toolCalls.callTool(name, arguments, augmentation, options);
    }

    @Override
    public CallToolResult toolResult(String name, Map<String, Object> result) {
        return toolCalls.toolResult(name, result);
    }

    @Override
    public String toolTaskSupport(String toolName, RequestOptions options) throws InterruptedException {
        Objects.requireNonNull(toolName, "toolName");
        Objects.requireNonNull(options, "options");
        String mode = tools.taskSupport(toolName);
        if (mode == null) {
            headerRouting.learnToolRoutes(Deadlines.within(options, deadlineOf(options), "tools/list"));
            mode = tools.taskSupport(toolName);
            if (mode == null) {
                tools.notListed(toolName); // listed once: not again for each call
                mode = "forbidden";
            }
        }
        return mode;
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
    public TaskServer server() {
        Era e = session.era(); // set once connect completed; kept after close
        if (e == null) {
            throw new IllegalStateException(life.isClosed() ? "the client was closed before it connected"
                    : "the client is not connected; call connect() first");
        }
        String key = config.transport().serverKey().orElseGet(config.transport()::describe);
        return new TaskServer(e, session.protocolVersion(), key,
                session.serverCapabilities());
    }

    @Override
    public Map<String, Object> request(String method, Map<String, Object> params, RequestOptions options)
            throws InterruptedException {
        return session.request(method, params, options);
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
    public Registration onNotification(String method, Consumer<Map<String, Object>> listener) {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(listener, "listener");
        listeners.computeIfAbsent(method, m -> new CopyOnWriteArrayList<>()).add(listener);
        AtomicBoolean closed = new AtomicBoolean();
        return () -> {
            List<Consumer<Map<String, Object>>> list = listeners.get(method);
            // once: a second close must not remove another registration of the same listener
            if (list != null && closed.compareAndSet(false, true)) {
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
    public java.util.Optional<Throwable> closeCause() {
        return java.util.Optional.ofNullable(life.closeCause());
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
