package dev.loommcp.opentelemetry;

import dev.loommcp.config.Era;
import dev.loommcp.intercept.ServerRequest;
import dev.loommcp.intercept.ServerRequestInterceptor;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import org.jspecify.annotations.Nullable;

import java.util.Map;

/**
 * The {@link ServerRequestInterceptor} of {@link McpTelemetry}: a span per request a server asks of the client.
 * A 2025-era server request ({@code sampling/createMessage}, {@code elicitation/create}, {@code roots/list} sent as a
 * JSON-RPC request) gets a {@code SERVER} span whose parent is the trace context in its {@code params._meta} when it
 * carries a valid one (the thread's current context, if any, is then a link), else the current context. A 2026-era
 * {@code inputRequests} entry is no request of its own: it gets an {@code INTERNAL} span, a child of the call's span
 * (it runs on the caller's thread inside the call). Thread-safe (stateless).
 */
final class ServerRequestSpans implements ServerRequestInterceptor {

    private static final TextMapGetter<Map<String, @Nullable Object>> META = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, @Nullable Object> carrier) {
            return carrier.keySet();
        }

        @Override
        public @Nullable String get(@Nullable Map<String, @Nullable Object> carrier, String key) {
            return carrier != null && carrier.get(key) instanceof String s ? s : null;
        }
    };

    private final Tracer tracer;
    private final TextMapPropagator propagator;

    ServerRequestSpans(Tracer tracer, TextMapPropagator propagator) {
        this.tracer = tracer;
        this.propagator = propagator;
    }

    @Override
    public Map<String, @Nullable Object> intercept(Chain chain) throws Exception {
        ServerRequest request = chain.request();
        AttributesBuilder attributes = Attributes.builder().put(Conventions.MCP_METHOD_NAME, request.method());
        Conventions.putConnection(attributes, chain.connection());
        Context current = Context.current();
        SpanBuilder builder = tracer.spanBuilder(request.method());
        if (request.era() == Era.LEGACY) {
            Context extracted = propagator.extract(Context.root(), request.meta(), META);
            boolean remote = Span.fromContext(extracted).getSpanContext().isValid();
            builder.setSpanKind(SpanKind.SERVER).setParent(remote ? extracted : current);
            SpanContext ambient = Span.fromContext(current).getSpanContext();
            if (remote && ambient.isValid()) {
                builder.addLink(ambient);
            }
            request.requestId().ifPresent(id -> attributes.put(Conventions.JSONRPC_REQUEST_ID,
                    String.valueOf(id.value())));
        } else {
            builder.setSpanKind(SpanKind.INTERNAL).setParent(current);
        }
        Span span = builder.setAllAttributes(attributes.build()).startSpan();
        try (Scope ignored = current.with(span).makeCurrent()) {
            return chain.proceed(request);
        } catch (Exception | Error e) {
            Outcome.of(e).applyTo(span);
            throw e;
        } finally {
            span.end();
        }
    }
}
