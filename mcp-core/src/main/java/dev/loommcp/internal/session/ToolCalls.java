package dev.loommcp.internal.session;

import dev.loommcp.McpProtocolException;
import dev.loommcp.RequestOptions;
import dev.loommcp.internal.json.FastResults;
import dev.loommcp.internal.session.base.Deadlines;
import dev.loommcp.internal.session.base.Params;
import dev.loommcp.internal.session.tools.ToolCatalog;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.Deadline;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Every {@code tools/call} of the client, composed: the params with the persistent tool {@code _meta} merged with the
 * call's, the era's wire path ({@link WirePath#callTool}: header routing where it applies), the result decoded and
 * its {@code structuredContent} checked against the tool's output schema ({@link ToolCatalog#validate}). Where tasks
 * come in (a legacy call augmented with {@code task}, an answer that created a task) it asks the {@link TaskBridge},
 * the tasks seam. Thread-safe.
 */
final class ToolCalls implements TaskBridge.Tools {

    private final ToolCatalog tools;
    private final TaskBridge tasks;
    private final Supplier<WirePath> path;
    private final Duration requestTimeout;
    private final AtomicReference<Map<String, Object>> toolMeta = new AtomicReference<>(Map.of());

    /**
     * @param path the connection's wire path (the legacy one before connect)
     */
    ToolCalls(ToolCatalog tools, TaskBridge tasks, Supplier<WirePath> path, Duration requestTimeout) {
        this.tools = tools;
        this.tasks = tasks;
        this.path = path;
        this.requestTimeout = requestTimeout;
    }

    /**
     * {@code McpClient.callTool}: composes and sends {@code tools/call} (a legacy call that must be a task augmented
     * by the {@link TaskBridge}), drives a task answer to its final result through the installed task support, then
     * decodes and validates the result.
     *
     * @throws McpProtocolException if the server answered with a malformed task, or the result is malformed
     */
    CallToolResult call(String name, Map<String, Object> arguments, RequestOptions options)
            throws InterruptedException {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(options, "options");
        Deadline deadline = Deadlines.of(options, Deadline.ofNanoTime(System.nanoTime()), requestTimeout);
        Map<String, Object> task = tasks.requiredTask(name, options, deadline);
        Map<String, Object> raw = Params.asObject(path.get().callTool(name, params(name, arguments, task, options),
                options, deadline), "tools/call");
        if (tasks.created(name, raw, task != null)) {
            raw = tasks.awaitToolResult(name, raw, options, deadline);
        }
        return toolResult(name, raw);
    }

    @Override
    public Map<String, Object> callTool(String name, Map<String, Object> arguments, Map<String, Object> legacyTask,
                                        RequestOptions options) throws InterruptedException {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(options, "options");
        Deadline deadline = Deadlines.of(options, Deadline.ofNanoTime(System.nanoTime()), requestTimeout);
        Map<String, Object> task = legacyTask != null && tasks.legacyAugment(name, false, options, deadline)
                ? new LinkedHashMap<>(legacyTask) : null;
        Map<String, Object> raw = Params.asObject(path.get().callTool(name, params(name, arguments, task, options),
                options, deadline), "tools/call");
        tasks.created(name, raw, task != null); // checks a task's creation
        return raw;
    }

    @Override
    public CallToolResult toolResult(String name, Map<String, Object> result) {
        Objects.requireNonNull(name, "name");
        if (result == null) {
            throw new McpProtocolException("tools/call of tool '" + name + "' has no result");
        }
        CallToolResult r = FastResults.callToolResult(result, "tools/call result of tool '" + name + "'");
        tools.validate(name, r);
        return r;
    }

    /** The params of a {@code tools/call}: name, arguments, the legacy {@code task}, the merged {@code _meta}. */
    private Map<String, Object> params(String name, Map<String, Object> arguments, Map<String, Object> task,
                                       RequestOptions options) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("name", name);
        if (arguments != null) {
            params.put("arguments", arguments);
        }
        if (task != null) {
            params.put("task", task);
        }
        Map<String, Object> meta = Params.mergeMeta(toolMeta.get(), options.meta());
        if (!meta.isEmpty()) {
            params.put("_meta", meta);
        }
        return params;
    }

    /** Sets the persistent tool {@code _meta} ({@code null}: none). */
    void setToolMeta(Map<String, Object> meta) {
        toolMeta.set(meta == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(meta)));
    }

    /** Returns the persistent tool {@code _meta}. */
    Map<String, Object> toolMeta() {
        return toolMeta.get();
    }
}
