package dev.loommcp.opentelemetry;

import dev.loommcp.McpClient;
import dev.loommcp.event.McpEventListener;
import dev.loommcp.intercept.McpInterceptor;
import dev.loommcp.intercept.ServerRequestInterceptor;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.trace.Tracer;

import java.util.Objects;

/**
 * OpenTelemetry for loom-mcp clients, after the semantic conventions for MCP (OpenTelemetry gen-ai {@code mcp}, status
 * Development): the interceptors and the listener to register on a client, which record
 * <ul>
 *   <li>a {@code CLIENT} span per request the client sends, named {@code {mcp.method.name} {target}} (the tool's or
 *       prompt's name; none for other methods), a child of the caller's {@code Context.current()}, with
 *       {@code mcp.method.name}, {@code jsonrpc.request.id} (the id on the wire), {@code gen_ai.tool.name} and
 *       {@code gen_ai.operation.name=execute_tool}, {@code gen_ai.prompt.name}, {@code mcp.resource.uri},
 *       {@code mcp.protocol.version}, {@code mcp.session.id} (legacy HTTP sessions only), {@code network.transport}
 *       ({@code pipe}, {@code tcp}, {@code unix}), {@code network.protocol.name=http}, {@code server.address} and
 *       {@code server.port}; on failure {@code error.type} (the JSON-RPC code, {@code tool_error} for a tool result
 *       with {@code isError}, {@code timeout}, {@code cancelled}, else the exception's class name),
 *       {@code rpc.response.status_code} for a JSON-RPC error, and status {@code ERROR}. A task's polls and
 *       {@code tasks/result} are spans of their own with a link to the span of the call that created the task;</li>
 *   <li>the histograms {@code mcp.client.operation.duration} and {@code mcp.client.session.duration} (seconds, the
 *       conventions' bucket advice);</li>
 *   <li>the trace context ({@code traceparent}, {@code tracestate}, {@code baggage}, by the
 *       {@code OpenTelemetry}'s propagators) in each request's {@code params._meta} (SEP-414), so that a server, a
 *       stdio one too, continues the trace. A key the request carries already (the caller's own {@code traceparent}
 *       in {@code RequestOptions.meta}) is kept: the caller's wins;</li>
 *   <li>a span per request a server asks of the client: {@code SERVER} kind for a 2025-era server request, its parent
 *       the trace context in its {@code _meta}; {@code INTERNAL}, a child of the call's span, for a 2026-era
 *       {@code inputRequests} entry.</li>
 * </ul>
 *
 * <pre>{@code
 * McpTelemetry telemetry = McpTelemetry.create(openTelemetry);
 * McpClient client = telemetry.instrument(McpClient.newBuilder(transport)).build();
 * }</pre>
 *
 * <p>Tool arguments and results, and prompt arguments, are recorded only when asked for
 * ({@link Builder#captureArguments}, {@link Builder#captureResults}): they may hold secrets. Notifications the
 * client sends carry no trace context (the interceptors see requests only).
 *
 * <p>Uses {@code opentelemetry-api} only, nothing newer than its 1.55 API; without an SDK everything is a no-op.
 * Instrumentation scope {@code dev.loommcp}. Thread-safe: one instance serves any number of clients.
 */
public final class McpTelemetry {

    /** The instrumentation scope's name. */
    static final String SCOPE = "dev.loommcp";

    private final OpenTelemetry openTelemetry;
    private final ClientSpans clientSpans;
    private final ServerRequestSpans serverRequestSpans;
    private final DoubleHistogram sessionDuration;

    private McpTelemetry(Builder builder) {
        this.openTelemetry = builder.openTelemetry;
        String version = McpTelemetry.class.getPackage().getImplementationVersion();
        Tracer tracer = version == null ? openTelemetry.getTracer(SCOPE) : openTelemetry.getTracer(SCOPE, version);
        Meter meter = version == null ? openTelemetry.getMeter(SCOPE)
                : openTelemetry.meterBuilder(SCOPE).setInstrumentationVersion(version).build();
        DoubleHistogram operationDuration = meter.histogramBuilder("mcp.client.operation.duration")
                .setDescription("The duration of an MCP request or notification the client sent, as the client saw it")
                .setUnit("s").setExplicitBucketBoundariesAdvice(Conventions.DURATION_BUCKETS).build();
        this.sessionDuration = meter.histogramBuilder("mcp.client.session.duration")
                .setDescription("The duration of an MCP client's session, from its first request until its transport closed")
                .setUnit("s").setExplicitBucketBoundariesAdvice(Conventions.DURATION_BUCKETS).build();
        this.clientSpans = new ClientSpans(tracer, operationDuration,
                openTelemetry.getPropagators().getTextMapPropagator(), builder);
        this.serverRequestSpans = new ServerRequestSpans(tracer, openTelemetry.getPropagators().getTextMapPropagator());
    }

    /**
     * Returns telemetry with the defaults: trace context propagated, no argument or result capture, no resource URI
     * in span names.
     *
     * @param openTelemetry the OpenTelemetry to record with (an SDK, the agent's {@code GlobalOpenTelemetry.get()},
     *                      or {@code OpenTelemetry.noop()})
     * @return the telemetry
     * @throws NullPointerException if {@code openTelemetry} is {@code null}
     */
    public static McpTelemetry create(OpenTelemetry openTelemetry) {
        return newBuilder(openTelemetry).build();
    }

