package dev.loommcp.transport.unix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpClient;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.RequestOptions;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.ElicitResult;
import dev.loommcp.schema.Implementation;
import dev.loommcp.schema.ProgressNotification;
import dev.loommcp.schema.Tool;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.it.servers.UnixSocketServer;
import dev.loommcp.transport.http.HttpTransport;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.HashMap;
import java.util.Set;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The transport over a unix socket against the reference server (server-everything, Streamable HTTP, legacy era)
 * listening on it: found through the service loader, on the module path.
 */
@ExtendWith(LeakCheck.class)
class UnixReferenceServerTest {

    static UnixSocketServer server;

    @BeforeAll
    static void startServer() throws Exception {
        server = UnixSocketServer.referenceServer();
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private static McpClient client() {
        return McpClient.newBuilder(HttpTransport.newBuilder(server.endpoint()).build())
                .clientInfo(Implementation.of("unix-test", "1.0"))
                .requestTimeout(Duration.ofSeconds(30))
                .build();
    }

    @Test
    void listsCallsAndReceivesProgressOverTheSocket() throws Exception {
        try (McpClient client = client()) {
            client.connect();
            assertThat(client.protocolVersion().orElseThrow()).isEqualTo("2025-11-25");
            assertThat(client.listAllTools()).extracting(Tool::name).contains("echo", "get-sum");
            assertThat(client.callTool("echo", Map.of("message", "over a socket")).text())
                    .isEqualTo("Echo: over a socket");
            CopyOnWriteArrayList<ProgressNotification> progress = new CopyOnWriteArrayList<>();
            CallToolResult r = client.callTool("trigger-long-running-operation", Map.of("duration", 1, "steps", 3),
                    RequestOptions.newBuilder().progressListener(progress::add).build());
            assertThat(r.error()).isFalse();
            assertThat(progress).hasSizeGreaterThanOrEqualTo(3);
            client.ping();
        }
    }

    @Test
    void serverRequestsOnTheResponseStreamAreAnswered() throws Exception {
        AtomicInteger elicitations = new AtomicInteger();
        try (McpClient client = McpClient.newBuilder(HttpTransport.newBuilder(server.endpoint()).build())
                .requestTimeout(Duration.ofSeconds(30))
                .elicitationHandler(request -> {
                    elicitations.incrementAndGet();
                    return ElicitResult.accept(Map.of("name", "Ada", "check", true, "firstLine", "x",
                            "integer", 3, "number", 1.5));
                })
                .build()) {
            client.connect();
            CallToolResult elicited = client.callTool("trigger-elicitation-request", Map.of());
            assertThat(elicited.error()).isFalse();
            assertThat(elicited.text()).containsIgnoringCase("accept");
            assertThat(elicitations.get()).isEqualTo(1);
        }
    }

    @Test
    void timedOutCallAbortsItsStreamAndTheClientStaysUsable() throws Exception {
        try (McpClient client = client()) {
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
    void jettysThreadsCarryTheTransportsNamesAndNoneOutlivesClose() throws Exception {
        Set<Long> before = platformThreads().keySet();
        Map<Long, String> during;
        try (McpClient client = client()) {
            client.connect();
            // concurrent calls: several connections on the socket at once
            List<Thread> callers = IntStream.range(0, 20).mapToObj(n -> Thread.ofVirtual().start(() -> {
                try {
                    client.callTool("echo", Map.of("message", "m" + n));
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            })).toList();
            for (Thread t : callers) {
                assertThat(t.join(Duration.ofSeconds(60))).isTrue();
            }
            during = platformThreads();
        }
        during.keySet().removeAll(before);
        // every thread the transport started is an mcp- thread (so LeakCheck sees it), Jetty's included
        assertThat(during.values()).isNotEmpty().allMatch(name -> name.startsWith("mcp-unix-"), "named mcp-unix-*");
        Awaitility.await().atMost(LeakCheck.GRACE)
                .until(() -> platformThreads().keySet().stream().noneMatch(during::containsKey));
    }

    private static Map<Long, String> platformThreads() {
        Map<Long, String> out = new HashMap<>();
        Thread.getAllStackTraces().keySet().forEach(t -> out.put(t.threadId(), t.getName()));
        return out;
    }
}
