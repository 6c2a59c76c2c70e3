package dev.loommcp.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.Deadline;
import dev.loommcp.spi.RequestRouting;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.RecordingSink;
import dev.loommcp.testkit.ReferenceServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The modern era against the real reference server (TypeScript SDK v2 {@code @modelcontextprotocol/server} 2.4.0,
 * the project's dual-era fixture {@code test-servers/modern-fixture.mjs} over HTTP on a free loopback port), driven
 * through the SPI with routing on each send as the core puts it there: the server decodes every encoded
 * {@code Mcp-Param-*} value and checks it against the body, answers header mismatches, removed methods and unknown
 * versions with JSON-RPC errors on 4xx statuses, and keeps a listen stream open for as long as it likes.
 */
@ExtendWith(LeakCheck.class)
class HttpModernReferenceServerTest {

    static final String V = "2026-07-28";
    static Process fixture;
    static URI endpoint;

    @BeforeAll
    static void startFixture() throws Exception {
        Path script = ReferenceServer.nodeDir().resolve("modern-fixture.mjs");
        Assumptions.assumeTrue(Files.exists(script), "the modern fixture (test-servers/modern-fixture.mjs) is not here");
        fixture = new ProcessBuilder("node", "-r", ReferenceServer.nodeDir().resolve("loopback-only.cjs").toString(),
                script.toString(), "--http", "0")
                .directory(ReferenceServer.nodeDir().toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        CompletableFuture<String> first = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("modern-fixture-stdout").start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(fixture.getInputStream(),
                    StandardCharsets.UTF_8))) {
                first.complete(r.readLine());
                while (r.readLine() != null) {
                    // drain until the process ends
                }
            } catch (Exception e) {
                first.completeExceptionally(e);
            }
        });
        String line = first.get(30, TimeUnit.SECONDS);
        assertThat(line).as("the fixture's endpoint line").startsWith("http://127.0.0.1:");
        endpoint = URI.create(line.trim());
    }

    @AfterAll
    static void stopFixture() throws Exception {
        if (fixture != null) {
            fixture.destroy();
            if (!fixture.waitFor(5, TimeUnit.SECONDS)) {
                fixture.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
    }

    static Map<String, Object> params(Map<String, Object> p, String version) {
        Map<String, Object> out = new LinkedHashMap<>(p);
        out.put("_meta", Map.of("io.modelcontextprotocol/protocolVersion", version,
                "io.modelcontextprotocol/clientCapabilities", Map.of(),
                "io.modelcontextprotocol/clientInfo", Map.of("name", "loom-test", "version", "1")));
        return out;
    }

    /** One modern request through {@code exchange}; returns what the sink got for it. */
    static JsonRpcMessage call(HttpTransport t, RecordingSink sink, long id, String method, Map<String, Object> p,
                               String name, Map<String, String> headers, String version) throws Exception {
        t.exchange(new JsonRpcMessage.Request(RequestId.of(id), method, params(p, version)),
                TestContext.of(id).routing(new RequestRouting(version, method, name, headers)));
        List<JsonRpcMessage> got = sink.messages();
        return got.get(got.size() - 1);
    }

    static Map<String, Object> route(String region, int count) {
        return Map.of("name", "route", "arguments", Map.of("region", region, "count", count));
    }

    @Test
    void theServerDecodesEveryEncodedParameterAndMatchesItToTheBody() throws Exception {
        RecordingSink sink = new RecordingSink();
        try (HttpTransport t = HttpTransport.newBuilder(endpoint).build()) {
            t.open(TransportContext.of(sink, Deadline.NONE));
            long id = 1;
            for (String region : List.of("us-west1", "us west 1", "Hello, 世界", " padded ", "\tindented",
                    "line1\r\nline2", "=?base64?literal?=", "")) {
                JsonRpcMessage m = call(t, sink, id++, "tools/call", route(region, -7), "route",
                        Map.of("Region", region, "Count", "-7"), V);
                assertThat(m).as("region %s", region).isInstanceOf(JsonRpcMessage.Response.class);
                assertThat(String.valueOf(((JsonRpcMessage.Response) m).result()))
                        .contains("region=" + region + " count=-7");
            }
        }
    }

    @Test
    void errorsOn4xxStatusesAreTheRequestsAnswers() throws Exception {
        RecordingSink sink = new RecordingSink();
        try (HttpTransport t = HttpTransport.newBuilder(endpoint).build()) {
            t.open(TransportContext.of(sink, Deadline.NONE));
            JsonRpcMessage mismatch = call(t, sink, 1, "tools/call", route("a", 1), "route",
                    Map.of("Region", "b", "Count", "1"), V);
            assertThat(((JsonRpcMessage.ErrorResponse) mismatch).error().code()).isEqualTo(-32020);
            JsonRpcMessage missing = call(t, sink, 2, "tools/call", route("a", 1), "route", Map.of(), V);
            assertThat(((JsonRpcMessage.ErrorResponse) missing).error().code()).isEqualTo(-32020);
            JsonRpcMessage ping = call(t, sink, 3, "ping", Map.of(), null, Map.of(), V);
            assertThat(((JsonRpcMessage.ErrorResponse) ping).error().code()).isEqualTo(-32601);
            JsonRpcMessage version = call(t, sink, 4, "tools/list", Map.of(), null, Map.of(), "2099-01-01");
            JsonRpcMessage.ErrorResponse unsupported = (JsonRpcMessage.ErrorResponse) version;
            assertThat(unsupported.error().code()).isEqualTo(-32022);
            assertThat(unsupported.error().data()).isEqualTo(Map.of("supported", List.of(V), "requested",
                    "2099-01-01"));
            assertThat(sink.messages()).extracting(m -> ((JsonRpcMessage.ErrorResponse) m).id())
                    .containsExactly(RequestId.of(1), RequestId.of(2), RequestId.of(3), RequestId.of(4));
        }
    }

    @Test
    void aListenStreamOutlivesTheIdleTimeoutAndCancellingEndsIt() throws Exception {
        RecordingSink sink = new RecordingSink();
        try (HttpTransport t = HttpTransport.newBuilder(endpoint).idleTimeout(Duration.ofMillis(300)).build()) {
            t.open(TransportContext.of(sink, Deadline.NONE));
            TestContext listen = new TestContext(RequestId.of("L1"), Deadline.NONE)
                    .routing(new RequestRouting(V, "subscriptions/listen", null, Map.of()));
            t.send(new JsonRpcMessage.Request(RequestId.of("L1"), "subscriptions/listen",
                    params(Map.of("notifications", Map.of("toolsListChanged", true)), V)), listen);
            JsonRpcMessage ack = sink.next(Duration.ofSeconds(10));
            assertThat(ack).isInstanceOf(JsonRpcMessage.Notification.class);
            assertThat(((JsonRpcMessage.Notification) ack).method())
                    .isEqualTo("notifications/subscriptions/acknowledged");
            Thread.sleep(1_200); // four idle timeouts without a byte: the stream must stay open
            assertThat(sink.sendFailures()).isEmpty();
            assertThat(t.activeExchangeCount()).isEqualTo(1);
            listen.cancel();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> t.activeExchangeCount() == 0);
            assertThat(sink.sendFailures()).isEmpty();
        }
    }
}
