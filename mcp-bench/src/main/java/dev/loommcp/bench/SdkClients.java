package dev.loommcp.bench;

import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The comparison: the official MCP Java SDK 2.1.0 over its {@link StdioClientTransport}, sync and async, and its
 * async client over its Streamable HTTP client transport ({@link HttpClientStreamableHttpTransport}).
 */
// the peer SDK deprecated the (name, arguments) constructor of CallToolRequest; it is the one its own docs show
@SuppressWarnings("deprecation")
final class SdkClients {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private SdkClients() {
    }

    static StdioClientTransport transport(List<String> argv) {
        ServerParameters params = ServerParameters.builder(argv.get(0)).args(argv.subList(1, argv.size())).build();
        return new StdioClientTransport(params, McpJsonDefaults.getMapper());
    }

    static String firstText(McpSchema.CallToolResult result) {
        if (Boolean.TRUE.equals(result.isError())) {
            throw new IllegalStateException("tool answered isError");
        }
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    /** {@code McpClient.sync(...)}, called from virtual threads (one per call). */
    static final class Sync implements BenchClient {
        private McpSyncClient client;

        @Override
        public String name() {
            return "sdk-sync";
        }

        @Override
        public void start(List<String> serverArgv) {
            client = McpClient.sync(transport(serverArgv)).requestTimeout(TIMEOUT).initializationTimeout(TIMEOUT).build();
            client.initialize();
        }

        @Override
        public String echo(String text) {
            return firstText(client.callTool(new McpSchema.CallToolRequest("echo", Map.of("text", text))));
        }

        @Override
        public String sleep(int ms) {
            return firstText(client.callTool(new McpSchema.CallToolRequest("sleep", Map.of("ms", ms))));
        }

        @Override
        public String callTool(String tool, Map<String, Object> arguments) {
            return firstText(client.callTool(new McpSchema.CallToolRequest(tool, arguments)));
        }

        @Override
        public void close() {
            if (client != null) {
                client.closeGracefully();
            }
        }
    }

    /**
     * {@code McpClient.async(...)}: sequential calls block on the {@code Mono}; in-flight phases subscribe without a
     * thread per call (the client's own non-blocking API), completion counted through {@link CompletableFuture}s.
     */
    static class Async implements BenchClient {
        private McpAsyncClient client;

        @Override
        public String name() {
            return "sdk-async";
        }

        /** The transport to the server given by {@code serverArgv}. */
        McpClientTransport newTransport(List<String> serverArgv) throws Exception {
            return transport(serverArgv);
        }

        @Override
        public void start(List<String> serverArgv) throws Exception {
            client = McpClient.async(newTransport(serverArgv)).requestTimeout(TIMEOUT).initializationTimeout(TIMEOUT)
                    .build();
            client.initialize().block(TIMEOUT);
        }

        @Override
        public String echo(String text) {
            return echoAsync(text).join();
        }

        @Override
        public String sleep(int ms) {
            return sleepAsync(ms).join();
        }

        @Override
        public String callTool(String tool, Map<String, Object> arguments) {
            return client.callTool(new McpSchema.CallToolRequest(tool, arguments)).map(SdkClients::firstText)
                    .block(TIMEOUT);
        }

        @Override
        public boolean asyncNative() {
            return true;
        }

        @Override
        public CompletableFuture<String> echoAsync(String text) {
            return client.callTool(new McpSchema.CallToolRequest("echo", Map.of("text", text)))
                    .map(SdkClients::firstText).toFuture();
        }

        @Override
        public CompletableFuture<String> sleepAsync(int ms) {
            return client.callTool(new McpSchema.CallToolRequest("sleep", Map.of("ms", ms)))
                    .map(SdkClients::firstText).toFuture();
        }

        @Override
        public void close() throws Exception {
            if (client != null) {
                client.closeGracefully().block(TIMEOUT);
            }
        }
    }

    /**
     * The async client over {@link HttpClientStreamableHttpTransport} (its defaults: {@code java.net.http}, no
     * resumable-stream options), against the echo server's HTTP mode started as a child process; with {@code sse}
     * the server answers each request as an SSE stream of one event. The SDK speaks the legacy era (it sends
     * {@code initialize}; the dual-era server answers it as before and runs stateless, without a session id).
     */
    static final class Http extends Async {
        private final boolean sse;
        private HttpServerProcess server;

        Http(boolean sse) {
            this.sse = sse;
        }

        @Override
        public String name() {
            return sse ? "sdk-http-sse" : "sdk-http";
        }

        @Override
        McpClientTransport newTransport(List<String> serverArgv) throws Exception {
            server = HttpServerProcess.start(serverArgv, sse);
            String endpoint = server.endpoint().toString();
            String base = endpoint.substring(0, endpoint.length() - server.endpoint().getPath().length());
            return HttpClientStreamableHttpTransport.builder(base).endpoint(server.endpoint().getPath())
                    .connectTimeout(TIMEOUT).build();
        }

        @Override
        public void close() throws Exception {
            try {
                super.close();
            } finally {
                if (server != null) {
                    server.close();
                }
            }
        }
    }
}
