package dev.loommcp.tasks;

import dev.loommcp.CancellationToken;
import dev.loommcp.config.Era;
import dev.loommcp.McpCancelledException;
import dev.loommcp.McpClosedException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpUnsupportedInEraException;
import dev.loommcp.RequestOptions;
import dev.loommcp.event.Subscription;
import dev.loommcp.event.SubscriptionFilter;
import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.ContentBlock;
import dev.loommcp.schema.ServerCapabilities;
import dev.loommcp.schema.TextContent;
import dev.loommcp.Deadline;
import dev.loommcp.spi.TaskAugmentation;
import dev.loommcp.spi.TaskChannel;
import dev.loommcp.spi.TaskServer;
import dev.loommcp.spi.ToolCallAnswer;
import dev.loommcp.spi.TransportThreads;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;
import dev.loommcp.Registration;

/**
 * An in-process scripted tasks server behind the {@link TaskChannel} SPI, for unit tests of the driver without a
 * network: a modern one (the extension's flat shapes) or a legacy one (2025-11-25 nested creation, flat Task,
 * blocking {@code tasks/result}). Each task answers {@code tasks/get} from its script (one step per poll; the last
 * step stays); a step may be an exception to throw. Every request is recorded with the time it was sent.
 */
final class FakeTaskChannel implements TaskChannel {

    /** One request the driver sent. */
    record Sent(String method, Map<String, Object> params, long nanoTime) {
        String taskId() {
            return params == null ? null : (String) params.get("taskId");
        }
    }

    private final Era era;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Map<String, Deque<Object>> scripts = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Object>> results = new ConcurrentHashMap<>(); // legacy tasks/result
    private final Map<String, RuntimeException> resultErrors = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();
    private final CancellationToken closeToken = CancellationToken.create();
    private final List<Consumer<Map<String, Object>>> pushConsumers = new CopyOnWriteArrayList<>();
    private final Map<String, List<Consumer<Map<String, Object>>>> notificationListeners = new ConcurrentHashMap<>();
    final List<Sent> sent = new CopyOnWriteArrayList<>();
    final List<Map<String, Object>> inputRequestsAsked = new CopyOnWriteArrayList<>();
    final CountingThreads threads = new CountingThreads();
    volatile String serverKey = "fake://tasks-server";
    volatile String protocolVersion;
    /** Each tool's execution.taskSupport as the catalog would say it; a tool not named: {@code "optional"}. */
    final Map<String, String> toolTaskSupport = new ConcurrentHashMap<>();
    volatile boolean closed;
    volatile Throwable closeCause; // what ended the client (a transport failure), or null
    volatile boolean offersPush;
    volatile boolean cancelSettles = true;
    volatile long pollIntervalMs = 100;
    volatile Long ttlMs = 60_000L;
    /** How far the server's clock is from this machine's (its createdAt and lastUpdatedAt are stamped with it). */
    volatile Duration serverClockOffset = Duration.ZERO;
    volatile Function<Map<String, Object>, Map<String, Object>> inputAnswers = FakeTaskChannel::acceptAll;
    volatile Map<String, Object> immediateResult; // tools/call answered at once when set
    volatile List<Map<String, Object>> listPages = List.of();
    final AtomicInteger openSubscriptions = new AtomicInteger();

    FakeTaskChannel(Era era) {
        this.era = era;
    }

    // ------------------------------------------------------------------------------------------------ scripting

    /** Creates a task on the fake server with a tasks/get script; returns its id. */
    String newTask(Object... steps) {
        String id = "task-" + ids.incrementAndGet();
        scripts.put(id, new ArrayDeque<>(List.of(steps)));
        return id;
    }

    /** Replaces the script of a task. */
    void script(String id, Object... steps) {
        scripts.put(id, new ArrayDeque<>(List.of(steps)));
    }

