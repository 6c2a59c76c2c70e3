package dev.loommcp.opentelemetry;

import dev.loommcp.intercept.McpConnection;
import dev.loommcp.intercept.McpInterceptor;
import dev.loommcp.intercept.McpResponse;
import dev.loommcp.intercept.OutgoingRequest;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapPropagator;
import org.jspecify.annotations.Nullable;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The {@link McpInterceptor} of {@link McpTelemetry}: one {@code CLIENT} span and one
 * {@code mcp.client.operation.duration} point per intercepted request, and the trace context in its
 * {@code params._meta}. Runs on the caller's thread, so the span's parent is the caller's {@link Context#current()}.
 * Thread-safe: its one mutable part, the recent tasks' span contexts, is guarded by a lock that is never held while
 * anything else runs.
 */
final class ClientSpans implements McpInterceptor {

    /** How many task-augmented calls' span contexts are kept for their polls' links (the oldest go first). */
    static final int TASK_LINKS = 1_024;

    private final Tracer tracer;
    private final DoubleHistogram duration;
    private final TextMapPropagator propagator;
    private final McpTelemetry.Builder config;
    private final ReentrantLock tasksLock = new ReentrantLock();
    private final Map<String, TaskOrigin> taskSpans = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, TaskOrigin> eldest) {
            return size() > TASK_LINKS;
        }
    };

    ClientSpans(Tracer tracer, DoubleHistogram duration, TextMapPropagator propagator, McpTelemetry.Builder config) {
        this.tracer = tracer;
        this.duration = duration;
        this.propagator = propagator;
        this.config = config;
    }

    @Override
    public McpResponse intercept(Chain chain) throws InterruptedException {
        OutgoingRequest request = chain.request();
        String method = request.method();
        Optional<String> tool = request.toolName();
        Optional<String> prompt = request.promptName();
        Optional<String> uri = request.resourceUri();
        McpConnection connection = chain.connection();

        AttributesBuilder metric = Attributes.builder().put(Conventions.MCP_METHOD_NAME, method);
        tool.ifPresent(t -> metric.put(Conventions.GEN_AI_TOOL_NAME, t)
                .put(Conventions.GEN_AI_OPERATION_NAME, Conventions.EXECUTE_TOOL));
        prompt.ifPresent(p -> metric.put(Conventions.GEN_AI_PROMPT_NAME, p));
        Conventions.putConnection(metric, connection);

        TaskOrigin task = taskOf(request);
        Context parent = Context.current();
        if (task != null && !Span.fromContext(parent).getSpanContext().isValid()) {
            parent = task.parent(); // a poll on a thread of the engine: the call's caller's context
        }
        Attributes attributes = metric.build(); // the span's and, unless the call fails, the histogram's
        SpanBuilder builder = tracer.spanBuilder(spanName(method, tool, prompt, uri)).setParent(parent)
                .setSpanKind(SpanKind.CLIENT).setAllAttributes(attributes);
        uri.ifPresent(u -> builder.setAttribute(Conventions.MCP_RESOURCE_URI, u));
        connection.sessionId().ifPresent(id -> builder.setAttribute(Conventions.MCP_SESSION_ID, id));
        if (task != null) {
            builder.addLink(task.call());
        }
        if (config.captureArguments) {
            captureArguments(request, builder);
        }
        Span span = builder.startSpan();
        Context context = parent.with(span);
        long start = System.nanoTime();
        Outcome failed = null;
        try (Scope ignored = context.makeCurrent()) {
            McpResponse response = chain.proceed(config.propagate ? withTraceContext(request, context) : request);
            if (response.isToolError()) {
                failed = Outcome.toolError();
            }
            if (tool.isPresent()) {
                rememberTask(response, span, parent);
            }
            if (config.captureResults && tool.isPresent()) {
                span.setAttribute(Conventions.GEN_AI_TOOL_CALL_RESULT, PlainJson.write(response.result()));
            }
            return response;
        } catch (InterruptedException | RuntimeException | Error e) {
            failed = Outcome.of(e);
            throw e;
        } finally {
            double seconds = (System.nanoTime() - start) / 1e9;
            chain.context().requestId()
                    .ifPresent(id -> span.setAttribute(Conventions.JSONRPC_REQUEST_ID, String.valueOf(id.value())));
            if (failed != null) {
                failed.applyTo(span);
                failed.putInto(metric);
                attributes = metric.build();
            }
            span.end();
            duration.record(seconds, attributes, parent);
        }
    }

    private String spanName(String method, Optional<String> tool, Optional<String> prompt, Optional<String> uri) {
        Optional<String> target = tool.or(() -> prompt);
        if (target.isEmpty() && config.resourceUriInSpanName) {
            target = uri;
        }
        return target.map(t -> method + " " + t).orElse(method);
    }

    private void captureArguments(OutgoingRequest request, SpanBuilder builder) {
        request.toolArguments().ifPresent(a -> builder.setAttribute(Conventions.GEN_AI_TOOL_CALL_ARGUMENTS,
                PlainJson.write(a)));
        if (request.promptName().isPresent() && request.params().isPresent()
                && request.params().get().get("arguments") instanceof Map<?, ?> arguments) {
            arguments.forEach((name, value) -> builder.setAttribute(
                    Conventions.GEN_AI_PROMPT_VARIABLE_PREFIX + name,
                    value instanceof String s ? s : PlainJson.write(value)));
        }
    }

    /**
     * Returns the request with the trace context of its span in {@code params._meta}; a key the request carries
     * already (the caller's own {@code traceparent} in {@code RequestOptions.meta}, or one an outer interceptor put)
     * is kept as it is.
     */
    private OutgoingRequest withTraceContext(OutgoingRequest request, Context context) {
        Map<String, @Nullable Object> present = request.meta();
        Map<String, @Nullable Object> injected = new LinkedHashMap<>();
        propagator.inject(context, injected, (carrier, key, value) -> {
            if (carrier != null && !present.containsKey(key)) {
                carrier.put(key, value);
            }
        });
        return injected.isEmpty() ? request : request.withMeta(injected);
    }

    /**
     * The span of a task-augmented call and the context it was made in (the caller's, captured on the caller's
     * thread), kept for the requests that name its task.
     */
    record TaskOrigin(SpanContext call, Context parent) {
    }

    /** The task-augmented call whose task this request (a poll, tasks/result, tasks/cancel) names. */
    private @Nullable TaskOrigin taskOf(OutgoingRequest request) {
        if (!request.method().startsWith("tasks/") || request.params().isEmpty()
                || !(request.params().get().get("taskId") instanceof String taskId)) {
            return null;
        }
        tasksLock.lock();
        try {
            return taskSpans.get(taskId);
        } finally {
            tasksLock.unlock();
        }
    }

    /**
     * Keeps the span context of a call that the server answered with a task: the 2026 tasks extension's flat
     * {@code {resultType: "task", taskId, ...}} or the 2025-11-25 {@code {task: {taskId, ...}}}.
     */
    private void rememberTask(McpResponse response, Span span, Context parent) {
        if (!response.fromServer()) {
            return;
        }
        Map<String, @Nullable Object> result = response.result();
        Object taskId = result.get("task") instanceof Map<?, ?> task ? task.get("taskId")
                : "task".equals(result.get("resultType")) ? result.get("taskId") : null;
        if (!(taskId instanceof String id)) {
            return;
        }
        tasksLock.lock();
        try {
            taskSpans.putIfAbsent(id, new TaskOrigin(span.getSpanContext(), parent)); // only for a task
        } finally {
            tasksLock.unlock();
        }
    }
}
