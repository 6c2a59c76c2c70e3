package dev.loommcp.transport.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpClient;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.RequestOptions;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.ElicitResult;
import dev.loommcp.schema.Implementation;
import dev.loommcp.schema.ProgressNotification;
import dev.loommcp.schema.Tool;
import dev.loommcp.Deadline;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.RecordingSink;
import dev.loommcp.it.servers.HttpReferenceServer;
import dev.loommcp.testing.TestSendContext;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The transport against the reference server (server-everything in {@code streamableHttp} mode on a free loopback
 * port): through the SPI with a test sink, and under the real {@link McpClient}.
 */
@ExtendWith(LeakCheck.class)
class HttpReferenceServerTest {

    static HttpReferenceServer server;

    @BeforeAll
    static void startServer() throws Exception {
        server = new HttpReferenceServer();
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void handshakeThroughTheSpiIgnoresPrimingEventsAndEndsTheSessionOnClose() throws Exception {
        RecordingSink sink = new RecordingSink();
        String session;
        try (HttpTransport t = HttpTransport.newBuilder(server.endpoint()).build()) {
            t.open(TransportContext.of(sink, Deadline.NONE));
            t.exchange(HttpTransportTest.initialize(1), TestSendContext.of(1));
            JsonRpcMessage init = sink.next(HttpTransportTest.WAIT);
            assertThat(init).isInstanceOfSatisfying(JsonRpcMessage.Response.class, r -> {
                assertThat(r.id()).isEqualTo(RequestId.of(1));
                assertThat(((Map<?, ?>) r.result()).get("protocolVersion")).isEqualTo("2025-11-25");
            });
            session = t.sessionId().orElse(null);
            assertThat(session).isNotBlank();
            t.exchange(HttpTransportTest.INITIALIZED, TestSendContext.none());
            t.handshakeCompleted("2025-11-25");
            t.exchange(new JsonRpcMessage.Request(RequestId.of(2), "tools/list", Map.of()), TestSendContext.of(2));
            JsonRpcMessage list = sink.next(HttpTransportTest.WAIT);
            assertThat(list).isInstanceOf(JsonRpcMessage.Response.class);
            assertThat(((JsonRpcMessage.Response) list).id()).isEqualTo(RequestId.of(2));
            t.exchange(new JsonRpcMessage.Request(RequestId.of(3), "ping", null), TestSendContext.of(3));
            assertThat(sink.next(HttpTransportTest.WAIT)).isEqualTo(new JsonRpcMessage.Response(RequestId.of(3),
                    Map.of()));
            assertThat(sink.skipped()).isEmpty();
        }
        // the DELETE ended the session: the server no longer knows it
        try (HttpClient raw = HttpClient.newHttpClient()) {
            HttpResponse<String> r = raw.send(HttpRequest.newBuilder(server.endpoint())
                    .header("Mcp-Session-Id", session).header("Accept", "text/event-stream").GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(400);
        }
    }

    @Test
    void clientListsCallsAndReceivesProgressOverHttp() throws Exception {
        try (McpClient client = McpClient.newBuilder(HttpTransport.newBuilder(server.endpoint()).build())
                .clientInfo(Implementation.of("http-test", "1.0"))
                .requestTimeout(Duration.ofSeconds(30))
                .build()) {
            client.connect();
            assertThat(client.protocolVersion().orElseThrow()).isEqualTo("2025-11-25");
            assertThat(client.listAllTools()).extracting(Tool::name).contains("echo", "get-sum");
            assertThat(client.callTool("echo", Map.of("message", "over http")).text())
                    .isEqualTo("Echo: over http");
            CopyOnWriteArrayList<ProgressNotification> progress = new CopyOnWriteArrayList<>();
            CallToolResult r = client.callTool("trigger-long-running-operation", Map.of("duration", 1, "steps", 3),
                    RequestOptions.newBuilder().progressListener(progress::add).build());
            assertThat(r.error()).isFalse();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> progress.size() >= 3);
            client.ping();
        }
    }

    @Test
    void serverRequestsOnTheResponseStreamAreAnsweredByPost() throws Exception {
        AtomicInteger elicitations = new AtomicInteger();
        try (McpClient client = McpClient.newBuilder(HttpTransport.newBuilder(server.endpoint()).build())
                .clientInfo(Implementation.of("http-test", "1.0"))
                .requestTimeout(Duration.ofSeconds(30))
                .elicitationHandler(request -> {
                    elicitations.incrementAndGet();
                    return ElicitResult.accept(Map.of("name", "Ada", "check", true, "firstLine", "x",
                            "integer", 3, "number", 1.5));
                })
                .build()) {
            client.connect();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> client.listAllTools().stream()
                    .map(Tool::name).toList().contains("trigger-elicitation-request"));
            CallToolResult elicited = client.callTool("trigger-elicitation-request", Map.of());
            assertThat(elicited.error()).isFalse();
            assertThat(elicited.text()).containsIgnoringCase("accept");
            assertThat(elicitations.get()).isEqualTo(1);
        }
    }

    @Test
    void timedOutCallAbortsItsStreamAndTheClientStaysUsable() throws Exception {
        try (McpClient client = McpClient.newBuilder(HttpTransport.newBuilder(server.endpoint()).build())
                .clientInfo(Implementation.of("http-test", "1.0"))
                .requestTimeout(Duration.ofSeconds(30))
                .build()) {
            client.connect();
            assertThatThrownBy(() -> client.callTool("trigger-long-running-operation",
                    Map.of("duration", 5, "steps", 5), RequestOptions.ofTimeout(Duration.ofMillis(500))))
                    .isInstanceOf(McpTimeoutException.class);
            assertThat(client.pendingRequestCount()).isZero();
            assertThat(client.callTool("echo", Map.of("message", "still here")).text())
                    .isEqualTo("Echo: still here");
        }
    }

    @Test
    void manyConcurrentCallsOnVirtualThreads() throws Exception {
        try (McpClient client = McpClient.newBuilder(HttpTransport.newBuilder(server.endpoint()).build())
                .clientInfo(Implementation.of("http-test", "1.0"))
                .requestTimeout(Duration.ofSeconds(60))
                .build()) {
            client.connect();
            List<Thread> threads = new CopyOnWriteArrayList<>();
            List<String> answers = new CopyOnWriteArrayList<>();
            for (int i = 0; i < 50; i++) {
                int n = i;
                threads.add(Thread.ofVirtual().start(() -> {
                    try {
                        answers.add(client.callTool("echo", Map.of("message", "m" + n)).text());
                    } catch (Exception e) {
                        answers.add("failed: " + e);
                    }
                }));
            }
            for (Thread th : threads) {
                assertThat(th.join(Duration.ofSeconds(60))).isTrue();
            }
            assertThat(answers).hasSize(50).allMatch(a -> a.startsWith("Echo: m"));
        }
    }
}
