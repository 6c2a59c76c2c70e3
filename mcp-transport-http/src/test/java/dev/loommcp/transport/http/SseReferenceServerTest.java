package dev.loommcp.transport.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpClient;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.RequestOptions;
import dev.loommcp.schema.Implementation;
import dev.loommcp.schema.Tool;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.it.servers.HttpReferenceServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The HTTP+SSE transport of 2024-11-05 against the pinned reference server in its {@code sse} mode (server-everything
 * on a free loopback port): directly, and as the fallback of the Streamable HTTP transport.
 */
@ExtendWith(LeakCheck.class)
class SseReferenceServerTest {

    static HttpReferenceServer server;

    @BeforeAll
    static void startServer() throws Exception {
        server = HttpReferenceServer.sse();
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private static dev.loommcp.McpClient.Builder client(dev.loommcp.spi.McpTransport transport) {
        return McpClient.newBuilder(transport)
                .clientInfo(Implementation.of("sse-test", "1.0"))
                .requestTimeout(Duration.ofSeconds(30));
    }

    @Test
    void listsCallsAndReceivesProgressOverTheSseTransport() throws Exception {
        SseTransport transport = SseTransport.newBuilder(server.sseUrl()).build();
        try (McpClient client = client(transport).build()) {
            client.connect();
            // the server's answer decides: this reference server speaks the newest legacy version over SSE too
            assertThat(client.protocolVersion().orElseThrow()).isIn(McpClient.SUPPORTED_PROTOCOL_VERSIONS);
            assertThat(transport.messageEndpoint().orElseThrow().getPath()).isEqualTo("/message");
            assertThat(transport.messageEndpoint().orElseThrow().getQuery()).startsWith("sessionId=");
            assertThat(client.listAllTools()).extracting(Tool::name).contains("echo", "get-sum");
            assertThat(client.callTool("echo", Map.of("message", "over sse")).text()).isEqualTo("Echo: over sse");
            List<Double> progress = new CopyOnWriteArrayList<>();
            client.callTool("trigger-long-running-operation", Map.of("duration", 1, "steps", 3),
                    RequestOptions.newBuilder().progressListener(p -> progress.add(p.progress())).build());
            assertThat(progress).hasSize(3);
            client.ping();
        }
        assertThat(transport.activeExchangeCount()).isZero();
    }

    @Test
    void protocol20241105IsNegotiatedWhenPinned() throws Exception {
        try (McpClient client = client(SseTransport.newBuilder(server.sseUrl()).build())
                .protocolMode(ProtocolMode.pinned("2024-11-05")).build()) {
            client.connect();
            assertThat(client.protocolVersion().orElseThrow()).isEqualTo("2024-11-05");
            assertThat(client.callTool("get-sum", Map.of("a", 2, "b", 3)).text()).contains("5");
        }
    }

    @Test
    void streamableHttpTransportFallsBackToSseOnTheSameUrl() throws Exception {
        HttpTransport transport = HttpTransport.newBuilder(server.sseUrl()).build();
        try (McpClient client = client(transport).build()) {
            client.connect();
            assertThat(client.protocolVersion().orElseThrow()).isIn(McpClient.SUPPORTED_PROTOCOL_VERSIONS);
            assertThat(client.callTool("echo", Map.of("message", "fallback")).text()).isEqualTo("Echo: fallback");
        }
    }

    @Test
    void withoutTheFallbackTheRefusedPostIsTheError() {
        try (McpClient client = client(HttpTransport.newBuilder(server.sseUrl()).legacySseFallback(false).build())
                .build()) {
            assertThatThrownBy(client::connect).isInstanceOf(McpHttpStatusException.class)
                    .satisfies(e -> assertThat(((McpHttpStatusException) e).statusCode()).isEqualTo(404));
        }
    }
}
