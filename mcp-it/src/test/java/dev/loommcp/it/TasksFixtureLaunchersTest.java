package dev.loommcp.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.loommcp.McpRpcException;
import dev.loommcp.McpClient;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.it.servers.HttpTasksFixture;
import dev.loommcp.it.servers.TasksFixture;
import dev.loommcp.testing.OwnedProcesses;
import dev.loommcp.transport.http.HttpTransport;
import dev.loommcp.transport.stdio.StdioTransport;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The launchers of the tasks-extension fixture ({@link TasksFixture}, {@link HttpTasksFixture}) and the wire rules of
 * the fixture that the conformance suite's {@code tasks-*} server scenarios do not referee (they run over HTTP only
 * and skip notifications) or that the fixture shares with every modern server (HTTP statuses of the core rules):
 * over stdio a task is created, pushed on a {@code subscriptions/listen} stream and polled,
 * a listen ends on {@code notifications/cancelled}, the server exits when its input ends; over HTTP the routing
 * headers are checked, the extension is required, and an {@code input_required} task completes after its
 * {@code tasks/update}; closing the launcher ends the process. Also the fixture's options: {@code --rate-limit},
 * {@code --forget-after-ms}, the {@code pollMs}/{@code ttlMs} arguments and {@code poll_stats}. Raw JSON-RPC, so the fixture is checked independently
 * of the client's task support.
 */
@ExtendWith(LeakCheck.class)
class TasksFixtureLaunchersTest {

    @RegisterExtension
    final OwnedProcesses processes = new OwnedProcesses();

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String EXT = "io.modelcontextprotocol/tasks";
    private static final Duration WAIT = Duration.ofSeconds(20);

    /** The request {@code _meta}, with or without the tasks extension. */
    private static Map<String, Object> meta(boolean tasks) {
        return Map.of("io.modelcontextprotocol/protocolVersion", "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities",
                tasks ? Map.of("elicitation", Map.of(), "extensions", Map.of(EXT, Map.of())) : Map.of(),
                "io.modelcontextprotocol/clientInfo", Map.of("name", "launchers-test", "version", "1"));
    }