    /** Legacy: what tasks/result returns for a task (released at once, or when set later). */
    void legacyResult(String id, Map<String, Object> result) {
        lock.lock();
        try {
            results.put(id, result);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Legacy: what tasks/result throws for a task. */
    void legacyResultError(String id, RuntimeException e) {
        lock.lock();
        try {
            resultErrors.put(id, e);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    static Map<String, Object> task(String status, Object... more) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("status", status);
        for (int i = 0; i < more.length; i += 2) {
            m.put((String) more[i], more[i + 1]);
        }
        return m;
    }

    static Map<String, Object> textResult(String text, boolean isError) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("content", List.of(Map.of("type", "text", "text", text)));
        if (isError) {
            r.put("isError", true);
        }
        return r;
    }

    static Map<String, Object> completed(String text) {
        return task("completed", "result", textResult(text, false));
    }

    private static Map<String, Object> acceptAll(Map<String, Object> requests) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String k : requests.keySet()) {
            out.put(k, Map.of("action", "accept", "content", Map.of("answer", k)));
        }
        return out;
    }

    /** The creation result the fake's tools/call returns for a task (both shapes). */
    Map<String, Object> creation(String id) {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("taskId", id);
        t.put("status", "working");
        t.put("createdAt", Instant.now().plus(serverClockOffset).toString());
        t.put("lastUpdatedAt", Instant.now().plus(serverClockOffset).toString());
        if (era == Era.MODERN) {
            t.put("ttlMs", ttlMs);
            t.put("pollIntervalMs", pollIntervalMs);
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("resultType", "task");
            r.putAll(t);
            return r;
        }
        t.put("ttl", ttlMs);
        t.put("pollInterval", pollIntervalMs);
        return Map.of("task", t);
    }

    /** Pushes a notifications/tasks (modern) to every open listen. */
    void push(Map<String, Object> detailedTask) {
        for (Consumer<Map<String, Object>> c : pushConsumers) {
            c.accept(detailedTask);
        }
    }

    /** Delivers a server notification (legacy notifications/tasks/status). */
    void notify(String method, Map<String, Object> params) {
        for (Consumer<Map<String, Object>> c : notificationListeners.getOrDefault(method, List.of())) {
            c.accept(params);
        }
    }

    /** The transport failed: the client closes with that cause (TaskChannel.closeCause). */
    void connectionLost(Throwable cause) {
        closeCause = cause;
        close();
    }

