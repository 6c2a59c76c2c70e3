package dev.loommcp.internal.session;

import dev.loommcp.McpProtocolException;
import dev.loommcp.RequestOptions;
import dev.loommcp.internal.json.FastResults;
import dev.loommcp.internal.session.base.Deadlines;
import dev.loommcp.internal.session.base.Params;
import dev.loommcp.internal.session.tools.ToolCatalog;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.Deadline;
import dev.loommcp.spi.TaskAugmentation;
import dev.loommcp.spi.ToolCallAnswer;
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
 * come in (a call that asks for a task, an answer that created one) it asks the {@link TaskBridge}, the tasks seam.
 * Thread-safe.
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
     * {@code McpClient.callTool}: composes and sends {@code tools/call} (with the task the installed support asks for,
     * {@link TaskBridge#augmentation}), hands an answer that is not final to the support ({@link TaskBridge#pending},
     * {@link TaskBridge#awaitResult}), else decodes and validates the result.
     *
     * @throws McpProtocolException if the result is malformed
     */
    CallToolResult call(String name, Map<String, Object> arguments, RequestOptions options)
            throws InterruptedException {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(options, "options");
        Deadline deadline = Deadlines.of(options, Deadline.ofNanoTime(System.nanoTime()), requestTimeout);
        TaskAugmentation task = tasks.augmentation(name, options, deadline);
        Map<String, Object> raw = Params.asObject(path.get().callTool(name, params(name, arguments, task, options),
                options, deadline), "tools/call"); // sent from here: the call's path stays short
        ToolCallAnswer.Pending pending = tasks.pending(name, raw, task != null);
        return pending != null ? tasks.awaitResult(pending, options, deadline) : toolResult(name, raw);
    }

    @Override
    public ToolCallAnswer callTool(String name, Map<String, Object> arguments, TaskAugmentation augmentation,
                                   RequestOptions options) throws InterruptedException {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(options, "options");
        Deadline deadline = Deadlines.of(options, Deadline.ofNanoTime(System.nanoTime()), requestTimeout);
        Map<String, Object> raw = Params.asObject(path.get().callTool(name, params(name, arguments, augmentation,
                options), options, deadline), "tools/call");
        ToolCallAnswer.Pending pending = tasks.pending(name, raw, augmentation != null);
        return pending != null ? pending : new ToolCallAnswer.Final(name, toolResult(name, raw));
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

    /**
     * The params of a {@code tools/call}: name, arguments, the {@code task} asked for ({@code {ttl}} in milliseconds,
     * or empty), the merged {@code _meta}.
     */
    private Map<String, Object> params(String name, Map<String, Object> arguments, TaskAugmentation task,
                                       RequestOptions options) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("name", name);
        if (arguments != null) {
            params.put("arguments", arguments);
        }
        if (task != null) {
            params.put("task", task.ttl() == null ? Map.of() : Map.of("ttl", task.ttl().toMillis()));
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
