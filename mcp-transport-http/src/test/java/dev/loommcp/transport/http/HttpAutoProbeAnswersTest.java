package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.HttpTransportTest.initResult;
import static dev.loommcp.transport.http.TestServer.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import dev.loommcp.config.Era;
import dev.loommcp.McpClient;
import dev.loommcp.McpTransportException;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.testing.LeakCheck;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 27 item 2: what {@code ProtocolMode.AUTO} makes of a {@code server/discover} probe answered with something
 * that is not a modern answer (MODERN-ERA.md C.2: anything that is not a valid {@code DiscoverResult} or a
 * recognized modern error is legacy evidence, as a 400/404 is). A 2xx that carries no JSON-RPC answer falls back to
 * {@code initialize}; a 5xx is not evidence (it may be an outage) and fails {@code connect()} naming the way to pin
 * the legacy era.
 */
@ExtendWith(LeakCheck.class)
class HttpAutoProbeAnswersTest {

    /** The unusable 2xx answers to the probe. */
    enum Unusable {
        /** 200 {@code application/json} with an empty body. */
        EMPTY_JSON,
        /** 204 No Content. */
        NO_CONTENT,
        /** 200 {@code text/plain}. */
        PLAIN_TEXT,
        /** 200 JSON that is not JSON-RPC. */
        NOT_JSON_RPC
    }

    private TestServer server;

    @BeforeEach
    void start() throws Exception {
        server = new TestServer();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    /** A 2025-era server whose answer to anything before initialize is {@code probeAnswer}. */
    private void legacyServer(TestServer.Handler probeAnswer) {
        server.handler((req, ex) -> {
            String method = req.rpcMethod();
            if ("initialize".equals(method)) {
                json(ex, 200, initResult(req.rpcId(), "2025-11-25"));
            } else if (req.rpcId() == null) {
                TestServer.status(ex, 202);
            } else if ("server/discover".equals(method)) {
                probeAnswer.handle(req, ex);
            } else {
                json(ex, 200, TestServer.result(req.rpcId(), "{}"));
            }
        });
    }

    private static void plain(HttpExchange ex, int status, String type, String body) throws Exception {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(status, b.length);
        try (OutputStream o = ex.getResponseBody()) {
            o.write(b);
        }
    }

    private McpClient client() {
        return McpClient.newBuilder(HttpTransport.newBuilder(server.uri("/mcp")).build())
                .protocolMode(ProtocolMode.AUTO).connectTimeout(Duration.ofSeconds(20)).build();
    }

    @ParameterizedTest
    @EnumSource(Unusable.class)
    void anUnusableSuccessToTheProbeIsLegacyEvidence(Unusable answer) throws Exception {
        legacyServer((req, ex) -> {
            switch (answer) {
                case EMPTY_JSON -> json(ex, 200, "");
                case NO_CONTENT -> TestServer.status(ex, 204);
                case PLAIN_TEXT -> plain(ex, 200, "text/plain", "OK");
                case NOT_JSON_RPC -> json(ex, 200, "{\"status\":\"ok\"}");
            }
        });
        try (McpClient client = client()) {
            client.connect();
            assertThat(client.era().orElseThrow()).isEqualTo(Era.LEGACY);
            assertThat(client.protocolVersion().orElseThrow()).isEqualTo("2025-11-25");
        }
        List<String> methods = server.requests("POST").stream().map(TestServer.Req::rpcMethod).toList();
        assertThat(methods).startsWith("server/discover", "initialize", "notifications/initialized");
    }

    @Test
    void aServerErrorToTheProbeFailsConnectNamingTheLegacyMode() throws Exception {
        legacyServer((req, ex) -> plain(ex, 500, "text/plain", "Internal Server Error"));
        try (McpClient client = client()) {
            assertThatThrownBy(client::connect).isInstanceOfSatisfying(McpTransportException.class, e -> {
                assertThat(e.httpStatus()).hasValue(500);
                assertThat(e).hasMessageContaining("ProtocolMode.LEGACY").hasMessageContaining("--protocol legacy")
                        .hasMessageContaining("server/discover");
            });
            assertThat(client.isConnected()).isFalse();
        }
        assertThat(server.requests("POST").stream().map(TestServer.Req::rpcMethod))
                .containsExactly("server/discover");
    }
}
