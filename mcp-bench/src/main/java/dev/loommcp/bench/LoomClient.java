package dev.loommcp.bench;

import dev.loommcp.McpClient;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.TextContent;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.transport.http.HttpTransport;
import dev.loommcp.transport.stdio.StdioTransport;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * loom-mcp: {@link McpClient} over {@link StdioTransport} (or {@link HttpTransport} against the echo server's HTTP
 * mode), called from virtual threads (one per call). {@code loom} uses the client's default protocol mode
 * ({@link ProtocolMode#AUTO}); {@code loom-legacy} and {@code loom-modern} pin the era ({@link ProtocolMode#LEGACY},
 * {@link ProtocolMode#MODERN}), so that the two eras run against the same (dual-era) server; a name ending in
 * {@code -sse} talks to a server that answers each request as an SSE stream ({@code EchoServer --sse}).
 */
final class LoomClient implements BenchClient {

    private final String name;
    private final ProtocolMode mode;
    private final boolean http;
    private final int interceptors;
    private final boolean telemetry;
    /** What the telemetry variant closes after the client, or {@code null}. */
    private AutoCloseable resources;
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
        this(name, mode, http, 0);
    }

    /**
     * A client of one era and transport with pass-through interceptors ({@link NoOpInterceptors}).
     *
     * @param interceptors how many
     */
    LoomClient(String name, ProtocolMode mode, boolean http, int interceptors) {
        this(name, mode, http, interceptors, false);
    }

    private LoomClient(String name, ProtocolMode mode, boolean http, int interceptors, boolean telemetry) {
        this.name = name;
        this.mode = mode;
        this.http = http;
        this.interceptors = interceptors;
        this.telemetry = telemetry;
    }

    /** The default client (stdio, default protocol mode) with mcp-opentelemetry on ({@link BenchTelemetry}). */
    static LoomClient withTelemetry(String name) {
        return new LoomClient(name, null, false, 0, true);
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
        if (interceptors > 0) {
            NoOpInterceptors.addTo(builder, interceptors);
        }
        if (telemetry) {
            resources = BenchTelemetry.instrument(builder);
        }
        client = builder.build();
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
            if (server != null) {
                server.close();
            }
            if (resources != null) {
                resources.close();
            }
        }
    }
}