    /**
     * Returns a builder of telemetry.
     *
     * @param openTelemetry the OpenTelemetry to record with
     * @return the builder
     * @throws NullPointerException if {@code openTelemetry} is {@code null}
     */
    public static Builder newBuilder(OpenTelemetry openTelemetry) {
        return new Builder(Objects.requireNonNull(openTelemetry, "openTelemetry"));
    }

    /**
     * Registers everything on a client's builder: {@link #interceptor()} (added after the interceptors added so far,
     * so it is inside them), {@link #serverRequestInterceptor()}, and an {@link McpEventListener} of the client's own
     * that records {@code mcp.client.session.duration} ({@code addEventListener}: the builder's own event listener
     * stays). For every server of an {@code McpServers}:
     * {@code McpServers.newBuilder().clientCustomizer((config, b) -> telemetry.instrument(b))}.
     *
     * @param builder the client's builder; build one client of it afterwards (the session listener is the client's)
     * @return {@code builder}
     * @throws NullPointerException if {@code builder} is {@code null}
     */
    public McpClient.Builder instrument(McpClient.Builder builder) {
        Objects.requireNonNull(builder, "builder");
        SessionMetric session = new SessionMetric(sessionDuration);
        McpInterceptor spans = clientSpans;
        return builder.addInterceptor(chain -> {
            session.note(chain.connection());
            return spans.intercept(chain);
        }).addServerRequestInterceptor(serverRequestSpans).addEventListener(session);
    }

    /**
     * Returns the interceptor that records a {@code CLIENT} span and {@code mcp.client.operation.duration} per request
     * and puts the trace context into its {@code params._meta}. Register it after the interceptors whose work it
     * should see (innermost): its span then covers what goes on the wire, the captured arguments are the rewritten
     * ones, and a request an outer interceptor refused has no span. Shared by every client it is registered on.
     *
     * @return the interceptor
     */
    public McpInterceptor interceptor() {
        return clientSpans;
    }

    /**
     * Returns the interceptor that records a span per request a server asks of the client ({@code SERVER} kind in
     * the 2025 era, {@code INTERNAL} for a 2026-era input request). Shared by every client it is registered on.
     *
     * @return the interceptor
     */
    public ServerRequestInterceptor serverRequestInterceptor() {
        return serverRequestSpans;
    }

    /**
     * Builds {@link McpTelemetry}. Not thread-safe; {@link #build()} copies the settings.
     */
    public static final class Builder {

        final OpenTelemetry openTelemetry;
        boolean propagate = true;
        boolean captureArguments;
        boolean captureResults;
        boolean resourceUriInSpanName;

        private Builder(OpenTelemetry openTelemetry) {
            this.openTelemetry = openTelemetry;
        }

        private Builder(Builder other) {
            this.openTelemetry = other.openTelemetry;
            this.propagate = other.propagate;
            this.captureArguments = other.captureArguments;
            this.captureResults = other.captureResults;
            this.resourceUriInSpanName = other.resourceUriInSpanName;
        }

        /**
         * Sets whether the trace context goes into each request's {@code params._meta} ({@code traceparent},
         * {@code tracestate}, {@code baggage}, SEP-414). Default {@code true}.
         *
         * @param propagate whether to propagate
         * @return this builder
         */
        public Builder propagateTraceContext(boolean propagate) {
            this.propagate = propagate;
            return this;
        }

        /**
         * Sets whether spans record a {@code tools/call}'s arguments ({@code gen_ai.tool.call.arguments}, a JSON
         * string) and a {@code prompts/get}'s arguments ({@code gen_ai.prompt.variable.<name>}). Opt-in: arguments
         * may hold secrets. Default {@code false}.
         *
         * @param capture whether to capture
         * @return this builder
         */
        public Builder captureArguments(boolean capture) {
            this.captureArguments = capture;
            return this;
        }

        /**
         * Sets whether spans record a {@code tools/call}'s result ({@code gen_ai.tool.call.result}, a JSON string).
         * Opt-in: results may hold secrets and be large. Default {@code false}.
         *
         * @param capture whether to capture
         * @return this builder
         */
        public Builder captureResults(boolean capture) {
            this.captureResults = capture;
            return this;
        }

        /**
         * Sets whether the span of a request about a resource ({@code resources/read}, subscribe, unsubscribe) is
         * named with its URI ({@code resources/read file:///a.txt}) rather than the method alone. Opt-in: URIs make
         * many span names. The {@code mcp.resource.uri} attribute is recorded either way. Default {@code false}.
         *
         * @param include whether to name spans with the URI
         * @return this builder
         */
        public Builder resourceUriInSpanName(boolean include) {
            this.resourceUriInSpanName = include;
            return this;
        }

        /**
         * Builds the telemetry.
         *
         * @return the telemetry
         */
        public McpTelemetry build() {
            return new McpTelemetry(new Builder(this));
        }
    }
}