    void close() {
        closed = true;
        closeToken.cancel("client closed");
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    List<Sent> sent(String method) {
        return sent.stream().filter(s -> s.method.equals(method)).toList();
    }

    List<Sent> sent(String method, String taskId) {
        return sent.stream().filter(s -> s.method.equals(method) && taskId.equals(s.taskId())).toList();
    }

    // ------------------------------------------------------------------------------------------------ TaskChannel

    @Override
    public TaskServer server() {
        String version = protocolVersion != null ? protocolVersion : era == Era.MODERN ? "2026-07-28" : "2025-11-25";
        return new TaskServer(era, version, serverKey, capabilities());
    }

    @Override
    public String toolTaskSupport(String toolName, RequestOptions options) {
        return toolTaskSupport.getOrDefault(toolName, "optional");
    }

    ServerCapabilities capabilities() {
        return era == Era.MODERN
                ? new ServerCapabilities(null, null, null, null, null, null, null, Map.of(EXTENSION, Map.of()))
                : new ServerCapabilities(null, null, null, null, null, null,
                        Map.of("list", Map.of(), "cancel", Map.of(), "requests", Map.of("tools", Map.of("call",
                                Map.of()))), null);
    }

    @Override
    public Map<String, Object> request(String method, Map<String, Object> params, RequestOptions options)
            throws InterruptedException {
        check(options);
        sent.add(new Sent(method, params == null ? Map.of() : Map.copyOf(params), System.nanoTime()));
        String id = params == null ? null : (String) params.get("taskId");
        switch (method) {
            case "tasks/get" -> {
                Object step = nextStep(method, id);
                if (step instanceof RuntimeException e) {
                    throw e;
                }
                @SuppressWarnings("unchecked")
                Map<String, Object> m = new LinkedHashMap<>((Map<String, Object>) step);
                m.putIfAbsent("taskId", id);
                if (era == Era.MODERN) {
                    m.putIfAbsent("resultType", "complete");
                }
                return m;
            }
            case "tasks/update" -> {
                if (era == Era.LEGACY) {
                    throw rpc(method, JsonRpcError.METHOD_NOT_FOUND, "no tasks/update");
                }
                knownOrThrow(method, id);
                return Map.of("resultType", "complete");
            }
            case "tasks/cancel" -> {
                knownOrThrow(method, id);
                Deque<Object> script = scripts.get(id);
                if (era == Era.LEGACY && script.peek() instanceof Map<?, ?> now
                        && List.of("completed", "failed", "cancelled").contains(now.get("status"))) {
                    // as server-everything: -32602 for a task that already ended (2025-11-25 §Cancelling Tasks)
                    throw rpc(method, JsonRpcError.INVALID_PARAMS, "Cannot cancel task in terminal status: "
                            + now.get("status"));
                }
                if (cancelSettles) {
                    script.clear();
                    script.add(task("cancelled", "statusMessage", "Client cancelled task execution."));
                }
                legacyResultError(id, rpc("tasks/result", JsonRpcError.INTERNAL_ERROR, "Task " + id
                        + " has no result stored"));
                return era == Era.MODERN ? Map.of("resultType", "complete")
                        : task("cancelled", "taskId", id, "statusMessage", "Client cancelled task execution.");
            }
            case "tasks/result" -> {
                if (era == Era.MODERN) {
                    throw rpc(method, JsonRpcError.METHOD_NOT_FOUND, "Method not found");
                }
                knownOrThrow(method, id);
                return awaitResult(id, options);
            }
            case "tasks/list" -> {
                if (era == Era.MODERN) {
                    throw rpc(method, JsonRpcError.METHOD_NOT_FOUND, "Method not found");
                }
                String cursor = params == null ? null : (String) params.get("cursor");
                int page = cursor == null ? 0 : Integer.parseInt(cursor);
                Map<String, Object> r = new LinkedHashMap<>(listPages.get(page));
                if (page + 1 < listPages.size()) {
                    r.put("nextCursor", String.valueOf(page + 1));
                }
                return r;
            }
            default -> throw rpc(method, JsonRpcError.METHOD_NOT_FOUND, "Method not found");
        }
    }

    private Object nextStep(String method, String id) {
        Deque<Object> script = knownOrThrow(method, id);
        lock.lock();
        try {
            return script.size() > 1 ? script.poll() : script.peek();
        } finally {
            lock.unlock();
        }
    }

    private Deque<Object> knownOrThrow(String method, String id) {
        Deque<Object> script = id == null ? null : scripts.get(id);
        if (script == null) {
            // as a server (and the core's channel) says it: a plain -32602, which the driver types
            throw rpc(method, JsonRpcError.INVALID_PARAMS, "Task not found");
        }
        return script;
    }

    private Map<String, Object> awaitResult(String id, RequestOptions options) throws InterruptedException {
        Deadline d = TaskHandle.deadlineOf(options);
        CancellationToken token = options.token().orElse(null);
        Registration reg = token == null ? null : token.onCancel(() -> {
            lock.lock();
            try {
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        });
        lock.lock();
        try {
            while (true) {
                if (resultErrors.containsKey(id)) {
                    throw resultErrors.get(id);
                }
                if (results.containsKey(id)) {
                    Map<String, Object> r = new LinkedHashMap<>(results.get(id));
                    r.put("_meta", Map.of("io.modelcontextprotocol/related-task", Map.of("taskId", id)));
                    return r;
                }
                if (closed) {
                    throw new McpClosedException("closed", null);
                }
                if (token != null && token.isCancelled()) {
                    throw new McpCancelledException("tasks/result cancelled: " + token.reason().orElseThrow());
                }
                if (d.isExpired()) {
                    throw new McpTimeoutException("tasks/result timed out");
                }
                changed.awaitNanos(Math.min(d.remainingNanos(), Duration.ofSeconds(1).toNanos()));
            }
        } finally {
            lock.unlock();
            if (reg != null) {
                reg.close();
            }
        }
    }

    private void check(RequestOptions options) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (closed) {
            throw new McpClosedException("the client is closed", null);
        }
        if (options.token().isPresent() && options.token().get().isCancelled()) {
            throw new McpCancelledException("cancelled");
        }
    }

    static dev.loommcp.McpRpcException rpc(String method, int code, String message) {
        return new dev.loommcp.McpRpcException(method, null, JsonRpcError.of(code, message));
    }

    @Override
    public ToolCallAnswer callTool(String name, Map<String, Object> arguments, TaskAugmentation augmentation,
                                   RequestOptions options) throws InterruptedException {
        check(options);
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("name", name);
        if (augmentation != null) {
            params.put("task", augmentation.ttl() == null ? Map.of() : Map.of("ttl", augmentation.ttl().toMillis()));
        }
        sent.add(new Sent("tools/call", params, System.nanoTime()));
        if (immediateResult != null) {
            return new ToolCallAnswer.Final(name, toolResult(name, immediateResult));
        }
        Object[] steps = arguments == null ? new Object[] {completed("done")}
                : ((List<?>) arguments.get("script")).toArray();
        return new ToolCallAnswer.Pending(name, creation(newTask(steps)));
    }

    @Override
    public CallToolResult toolResult(String name, Map<String, Object> result) {
        List<ContentBlock> blocks = new ArrayList<>();
        for (Object o : (List<?>) result.getOrDefault("content", List.of())) {
            blocks.add(TextContent.of((String) ((Map<?, ?>) o).get("text")));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> meta = (Map<String, Object>) result.get("_meta");
        return new CallToolResult(blocks, null, (Boolean) result.get("isError"), meta);
    }

    @Override
    public Map<String, Object> answerInputRequests(Map<String, Object> inputRequests, RequestOptions options)
            throws InterruptedException {
        check(options);
        inputRequestsAsked.add(Map.copyOf(inputRequests));
        return inputAnswers.apply(inputRequests);
    }

    @Override
    public Subscription listenTasks(List<String> taskIds, Consumer<Map<String, Object>> onTask,
                                    RequestOptions options) {
        if (era == Era.LEGACY) {
            throw new McpUnsupportedInEraException("subscriptions/listen", era, null);
        }
        sent.add(new Sent("subscriptions/listen", Map.of("taskIds", List.copyOf(taskIds)), System.nanoTime()));
        if (!offersPush) {
            throw rpc("subscriptions/listen", JsonRpcError.METHOD_NOT_FOUND, "Method not found");
        }
        pushConsumers.add(onTask);
        openSubscriptions.incrementAndGet();
        return new Subscription() {
            private volatile boolean active = true;

            @Override
            public SubscriptionFilter requested() {
                return null;
            }

            @Override
            public SubscriptionFilter acknowledged() {
                return null;
            }

            @Override
            public boolean isActive() {
                return active;
            }

            @Override
            public void close() {
                if (active) {
                    active = false;
                    pushConsumers.remove(onTask);
                    openSubscriptions.decrementAndGet();
                }
            }
        };
    }

    @Override
    public Registration onNotification(String method, Consumer<Map<String, Object>> listener) {
        notificationListeners.computeIfAbsent(method, k -> new CopyOnWriteArrayList<>()).add(listener);
        java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
        return () -> {
            if (closed.compareAndSet(false, true)) {
                notificationListeners.get(method).remove(listener);
            }
        };
    }

    @Override
    public TransportThreads threads() {
        return threads;
    }

    @Override
    public java.util.Optional<Throwable> closeCause() {
        return java.util.Optional.ofNullable(closeCause);
    }

    @Override
    public CancellationToken closeToken() {
        return closeToken;
    }

    /** The core's threads, counting those alive by purpose. */
    static final class CountingThreads implements TransportThreads {
        final ConcurrentHashMap<String, AtomicInteger> live = new ConcurrentHashMap<>();
        final ConcurrentHashMap<String, AtomicInteger> peak = new ConcurrentHashMap<>();
        final AtomicInteger started = new AtomicInteger();

        @Override
        public Thread newThread(String purpose, Runnable task) {
            AtomicInteger n = live.computeIfAbsent(purpose, k -> new AtomicInteger());
            AtomicInteger p = peak.computeIfAbsent(purpose, k -> new AtomicInteger());
            return TransportThreads.standard().newThread(purpose, () -> {
                p.accumulateAndGet(n.incrementAndGet(), Math::max);
                started.incrementAndGet();
                try {
                    task.run();
                } finally {
                    n.decrementAndGet();
                }
            });
        }

        @Override
        public Thread startPlatform(String purpose, long stackSizeBytes, Runnable task) {
            return TransportThreads.standard().startPlatform(purpose, stackSizeBytes, task);
        }

        int live(String purpose) {
            AtomicInteger n = live.get(purpose);
            return n == null ? 0 : n.get();
        }

        int peak(String purpose) {
            AtomicInteger n = peak.get(purpose);
            return n == null ? 0 : n.get();
        }
    }
}
