package dev.loommcp.bench;

import dev.loommcp.McpClient;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.TextContent;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.transport.http.HttpTransport;
import dev.loommcp.transport.stdio.StdioTransport;
import dev.loommcp.opentelemetry.McpTelemetry;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * loom-mcp: {@link McpClient} over {@link StdioTransport} (or {@link HttpTransport} against the echo server's HTTP
 * mode), called from virtual threads (one per call). {@code loom} uses the client's default protocol mode
 * ({@link ProtocolMode#AUTO}); {@code loom-legacy} and {@code loom-modern} pin the era ({@link ProtocolMode#LEGACY},
 * {@link ProtocolMode#MODERN}), so that the two eras run against the same (dual-era) server; a name ending in
 * {@code -sse} talks to a server that answers each request as an SSE stream ({@code EchoServer --sse}).
 * {@code loom-icpt3} and {@code loom-otel} are {@code loom} with interceptors ({@link Clients#INTERCEPTED}).
 */
final class LoomClient implements BenchClient {

    private final String name;
    private final ProtocolMode mode;
    private final boolean http;
    private final UnaryOperator<McpClient.Builder> setup;
    private final AutoCloseable resources;
    private McpClient client;
    private HttpServerProcess server;

    /** The default client: stdio, default protocol mode. */
    LoomClient() {
        this("loom", null, false);
    }

    /**
     * A client of one era and transport.
     *
     * @param name its name in the tables
     * @param mode its protocol mode, or {@code null} for the client's default
     * @param http whether to speak HTTP to the echo server's HTTP mode instead of stdio
     */
    LoomClient(String name, ProtocolMode mode, boolean http) {
        this(name, mode, http, b -> b, () -> { });
    }

    private LoomClient(String name, ProtocolMode mode, boolean http, UnaryOperator<McpClient.Builder> setup,
                       AutoCloseable resources) {
        this.name = name;
        this.mode = mode;
        this.http = http;
        this.setup = setup;
        this.resources = resources;
    }

    /** The default client (stdio, default protocol mode) with {@code count} interceptors that only proceed. */
    static LoomClient withNoOpInterceptors(String name, int count) {
        return new LoomClient(name, null, false, b -> {
            for (int i = 0; i < count; i++) {
                b.addInterceptor(chain -> chain.proceed(chain.request()));
            }
            return b;
        }, () -> { });
    }

    /**
     * The default client (stdio, default protocol mode) with mcp-opentelemetry on an SDK that exports nowhere: spans
     * are sampled, built and ended, metrics recorded, the trace context injected, but no span processor or metric
     * reader takes them (the cost of the instrumentation, not of an exporter).
     */
    static LoomClient withTelemetry(String name) {
        SdkTracerProvider tracing = SdkTracerProvider.builder().build();
        SdkMeterProvider metrics = SdkMeterProvider.builder().build();
        OpenTelemetrySdk sdk = OpenTelemetrySdk.builder().setTracerProvider(tracing).setMeterProvider(metrics)
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance())).build();
        McpTelemetry telemetry = McpTelemetry.create(sdk);
        return new LoomClient(name, null, false, telemetry::instrument, sdk::close);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void start(List<String> serverArgv) throws Exception {
        McpTransport transport;
        if (http) {
            server = HttpServerProcess.start(serverArgv, name.endsWith("-sse"));
            transport = HttpTransport.newBuilder(server.endpoint()).build();
        } else {
            transport = StdioTransport.newBuilder(serverArgv).build();
        }
        McpClient.Builder builder = McpClient.newBuilder(transport).requestTimeout(Duration.ofSeconds(60));
        if (mode != null) {
            builder.protocolMode(mode);
        }
        client = setup.apply(builder).build();
        client.connect();
    }

    @Override
    public String echo(String text) throws Exception {
        return firstText(client.callTool("echo", Map.of("text", text)));
    }

    @Override
    public String sleep(int ms) throws Exception {
        return firstText(client.callTool("sleep", Map.of("ms", ms)));
    }

    @Override
    public String callTool(String tool, Map<String, Object> arguments) throws Exception {
        return firstText(client.callTool(tool, arguments));
    }

    private static String firstText(CallToolResult result) {
        if (result.error()) {
            throw new IllegalStateException("tool answered isError");
        }
        return ((TextContent) result.content().get(0)).text();
    }

    @Override
    public void close() throws Exception {
        try {
            if (client != null) {
                client.close();
            }
        } finally {
            try {
                if (server != null) {
                    server.close();
                }
            } finally {
                resources.close();
            }
        }
    }
}