    private static String request(Object id, String method, Map<String, Object> params, boolean tasks) {
        Map<String, Object> p = new LinkedHashMap<>(params);
        p.put("_meta", meta(tasks));
        return JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "id", id, "method", method, "params", p));
    }

    /** The string a node holds, or {@code ""} (missing node, other type). */
    private static String str(JsonNode n) {
        return n != null && n.isString() ? n.asString() : "";
    }

    @Test
    void theCommandsNameTheScriptAndTheirFlags() {
        assertThat(TasksFixture.script()).exists();
        assertThat(TasksFixture.stdioCommand()).endsWith("--stdio").contains(TasksFixture.script().toString());
        assertThat(TasksFixture.stdioCommand("--poll-ms", "20")).endsWith("--stdio", "--poll-ms", "20");
        assertThat(TasksFixture.httpCommand("--ttl-ms", "1000")).endsWith("--http", "0", "--ttl-ms", "1000");
    }

    @Test
    void overStdioATaskIsPushedOnAListenAndPolledAndTheServerExitsWhenItsInputEnds() throws Exception {
        Process server = processes.start(new ProcessBuilder(TasksFixture.stdioCommand("--poll-ms", "30"))
                .redirectError(ProcessBuilder.Redirect.INHERIT));
        try (StdioPeer peer = new StdioPeer(server)) {
            JsonNode discover = peer.call(request(1, "server/discover", Map.of(), true));
            assertThat(discover.at("/result/capabilities/extensions").has(EXT)).isTrue();
            assertThat(discover.at("/result/capabilities").has("tasks")).as("no 2025 tasks slot").isFalse();
            assertThat(discover.at("/result/_meta/io.modelcontextprotocol~1serverInfo/name").asString())
                    .isEqualTo(TasksFixture.SERVER_NAME);

            JsonNode created = peer.call(request(2, "tools/call",
                    Map.of("name", "slow_compute", "arguments", Map.of("seconds", 0.3)), true)).get("result");
            assertThat(created.get("resultType").asString()).isEqualTo("task");
            assertThat(created.get("pollIntervalMs").asInt()).as("--poll-ms").isEqualTo(30);
            assertThat(created.get("ttlMs").asInt()).isEqualTo(600000);
            String taskId = created.get("taskId").asString();

            peer.send(request("listen-1", "subscriptions/listen",
                    Map.of("notifications", Map.of("taskIds", List.of(taskId, "no-such-task"))), true));
            JsonNode listenAck = peer.next(m -> str(m.get("method"))
                    .equals("notifications/subscriptions/acknowledged"));
            assertThat(listenAck.at("/params/notifications/taskIds").valueStream().map(JsonNode::asString))
                    .as("unknown ids are not acknowledged").containsExactly(taskId);
            assertThat(listenAck.at("/params/_meta/io.modelcontextprotocol~1subscriptionId").asString())
                    .isEqualTo("listen-1");
            JsonNode done = peer.next(m -> str(m.get("method")).equals("notifications/tasks")
                    && str(m.at("/params/status")).equals("completed"));
            assertThat(done.at("/params/taskId").asString()).isEqualTo(taskId);
            assertThat(done.at("/params/result/content/0/text").asString()).isEqualTo("computed after 300 ms");
            assertThat(done.at("/params/_meta/io.modelcontextprotocol~1subscriptionId").asString())
                    .isEqualTo("listen-1");

            JsonNode polled = peer.call(request(5, "tasks/get", Map.of("taskId", taskId), true)).get("result");
            assertThat(polled.get("resultType").asString()).isEqualTo("complete");
            assertThat(polled.get("status").asString()).isEqualTo("completed");
            assertThat(polled.at("/result/content/0/text").asString()).isEqualTo("computed after 300 ms");

            JsonNode quick = peer.call(request(3, "tools/call",
                    Map.of("name", "quick_task", "arguments", Map.of("ms", 0, "n", 7, "pollMs", 5)), true));
            assertThat(quick.at("/result/pollIntervalMs").asInt()).as("the pollMs argument").isEqualTo(5);
            JsonNode quickDone = peer.pollUntil(quick.at("/result/taskId").asString(), "completed", 100);
            assertThat(quickDone.at("/result/content/0/text").asString()).isEqualTo("quick 7");

            // a listen ended by notifications/cancelled pushes nothing more, and gets no answer: the task completes
            // only on the tasks/update sent after the cancellation (one pipe: the server reads them in order)
            String second = peer.call(request(4, "tools/call", Map.of("name", "confirm_delete",
                    "arguments", Map.of("filename", "b.txt")), true)).at("/result/taskId").asString();
            peer.send(request("listen-2", "subscriptions/listen",
                    Map.of("notifications", Map.of("taskIds", List.of(second))), true));
            peer.next(m -> str(m.get("method")).equals("notifications/tasks")
                    && str(m.at("/params/taskId")).equals(second));
            peer.send(JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "method", "notifications/cancelled",
                    "params", Map.of("requestId", "listen-2"))));
            JsonNode parked = peer.pollUntil(second, "input_required", 200);
            String key = parked.get("inputRequests").propertyNames().iterator().next();
            JsonNode ack = peer.call(request(300, "tasks/update", Map.of("taskId", second, "inputResponses",
                    Map.of(key, Map.of("action", "decline"))), true));
            assertThat(ack.at("/result/resultType").asString()).isEqualTo("complete");
            JsonNode kept = peer.pollUntil(second, "completed", 400);
            assertThat(kept.get("result").get("isError").asBoolean()).as("declined").isTrue();
            assertThat(kept.at("/result/content/0/text").asString()).isEqualTo("kept b.txt");
            assertThat(peer.skipped()).as("nothing more on the ended listen").noneMatch(m ->
                    str(m.at("/params/_meta/io.modelcontextprotocol~1subscriptionId")).equals("listen-2")
                            && str(m.at("/params/status")).equals("completed")
                    || str(m.get("id")).equals("listen-2"));

            JsonNode unknown = peer.call(request(6, "tasks/get", Map.of("taskId", "nope"), true));
            assertThat(unknown.at("/error/code").asInt()).isEqualTo(-32602);
            JsonNode withoutExtension = peer.call(request(7, "tasks/get", Map.of("taskId", taskId), false));
            assertThat(withoutExtension.at("/error/code").asInt()).isEqualTo(-32021);
            assertThat(withoutExtension.at("/error/data/requiredCapabilities/extensions").has(EXT)).isTrue();
            assertThat(peer.call(request(8, "tasks/result", Map.of("taskId", taskId), true)).at("/error/code")
                    .asInt()).isEqualTo(-32601);
        } finally {
            assertThat(server.waitFor(10, TimeUnit.SECONDS)).as("the server exits when its stdin ends").isTrue();
        }
        assertThat(server.exitValue()).isZero();
    }

    @Test
    void overStdioTheRateLimitRefusesEarlyPollsAndATaskIsForgottenAfterItsTtl() throws Exception {
        Process server = processes.start(new ProcessBuilder(
                TasksFixture.stdioCommand("--rate-limit", "--forget-after-ms", "0"))
                .redirectError(ProcessBuilder.Redirect.INHERIT));
        try (StdioPeer peer = new StdioPeer(server)) {
            String slow = peer.call(request(1, "tools/call", Map.of("name", "slow_compute",
                    "arguments", Map.of("seconds", 60, "pollMs", 60000)), true)).at("/result/taskId").asString();
            JsonNode early = peer.call(request(2, "tasks/get", Map.of("taskId", slow), true));
            assertThat(early.at("/error/code").asInt()).isEqualTo(-32000);
            assertThat(early.at("/error/message").asString()).startsWith("rate limit: poll task " + slow);

            String shortLived = peer.call(request(3, "tools/call", Map.of("name", "slow_compute",
                    "arguments", Map.of("seconds", 60, "pollMs", 1, "ttlMs", 100)), true))
                    .at("/result/taskId").asString();
            JsonNode answer = null;
            long until = System.nanoTime() + WAIT.toNanos();
            for (int id = 4; System.nanoTime() < until; id++) {
                Thread.sleep(20);   // more than half the interval (1 ms) since the previous poll: never rate-limited
                answer = peer.call(request(id, "tasks/get", Map.of("taskId", shortLived), true));
                if (answer.has("error")) {
                    break;
                }
                assertThat(answer.at("/result/status").asString()).isEqualTo("working");
            }
            assertThat(answer.at("/error/code").asInt()).as("forgotten after its TTL").isEqualTo(-32602);
            assertThat(answer.at("/error/message").asString()).contains(shortLived);

            JsonNode stats = peer.call(request(1000, "tools/call", Map.of("name", "poll_stats"), true));
            assertThat(stats.at("/result/structuredContent/tasks").asInt()).isEqualTo(2);
            assertThat(stats.at("/result/structuredContent/limited").asInt()).isEqualTo(1);
        } finally {
            assertThat(server.waitFor(10, TimeUnit.SECONDS)).as("the server exits when its stdin ends").isTrue();
        }
    }

    @Test
    void overHttpHeadersAreCheckedAndAnInputRequiredTaskCompletesAfterItsUpdate() throws Exception {
        HttpTasksFixture fixture = new HttpTasksFixture("--poll-ms", "25");
        try (HttpClient http = HttpClient.newHttpClient()) {
            assertThat(fixture.endpoint().getHost()).isEqualTo("127.0.0.1");
            assertThat(fixture.endpoint().getPort()).isEqualTo(fixture.port()).isPositive();
            HttpPeer peer = new HttpPeer(http, fixture);

            HttpResponse<String> get = http.send(HttpRequest.newBuilder(fixture.endpoint()).timeout(WAIT).GET()
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(get.statusCode()).as("no GET stream in the modern era").isEqualTo(405);
            HttpResponse<String> notification = peer.post("notifications/cancelled", null, JSON.writeValueAsString(
                    Map.of("jsonrpc", "2.0", "method", "notifications/cancelled", "params", Map.of("requestId", 9))));
            assertThat(notification.statusCode()).isEqualTo(202);
            HttpResponse<String> ping = peer.post("ping", null, request(0, "ping", Map.of(), true));
            assertThat(ping.statusCode()).isEqualTo(404);
            assertThat(JSON.readTree(ping.body()).at("/error/code").asInt()).isEqualTo(-32601);
            HttpResponse<String> noVersion = http.send(HttpRequest.newBuilder(fixture.endpoint()).timeout(WAIT)
                    .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                    .header("Mcp-Method", "tools/list")
                    .POST(HttpRequest.BodyPublishers.ofString(request(0, "tools/list", Map.of(), true))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(noVersion.statusCode()).isEqualTo(400);
            assertThat(JSON.readTree(noVersion.body()).at("/error/code").asInt()).isEqualTo(-32020);
            HttpResponse<String> oldVersion = peer.post("tools/list", null, request(0, "tools/list", Map.of(), true)
                    .replace("2026-07-28", "2025-11-25"), "2025-11-25");
            assertThat(oldVersion.statusCode()).isEqualTo(400);
            assertThat(JSON.readTree(oldVersion.body()).at("/error/code").asInt()).isEqualTo(-32022);
            assertThat(JSON.readTree(oldVersion.body()).at("/error/data/supported/0").asString())
                    .isEqualTo("2026-07-28");

            HttpResponse<String> required = peer.post("tools/call", "failing_job",
                    request(1, "tools/call", Map.of("name", "failing_job"), false));
            assertThat(required.statusCode()).isEqualTo(400);
            assertThat(JSON.readTree(required.body()).at("/error/data/requiredCapabilities/extensions").has(EXT))
                    .isTrue();

            JsonNode created = JSON.readTree(peer.post("tools/call", "confirm_delete", request(2, "tools/call",
                    Map.of("name", "confirm_delete", "arguments", Map.of("filename", "a.txt")), true)).body());
            String taskId = created.at("/result/taskId").asString();
            assertThat(created.at("/result/pollIntervalMs").asInt()).isEqualTo(25);

            HttpResponse<String> wrongName = peer.post("tasks/get", "another-task",
                    request(3, "tasks/get", Map.of("taskId", taskId), true));
            assertThat(wrongName.statusCode()).isEqualTo(400);
            assertThat(JSON.readTree(wrongName.body()).at("/error/code").asInt()).isEqualTo(-32020);

            JsonNode parked = null;
            long until = System.nanoTime() + WAIT.toNanos();
            while (System.nanoTime() < until) {
                parked = JSON.readTree(peer.post("tasks/get", taskId,
                        request(4, "tasks/get", Map.of("taskId", taskId), true)).body()).get("result");
                if (!parked.get("status").asString().equals("working")) {
                    break;
                }
                Thread.sleep(25);
            }
            assertThat(parked.get("status").asString()).isEqualTo("input_required");
            List<String> keys = new ArrayList<>();
            parked.get("inputRequests").propertyNames().forEach(keys::add);
            assertThat(keys).singleElement().asString().startsWith("confirm-");
            assertThat(parked.at("/inputRequests/" + keys.get(0) + "/method").asString())
                    .isEqualTo("elicitation/create");

            JsonNode ack = JSON.readTree(peer.post("tasks/update", taskId, request(5, "tasks/update",
                    Map.of("taskId", taskId, "inputResponses", Map.of(keys.get(0),
                            Map.of("action", "accept", "content", Map.of("confirm", true)))), true)).body());
            assertThat(ack.at("/result/resultType").asString()).isEqualTo("complete");
            assertThat(ack.get("result").has("taskId")).as("an ack, not a task").isFalse();

            JsonNode done = null;
            until = System.nanoTime() + WAIT.toNanos();
            while (System.nanoTime() < until) {
                done = JSON.readTree(peer.post("tasks/get", taskId,
                        request(6, "tasks/get", Map.of("taskId", taskId), true)).body()).get("result");
                if (done.get("status").asString().equals("completed")) {
                    break;
                }
                Thread.sleep(25);
            }
            assertThat(done.get("status").asString()).isEqualTo("completed");
            assertThat(done.at("/result/content/0/text").asString()).isEqualTo("deleted a.txt");
        } finally {
            fixture.close();
        }
        assertThat(fixture.isAlive()).as("close() ended the process").isFalse();
    }

    @Test
    void aClientWithoutTaskSupportGetsSynchronousResultsAndAClearErrorForATaskOnlyTool() throws Exception {
        try (HttpTasksFixture fixture = new HttpTasksFixture()) {
            List<Supplier<McpTransport>> transports = List.of(
                    () -> StdioTransport.newBuilder(TasksFixture.stdioCommand()).build(),
                    () -> HttpTransport.newBuilder(fixture.endpoint()).build());
            for (Supplier<McpTransport> transport : transports) {
                try (McpClient client = McpClient.newBuilder(transport.get()).protocolMode(ProtocolMode.MODERN)
                        .requestTimeout(WAIT).build()) {
                    client.connect();
                    assertThat(client.serverInfo().orElseThrow().name()).isEqualTo(TasksFixture.SERVER_NAME);
                    assertThat(client.callTool("greet", Map.of("name", "Ada")).text()).isEqualTo("Hello, Ada!");
                    assertThat(client.callTool("slow_compute", Map.of("seconds", 0.05)).text())
                            .as("a task tool runs synchronously for a client without the extension")
                            .isEqualTo("computed after 50 ms");
                    assertThatThrownBy(() -> client.callTool("failing_job", Map.of()))
                            .isInstanceOfSatisfying(McpRpcException.class, e ->
                                    assertThat(e.requiredCapabilities()).containsKey("extensions"))
                            .hasMessageContaining(EXT);
                }
            }
        }
    }

    /** One stdio connection: lines in, parsed messages out through a reader thread, bounded waits. */
    private static final class StdioPeer implements AutoCloseable {
        private final OutputStream in;
        private final BlockingQueue<JsonNode> received = new LinkedBlockingQueue<>();
        private final List<JsonNode> skipped = new ArrayList<>();
        private final Thread reader;

        StdioPeer(Process server) {
            in = server.getOutputStream();
            // a platform daemon thread: it blocks in a pipe read until the process's stdout ends
            reader = new Thread(() -> {
                try (BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    for (String line = out.readLine(); line != null; line = out.readLine()) {
                        received.add(JSON.readTree(line));
                    }
                } catch (IOException e) {
                    // the process ended
                }
            }, "tasks-fixture-stdout");
            reader.setDaemon(true);
            reader.start();
        }

        void send(String line) throws IOException {
            in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        }

        /** The next message that matches; the others are kept in {@link #skipped()}. */
        JsonNode next(Predicate<JsonNode> wanted) throws InterruptedException {
            long until = System.nanoTime() + WAIT.toNanos();
            for (long left = WAIT.toNanos(); left > 0; left = until - System.nanoTime()) {
                JsonNode m = received.poll(left, TimeUnit.NANOSECONDS);
                if (m == null) {
                    break;
                }
                if (wanted.test(m)) {
                    return m;
                }
                skipped.add(m);
            }
            return fail("no matching message within " + WAIT + "; skipped: " + skipped);
        }

        /** Sends a request and returns its response. */
        JsonNode call(String request) throws Exception {
            JsonNode id = JSON.readTree(request).get("id");
            send(request);
            return next(m -> id.equals(m.get("id")) && !m.has("method"));
        }

        /** Polls with tasks/get until the task has the status (or a terminal one); returns that result. */
        JsonNode pollUntil(String taskId, String status, int firstId) throws Exception {
            long until = System.nanoTime() + WAIT.toNanos();
            for (int id = firstId; System.nanoTime() < until; id++) {
                JsonNode r = call(request(id, "tasks/get", Map.of("taskId", taskId), true)).get("result");
                String now = r.get("status").asString();
                if (now.equals(status) || List.of("completed", "failed", "cancelled").contains(now)) {
                    return r;
                }
                Thread.sleep(5);
            }
            return fail("task " + taskId + " did not reach " + status + " within " + WAIT);
        }

        List<JsonNode> skipped() {
            return skipped;
        }

        @Override
        public void close() throws Exception {
            in.close();
            reader.join(WAIT.toMillis());
        }
    }

    /** POSTs to the HTTP fixture with the modern headers. */
    private record HttpPeer(HttpClient http, HttpTasksFixture fixture) {
        HttpResponse<String> post(String method, String name, String body) throws Exception {
            return post(method, name, body, "2026-07-28");
        }

        HttpResponse<String> post(String method, String name, String body, String version) throws Exception {
            HttpRequest.Builder b = HttpRequest.newBuilder(fixture.endpoint())
                    .timeout(WAIT)
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .header("MCP-Protocol-Version", version)
                    .header("Mcp-Method", method)
                    .POST(HttpRequest.BodyPublishers.ofString(body));
            if (name != null) {
                b.header("Mcp-Name", name);
            }
            return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        }
    }
}
