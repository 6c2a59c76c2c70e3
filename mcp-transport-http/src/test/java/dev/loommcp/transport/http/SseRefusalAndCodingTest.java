package dev.loommcp.transport.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import dev.loommcp.McpClient;
import dev.loommcp.McpTransportException;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.RequestOptions;
import dev.loommcp.internal.json.Json;
import dev.loommcp.schema.TextContent;
import dev.loommcp.testing.LeakCheck;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 27 items 4 and 5 over the HTTP+SSE transport of 2024-11-05: its GET and its POSTs refused with 429, or 503
 * with {@code Retry-After}, are sent again within their deadline (or fail typed), and a gzip-encoded event stream is
 * decoded as its events arrive; another coding is named.
 */
@ExtendWith(LeakCheck.class)
class SseRefusalAndCodingTest {

    private static final String STOP = "\u0000stop";

    private TestServer server;
    private volatile LinkedBlockingQueue<String> events = new LinkedBlockingQueue<>();
    private final AtomicInteger gets = new AtomicInteger();
    private final AtomicInteger calls = new AtomicInteger();
    /** The Content-Encoding of the stream: null, "gzip", or another. */
    private volatile String coding;
    /** How the GET numbered n (1, 2, ...) is refused, as {status, Retry-After}, or null to serve it. */
    private volatile java.util.function.IntFunction<String[]> refuseGet = n -> null;
    /** How the tools/call POST numbered n is refused, or null to accept it. */
    private volatile java.util.function.IntFunction<String[]> refuseCall = n -> null;

    @BeforeEach
    void start() throws IOException {
        server = new TestServer();
        server.handler(this::handle);
    }

    @AfterEach
    void stop() {
        events.add(STOP);
        server.close();
    }

    private static boolean refused(HttpExchange ex, String[] refusal) throws IOException {
        if (refusal == null) {
            return false;
        }
        if (refusal[1] != null) {
            ex.getResponseHeaders().set("Retry-After", refusal[1]);
        }
        TestServer.status(ex, Integer.parseInt(refusal[0]));
        return true;
    }

    private void handle(TestServer.Req req, HttpExchange ex) throws Exception {
        String path = req.uri().getPath();
        if (req.method().equals("GET") && path.equals("/sse")) {
            if (refused(ex, refuseGet.apply(gets.incrementAndGet()))) {
                return;
            }
            LinkedBlockingQueue<String> mine = new LinkedBlockingQueue<>();
            events = mine;
            ex.getResponseHeaders().set("Content-Type", "text/event-stream");
            if (coding != null) {
                ex.getResponseHeaders().set("Content-Encoding", coding);
            }
            ex.sendResponseHeaders(200, 0);
            OutputStream raw = ex.getResponseBody();
            // a sync-flushing gzip stream: each event's bytes go out as it is written, the stream goes on
            try (OutputStream out = "gzip".equals(coding) ? new GZIPOutputStream(raw, true) : raw) {
                write(out, "event: endpoint\ndata: /messages?sessionId=s1\n\n");
                while (true) {
                    String e = mine.poll(30, TimeUnit.SECONDS);
                    if (e == null || e.equals(STOP)) {
                        return;
                    }
                    write(out, e);
                }
            }
        }
        if (req.method().equals("POST") && path.equals("/messages")) {
            Map<?, ?> m = (Map<?, ?>) Json.read(req.body());
            if ("tools/call".equals(m.get("method")) && refused(ex, refuseCall.apply(calls.incrementAndGet()))) {
                return;
            }
            TestServer.status(ex, 202);
            if (m.get("id") != null && m.get("method") != null) {
                events.add("event: message\ndata: " + SseTransportTest.standardAnswer(m) + "\n\n");
            }
            return;
        }
        TestServer.status(ex, 405);
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private McpClient client() {
        return McpClient.newBuilder(SseTransport.newBuilder(server.uri("/sse")).build())
                .protocolMode(ProtocolMode.LEGACY).requestTimeout(Duration.ofSeconds(20)).build();
    }

    private List<TestServer.Req> toolCalls() {
        return server.requests("POST").stream().filter(r -> "tools/call".equals(r.rpcMethod())).toList();
    }

    @Test
    void aRefusedGetAndAPostRefusedWith503AreSentAgain() throws Exception {
        refuseGet = n -> n == 1 ? new String[] {"429", "0"} : null;
        refuseCall = n -> n == 1 ? new String[] {"503", "1"} : null;
        try (McpClient client = client()) {
            client.connect();
            assertThat(((TextContent) client.callTool("t", Map.of()).content().get(0)).text()).isEqualTo("done");
        }
        assertThat(gets.get()).isEqualTo(2);
        List<TestServer.Req> posts = toolCalls();
        assertThat(posts).hasSize(2);
        assertThat(Duration.ofNanos(posts.get(1).nanos() - posts.get(0).nanos())).isGreaterThanOrEqualTo(
                Duration.ofMillis(990));
    }

    @Test
    void aPostRefusedPastTheDeadlineFailsAtOnceTyped() throws Exception {
        refuseCall = n -> new String[] {"429", "45"};
        try (McpClient client = client()) {
            client.connect();
            assertThatThrownBy(() -> client.callTool("t", Map.of(), RequestOptions.ofTimeout(Duration.ofSeconds(10))))
                    .isInstanceOfSatisfying(McpRateLimitedException.class, e -> {
                        assertThat(e.retryAfter()).contains(Duration.ofSeconds(45));
                        assertThat(e.attempts()).isEqualTo(1);
                    });
            client.ping(); // the session goes on
        }
        assertThat(toolCalls()).hasSize(1);
    }

    @Test
    void aGzipEventStreamIsDecodedAsItsEventsArrive() throws Exception {
        coding = "gzip";
        try (McpClient client = client()) {
            client.connect(); // the endpoint and initialize's answer come on the stream, which stays open
            assertThat(((TextContent) client.callTool("t", Map.of()).content().get(0)).text()).isEqualTo("done");
        }
    }

    @Test
    void anEventStreamInAnotherCodingIsNamed() throws Exception {
        coding = "br";
        try (McpClient client = client()) {
            assertThatThrownBy(client::connect).isInstanceOf(McpTransportException.class)
                    .hasMessageContaining("Content-Encoding br, which this client cannot decode");
        }
    }
}
