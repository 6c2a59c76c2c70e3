package dev.loommcp.transport.http;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.delete;
import static com.github.tomakehurst.wiremock.client.WireMock.deleteRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.Deadline;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.RecordingSink;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Request shapes, headers and status mapping, checked with WireMock. */
@ExtendWith(LeakCheck.class)
class HttpTransportWireMockTest {

    WireMockServer wm;
    RecordingSink sink;

    @BeforeEach
    void start() {
        wm = new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
        wm.start();
        sink = new RecordingSink();
    }

    @AfterEach
    void stop() {
        wm.stop();
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + wm.port() + "/api/v1/mcp?key=abc&x=%2F");
    }

    HttpTransport open(HttpTransport.Builder b) {
        HttpTransport t = b.build();
        t.open(TransportContext.of(sink, Deadline.NONE));
        return t;
    }

    @Test
    void requestShapeAndSessionHeaders() throws Exception {
        wm.stubFor(post(urlEqualTo("/api/v1/mcp?key=abc&x=%2F"))
                .withRequestBody(matchingJsonPath("$.method", equalTo("initialize")))
                .willReturn(aResponse().withStatus(200)
                        .withHeader("Content-Type", "application/json; charset=utf-8")
                        .withHeader("Mcp-Session-Id", "0f3c-SESSION")
                        .withBody("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-06-18\","
                                + "\"capabilities\":{},\"serverInfo\":{\"name\":\"w\",\"version\":\"1\"}}}")));
        wm.stubFor(post(urlEqualTo("/api/v1/mcp?key=abc&x=%2F"))
                .withRequestBody(matchingJsonPath("$.method", equalTo("notifications/initialized")))
                .willReturn(aResponse().withStatus(202)));
        wm.stubFor(post(urlEqualTo("/api/v1/mcp?key=abc&x=%2F"))
                .withRequestBody(matchingJsonPath("$.method", equalTo("tools/call")))
                .willReturn(aResponse().withStatus(200).withHeader("Content-Type", "text/event-stream")
                        .withBody("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"c-1\",\"result\":{}}\n\n")));
        wm.stubFor(get(urlEqualTo("/api/v1/mcp?key=abc&x=%2F")).willReturn(aResponse().withStatus(405)));
        wm.stubFor(delete(urlEqualTo("/api/v1/mcp?key=abc&x=%2F")).willReturn(aResponse().withStatus(405)));

        try (HttpTransport t = open(HttpTransport.newBuilder(endpoint()).header("X-Api-Key", "k-123"))) {
            t.exchange(HttpTransportTest.initialize(1), TestContext.of(1));
            t.handshakeCompleted("2025-06-18"); // the client tells the version before notifications/initialized
            t.exchange(HttpTransportTest.INITIALIZED, TestContext.none());
            t.exchange(new JsonRpcMessage.Request(RequestId.of("c-1"), "tools/call",
                    Map.of("name", "x", "arguments", Map.of("a", 1))), TestContext.of(2));
        }

        wm.verify(postRequestedFor(urlEqualTo("/api/v1/mcp?key=abc&x=%2F"))
                .withRequestBody(matchingJsonPath("$.method", equalTo("initialize")))
                .withHeader("Accept", equalTo("application/json, text/event-stream"))
                .withHeader("Content-Type", equalTo("application/json"))
                .withHeader("X-Api-Key", equalTo("k-123"))
                .withHeader("Mcp-Session-Id", absent())
                .withHeader("MCP-Protocol-Version", absent()));
        wm.verify(postRequestedFor(urlEqualTo("/api/v1/mcp?key=abc&x=%2F"))
                .withRequestBody(equalToJson("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"))
                .withHeader("Mcp-Session-Id", equalTo("0f3c-SESSION"))
                .withHeader("MCP-Protocol-Version", equalTo("2025-06-18")));
        wm.verify(postRequestedFor(urlEqualTo("/api/v1/mcp?key=abc&x=%2F"))
                .withRequestBody(equalToJson("{\"jsonrpc\":\"2.0\",\"id\":\"c-1\",\"method\":\"tools/call\","
                        + "\"params\":{\"name\":\"x\",\"arguments\":{\"a\":1}}}"))
                .withHeader("Mcp-Session-Id", equalTo("0f3c-SESSION"))
                .withHeader("MCP-Protocol-Version", equalTo("2025-06-18"))
                .withHeader("X-Api-Key", equalTo("k-123")));
        wm.verify(deleteRequestedFor(urlEqualTo("/api/v1/mcp?key=abc&x=%2F"))
                .withHeader("Mcp-Session-Id", equalTo("0f3c-SESSION"))
                .withHeader("X-Api-Key", equalTo("k-123")));
        assertThat(sink.messages()).hasSize(2);
        assertThat(sink.messages().get(1)).isEqualTo(new JsonRpcMessage.Response(RequestId.of("c-1"), Map.of()));
    }

    @Test
    void forbiddenCarriesChallengesAndNeverTheBody() throws Exception {
        wm.stubFor(post(urlEqualTo("/api/v1/mcp?key=abc&x=%2F")).willReturn(aResponse().withStatus(403)
                .withHeader("WWW-Authenticate", "Bearer error=\"insufficient_scope\", scope=\"admin\"")
                .withHeader("Content-Type", "application/json")
                .withBody("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32000,\"message\":\"SECRET-BODY\"}}")));
        try (HttpTransport t = open(HttpTransport.newBuilder(endpoint()))) {
            assertThatThrownBy(() -> t.exchange(new JsonRpcMessage.Request(RequestId.of(5), "tools/list", null),
                    TestContext.of(5)))
                    .isInstanceOfSatisfying(McpHttpStatusException.class, e -> {
                        assertThat(e.statusCode()).isEqualTo(403);
                        assertThat(e.authParameters()).containsEntry("error", "insufficient_scope")
                                .containsEntry("scope", "admin");
                        assertThat(e.getMessage()).contains("POST tools/list (id 5)").contains("403")
                                .doesNotContain("SECRET-BODY").doesNotContain("key=abc");
                    });
        }
    }

    @Test
    void notFoundWithoutSessionIsTheServersJsonRpcError() throws Exception {
        wm.stubFor(post(urlEqualTo("/api/v1/mcp?key=abc&x=%2F")).willReturn(aResponse().withStatus(404)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"jsonrpc\":\"2.0\",\"id\":6,\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}")));
        try (HttpTransport t = open(HttpTransport.newBuilder(endpoint()))) {
            t.exchange(new JsonRpcMessage.Request(RequestId.of(6), "foo/bar", null), TestContext.of(6));
        }
        assertThat(sink.messages()).containsExactly(new JsonRpcMessage.ErrorResponse(RequestId.of(6),
                JsonRpcError.of(-32601, "Method not found")));
    }

    @Test
    void serverErrorOnANotificationIsAStatusException() throws Exception {
        wm.stubFor(post(urlEqualTo("/api/v1/mcp?key=abc&x=%2F")).willReturn(aResponse().withStatus(503)));
        try (HttpTransport t = open(HttpTransport.newBuilder(endpoint()))) {
            assertThatThrownBy(() -> t.exchange(new JsonRpcMessage.Notification("notifications/roots/list_changed",
                    null), TestContext.none()))
                    .isInstanceOfSatisfying(McpHttpStatusException.class, e -> {
                        assertThat(e.statusCode()).isEqualTo(503);
                        assertThat(e.getMessage()).contains("notifications/roots/list_changed");
                        assertThat(e.wwwAuthenticate()).isEmpty();
                    });
        }
    }

    @Test
    void seeOtherIsNotFollowed() throws Exception {
        wm.stubFor(post(urlEqualTo("/api/v1/mcp?key=abc&x=%2F")).willReturn(aResponse().withStatus(303)
                .withHeader("Location", "/other")));
        try (HttpTransport t = open(HttpTransport.newBuilder(endpoint()))) {
            assertThatThrownBy(() -> t.exchange(new JsonRpcMessage.Request(RequestId.of(1), "ping", null),
                    TestContext.of(1)))
                    .isInstanceOfSatisfying(McpHttpStatusException.class,
                            e -> assertThat(e.statusCode()).isEqualTo(303));
        }
        wm.verify(0, com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor(urlEqualTo("/other")));
    }

    @Test
    void builderRejectsOwnedRestrictedAndBrokenHeadersWithoutEchoingValues() {
        HttpTransport.Builder b = HttpTransport.newBuilder(endpoint());
        assertThatThrownBy(() -> b.header("Mcp-Session-Id", "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.header("accept", "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.header("Host", "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.header("Bad Name", "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.header("X-Token", "sec\r\nret"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("X-Token").hasMessageNotContaining("sec");
        assertThatThrownBy(() -> HttpTransport.newBuilder("http://user:pw@127.0.0.1/mcp"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageNotContaining("pw");
        assertThatThrownBy(() -> HttpTransport.newBuilder("ftp://127.0.0.1/mcp"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(b.header("Authorization", "Bearer hunter2").toString())
                .doesNotContain("hunter2").doesNotContain("key=abc").contains("Authorization: <redacted>");
        assertThat(b.build().describe()).isEqualTo("http://127.0.0.1:" + wm.port());
    }
}
