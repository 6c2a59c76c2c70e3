package dev.loommcp.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.OwnedProcesses;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The echo server's dual-era mode ({@code --dual}) as a real child process, over stdio and over HTTP
 * ({@code --http}): {@code server/discover}, the modern envelope answered with {@code resultType: complete}, legacy
 * requests answered as before, and on HTTP the stateless rules (202 for notifications, 405 for GET and DELETE, 400
 * {@code -32020} for a modern request without its headers).
 */
@ExtendWith(LeakCheck.class)
class DualEraEchoServerTest {

    @RegisterExtension
    final OwnedProcesses processes = new OwnedProcesses();

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{},"
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}";

    static List<String> dualArgv() {
        List<String> argv = new ArrayList<>(EchoServerTest.serverArgv());
        argv.add("--dual");
        return argv;
    }

    @Test
    void overStdioItAnswersDiscoverAndBothEras() throws Exception {
        Process server = processes.start(new ProcessBuilder(dualArgv()).redirectError(ProcessBuilder.Redirect.INHERIT));
        try (OutputStream in = server.getOutputStream();
             BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(),
                     StandardCharsets.UTF_8))) {
            String lines = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{" + META + "}}\n"
                    + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
                    + "\"arguments\":{\"text\":\"m\"}," + META + "}}\n"
                    + "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
                    + "\"arguments\":{\"text\":\"l\"}}}\n"
                    + "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\",\"params\":{" + META + "}}\n"
                    + "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\",\"params\":{" + META + "}}\n";
            in.write(lines.getBytes(StandardCharsets.UTF_8));
            in.flush();
            JsonNode discover = JSON.readTree(out.readLine());
            assertThat(discover.at("/result/supportedVersions/0").asString()).isEqualTo("2026-07-28");
            assertThat(discover.at("/result/_meta/io.modelcontextprotocol~1serverInfo/name").asString())
                    .isEqualTo("loom-mcp-bench-echo");
            JsonNode modern = JSON.readTree(out.readLine());
            assertThat(modern.at("/result/content/0/text").asString()).isEqualTo("m");
            assertThat(modern.at("/result/resultType").asString()).isEqualTo("complete");
            assertThat(modern.at("/result/_meta/io.modelcontextprotocol~1serverInfo/name").asString())
                    .as("every modern result names the server, as the TypeScript SDK's do")
                    .isEqualTo("loom-mcp-bench-echo");
            JsonNode legacy = JSON.readTree(out.readLine());
            assertThat(legacy.at("/result/content/0/text").asString()).isEqualTo("l");
            assertThat(legacy.at("/result").has("resultType")).as("a legacy answer is unchanged").isFalse();
            JsonNode tools = JSON.readTree(out.readLine());
            assertThat(tools.at("/result/tools")).hasSize(2);
            assertThat(tools.at("/result/resultType").asString()).isEqualTo("complete");
            assertThat(JSON.readTree(out.readLine()).at("/error/code").asInt()).as("ping was removed in the modern "
                    + "era").isEqualTo(-32601);
        } finally {
            assertThat(server.waitFor(10, TimeUnit.SECONDS)).as("server exits when stdin ends").isTrue();
        }
        assertThat(server.exitValue()).isZero();
    }

    @Test
    void overHttpItIsStatelessAndChecksTheModernHeaders() throws Exception {
        try (HttpServerProcess server = HttpServerProcess.start(dualArgv(), false);
             HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> discover = http.send(post(server, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"
                    + "\"server/discover\",\"params\":{" + META + "}}", "server/discover", null), body());
            assertThat(discover.statusCode()).isEqualTo(200);
            assertThat(discover.headers().firstValue("Content-Type")).hasValue("application/json");
            assertThat(discover.headers().firstValue("Mcp-Session-Id")).isEmpty();
            assertThat(JSON.readTree(discover.body()).at("/result/supportedVersions/0").asString())
                    .isEqualTo("2026-07-28");
            HttpResponse<String> echo = http.send(post(server, "{\"jsonrpc\":\"2.0\",\"id\":\"e\",\"method\":"
                    + "\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"h\u00e9\"}," + META
                    + "}}", "tools/call", "echo"), body());
            JsonNode echoed = JSON.readTree(echo.body());
            assertThat(echoed.get("id").asString()).isEqualTo("e");
            assertThat(echoed.at("/result/content/0/text").asString()).isEqualTo("h\u00e9");
            assertThat(echoed.at("/result/resultType").asString()).isEqualTo("complete");
            HttpResponse<String> headless = http.send(post(server, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":"
                    + "\"tools/list\",\"params\":{" + META + "}}", null, null), body());
            assertThat(headless.statusCode()).isEqualTo(400);
            assertThat(JSON.readTree(headless.body()).at("/error/code").asInt()).isEqualTo(-32020);
            HttpResponse<String> init = http.send(post(server, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":"
                    + "\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                    + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}", null, null), body());
            assertThat(JSON.readTree(init.body()).at("/result/protocolVersion").asString()).isEqualTo("2025-11-25");
            HttpResponse<String> note = http.send(post(server, "{\"jsonrpc\":\"2.0\",\"method\":"
                    + "\"notifications/initialized\"}", null, null), body());
            assertThat(note.statusCode()).isEqualTo(202);
            HttpResponse<String> get = http.send(HttpRequest.newBuilder(server.endpoint()).GET().build(), body());
            assertThat(get.statusCode()).isEqualTo(405);
            assertThat(get.headers().firstValue("Allow")).hasValue("POST");
            HttpResponse<String> delete = http.send(HttpRequest.newBuilder(server.endpoint()).DELETE().build(),
                    body());
            assertThat(delete.statusCode()).isEqualTo(405);
        }
    }

    @Test
    void withSseItAnswersEachRequestAsOneEventAndNotificationsWith202() throws Exception {
        try (HttpServerProcess server = HttpServerProcess.start(dualArgv(), true);
             HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> echo = http.send(post(server, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":"
                    + "\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"h\u00e9\"}," + META
                    + "}}", "tools/call", "echo"), body());
            assertThat(echo.statusCode()).isEqualTo(200);
            assertThat(echo.headers().firstValue("Content-Type")).hasValue("text/event-stream");
            assertThat(echo.body()).startsWith("event: message\ndata: {").endsWith("}\n\n");
            String data = echo.body().substring("event: message\ndata: ".length()).strip();
            JsonNode echoed = JSON.readTree(data);
            assertThat(echoed.get("id").asInt()).isEqualTo(7);
            assertThat(echoed.at("/result/content/0/text").asString()).isEqualTo("h\u00e9");
            HttpResponse<String> note = http.send(post(server, "{\"jsonrpc\":\"2.0\",\"method\":"
                    + "\"notifications/initialized\"}", null, null), body());
            assertThat(note.statusCode()).isEqualTo(202);
        }
    }

    private static HttpResponse.BodyHandler<String> body() {
        return HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8);
    }

    private static HttpRequest post(HttpServerProcess server, String json, String method, String name) {
        HttpRequest.Builder b = HttpRequest.newBuilder(server.endpoint())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
        if (method != null) {
            b.header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", method);
        }
        if (name != null) {
            b.header("Mcp-Name", name);
        }
        return b.build();
    }
}
