package dev.loommcp.bench;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The raw loop over Streamable HTTP: one {@code java.net.http.HttpClient} POST per request from the calling (virtual)
 * thread, Jackson 3 for the JSON, nothing else; the bar for loom-mcp's HTTP transport. Legacy ({@code raw-http}):
 * {@code initialize} and {@code notifications/initialized}, then requests with {@code MCP-Protocol-Version}; the
 * echo server is stateless, so there is no session id. Modern ({@code raw-http-modern}): {@code server/discover},
 * then every request with the {@code _meta} envelope and the {@code MCP-Protocol-Version}, {@code Mcp-Method} and
 * {@code Mcp-Name} headers. With {@code -sse} in its name the server answers each request as an SSE stream of one
 * event ({@code EchoServer --sse}), which this loop reads whole and takes the event's data from. Thread-safe after
 * {@link #start}.
 */
final class RawHttpClient implements BenchClient {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final boolean modern;
    private final boolean sse;
    private final JsonMapper mapper = JsonMapper.builder().build();
    private final AtomicLong ids = new AtomicLong();
    private HttpServerProcess server;
    private HttpClient http;
    private ObjectNode meta;
    private String version;

    RawHttpClient(boolean modern, boolean sse) {
        this.modern = modern;
        this.sse = sse;
    }

    @Override
    public String name() {
        return (modern ? "raw-http-modern" : "raw-http") + (sse ? "-sse" : "");
    }

    @Override
    public void start(List<String> serverArgv) throws Exception {
        server = HttpServerProcess.start(serverArgv, sse);
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        if (modern) {
            version = "2026-07-28";
            meta = RawClient.modernMeta(mapper, "raw-http-loop");
            ObjectNode params = mapper.createObjectNode();
            params.set("_meta", meta);
            if (!call("server/discover", null, params).has("supportedVersions")) {
                throw new IOException("server/discover answered without supportedVersions");
            }
            return;
        }
        JsonNode result = call("initialize", null, RawClient.initializeParams(mapper, "raw-http-loop"));
        version = result.get("protocolVersion").asString();
        ObjectNode initialized = mapper.createObjectNode();
        initialized.put("jsonrpc", "2.0");
        initialized.put("method", "notifications/initialized");
        HttpResponse<byte[]> r = http.send(request("notifications/initialized", null, initialized),
                HttpResponse.BodyHandlers.ofByteArray());
        if (r.statusCode() != 202) {
            throw new IOException("notifications/initialized answered HTTP " + r.statusCode());
        }
    }

    @Override
    public String echo(String text) throws Exception {
        return toolCall("echo", mapper.createObjectNode().put("text", text));
    }

    @Override
    public String sleep(int ms) throws Exception {
        return toolCall("sleep", mapper.createObjectNode().put("ms", ms));
    }

    @Override
    public String callTool(String tool, Map<String, Object> arguments) throws Exception {
        return toolCall(tool, mapper.valueToTree(arguments));
    }

    private String toolCall(String tool, JsonNode arguments) throws Exception {
        ObjectNode params = mapper.createObjectNode();
        params.put("name", tool);
        params.set("arguments", arguments);
        return firstText(call("tools/call", tool, params));
    }

    private String firstText(JsonNode result) throws IOException {
        if (modern && !"complete".equals(result.path("resultType").asString(""))) {
            throw new IOException("a modern result that is not complete");
        }
        return result.get("content").get(0).get("text").asString();
    }

    private JsonNode call(String method, String name, ObjectNode params) throws Exception {
        if (modern) {
            params.set("_meta", meta);
        }
        ObjectNode message = mapper.createObjectNode();
        message.put("jsonrpc", "2.0");
        message.put("id", ids.incrementAndGet());
        message.put("method", method);
        message.set("params", params);
        HttpResponse<byte[]> r = http.send(request(method, name, message), HttpResponse.BodyHandlers.ofByteArray());
        if (r.statusCode() != 200) {
            throw new IOException(method + " answered HTTP " + r.statusCode());
        }
        JsonNode response = sse ? mapper.readTree(eventData(r.body())) : mapper.readTree(r.body());
        JsonNode error = response.get("error");
        if (error != null) {
            throw new IOException(method + " answered error " + error.get("code"));
        }
        return response.get("result");
    }

    /** The data of the one event of an SSE body (the line after {@code data: }); an error when there is none. */
    private static byte[] eventData(byte[] body) throws IOException {
        for (int i = 0; i + 6 <= body.length; i++) {
            if ((i == 0 || body[i - 1] == '\n') && body[i] == 'd' && body[i + 1] == 'a' && body[i + 2] == 't'
                    && body[i + 3] == 'a' && body[i + 4] == ':') {
                int from = body[i + 5] == ' ' ? i + 6 : i + 5;
                int to = from;
                while (to < body.length && body[to] != '\n' && body[to] != '\r') {
                    to++;
                }
                return java.util.Arrays.copyOfRange(body, from, to);
            }
        }
        throw new IOException("an SSE answer without a data line");
    }

    private HttpRequest request(String method, String name, ObjectNode message) {
        HttpRequest.Builder b = HttpRequest.newBuilder(server.endpoint()).timeout(TIMEOUT)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(mapper.writeValueAsBytes(message)));
        if (version != null) {
            b.header("MCP-Protocol-Version", version);
        }
        if (modern) {
            b.header("Mcp-Method", method);
            if (name != null) {
                b.header("Mcp-Name", name);
            }
        }
        return b.build();
    }

    @Override
    public void close() throws Exception {
        if (http != null) {
            http.close();
        }
        if (server != null) {
            server.close();
        }
    }
}
