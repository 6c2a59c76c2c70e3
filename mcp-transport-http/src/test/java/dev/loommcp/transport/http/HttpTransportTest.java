package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.TestServer.json;
import static dev.loommcp.transport.http.TestServer.result;
import static dev.loommcp.transport.http.TestServer.sse;
import static dev.loommcp.transport.http.TestServer.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpProtocolException;
import dev.loommcp.McpSessionExpiredException;
import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.TestSendContext;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The transport driven through the SPI against the scriptable in-process server. */
@ExtendWith(LeakCheck.class)
class HttpTransportTest extends ServerTestBase {

    static final Duration WAIT = Duration.ofSeconds(10);

    HttpTransport open() {
        return open(HttpTransport.newBuilder(server.uri("/mcp?tenant=a")));
    }

    static JsonRpcMessage.Request request(long id, String method) {
        return new JsonRpcMessage.Request(RequestId.of(id), method, Map.of());
    }

    static JsonRpcMessage.Request initialize(long id) {
        return new JsonRpcMessage.Request(RequestId.of(id), "initialize",
                Map.of("protocolVersion", "2025-11-25", "capabilities", Map.of(),
                        "clientInfo", Map.of("name", "t", "version", "1")));
    }

    static final JsonRpcMessage.Notification INITIALIZED =
            new JsonRpcMessage.Notification("notifications/initialized", null);

    static String initResult(Object id, String version) {
        return result(id, "{\"protocolVersion\":\"" + version + "\",\"capabilities\":{},"
                + "\"serverInfo\":{\"name\":\"s\",\"version\":\"1\"}}");
    }

    /** A stateful server: initialize gets a session, notifications 202, other requests a JSON result. */
    void statefulJsonServer(String session) {
        server.handler((req, ex) -> {
            if (req.method().equals("GET")) {
                TestServer.status(ex, 405);
                return;
            }
            if (req.method().equals("DELETE")) {
                TestServer.status(ex, 204);
                return;
            }
            String m = req.rpcMethod();
            if ("initialize".equals(m)) {
                ex.getResponseHeaders().set("Mcp-Session-Id", session);
                json(ex, 200, initResult(req.rpcId(), "2025-11-25"));
            } else if (req.rpcId() == null) {
                TestServer.status(ex, 202);
            } else {
                json(ex, 200, result(req.rpcId(), "{\"ok\":true}"));
            }
        });
    }

    @Test
    void jsonAnswersSessionAndHeaders() throws Exception {
        statefulJsonServer("sess-1");
        try (HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp?tenant=a"))
                .header("Authorization", "Bearer secret-token")
                .header("X-Custom", "v1"))) {
            t.exchange(initialize(1), TestSendContext.of(1));
            assertThat(sink.next(WAIT)).isInstanceOf(JsonRpcMessage.Response.class);
            assertThat(t.sessionId()).contains("sess-1");
            // the client tells the version first, so that notifications/initialized carries it
            t.handshakeCompleted("2025-11-25");
            t.exchange(INITIALIZED, TestSendContext.none());
            t.exchange(request(2, "tools/list"), TestSendContext.of(2));
            JsonRpcMessage r = sink.next(WAIT);
            assertThat(r).isEqualTo(new JsonRpcMessage.Response(RequestId.of(2), Map.of("ok", true)));

            List<TestServer.Req> posts = server.requests("POST");
            assertThat(posts).hasSize(3);
            TestServer.Req init = posts.get(0);
            assertThat(init.uri().toString()).isEqualTo("/mcp?tenant=a");
            assertThat(init.header("Accept")).isEqualTo("application/json, text/event-stream");
            assertThat(init.header("Content-Type")).isEqualTo("application/json");
            assertThat(init.header("Authorization")).isEqualTo("Bearer secret-token");
            assertThat(init.header("X-Custom")).isEqualTo("v1");
            assertThat(init.header("Mcp-Session-Id")).isNull();
            assertThat(init.header("MCP-Protocol-Version")).isNull();
            TestServer.Req initialized = posts.get(1);
            assertThat(initialized.header("Mcp-Session-Id")).isEqualTo("sess-1");
            assertThat(initialized.header("MCP-Protocol-Version")).isEqualTo("2025-11-25");
            TestServer.Req list = posts.get(2);
            assertThat(list.header("Mcp-Session-Id")).isEqualTo("sess-1");
            assertThat(list.header("MCP-Protocol-Version")).isEqualTo("2025-11-25");
            assertThat(list.header("Authorization")).isEqualTo("Bearer secret-token");
            assertThat(t.toString()).doesNotContain("secret-token").doesNotContain("tenant=a")
                    .contains("Authorization: <redacted>");
            // the GET stream starts in the background: wait for its one try before closing
            org.awaitility.Awaitility.await().atMost(WAIT).until(() -> server.requests("GET").size() == 1);
        }
        // close sent DELETE with the session
        List<TestServer.Req> deletes = server.requests("DELETE");
        assertThat(deletes).hasSize(1);
        assertThat(deletes.get(0).header("Mcp-Session-Id")).isEqualTo("sess-1");
        assertThat(deletes.get(0).header("Authorization")).isEqualTo("Bearer secret-token");
        // the GET stream was tried once and the 405 accepted
        assertThat(server.requests("GET")).hasSize(1);
    }

    @Test
    void sseAnswerDeliversServerRequestsNotificationsAndResponseInOrder() throws Exception {
        server.handler((req, ex) -> {
            OutputStream out = sse(ex);
            write(out, ": keep-alive comment\n\n");
            write(out, "id: e1\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
                    + "\"params\":{\"progressToken\":1,\"progress\":1}}\n\n");
            write(out, "id: e2\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"elicitation/create\","
                    + "\r\ndata: \"params\":{}}\r\n\r\n");
            write(out, "event: message\nid: e3\ndata: " + result(req.rpcId(), "{\"n\":1}") + "\n\n");
            write(out, "data: {\"jsonrpc\":\"2.0\",\"method\":\"after/response\"}\n\n");
        });
        try (HttpTransport t = open()) {
            t.exchange(request(7, "tools/call"), TestSendContext.of(7));
            assertThat(sink.messages()).hasSize(3);
            assertThat(sink.messages().get(0)).isInstanceOf(JsonRpcMessage.Notification.class);
            assertThat(sink.messages().get(1)).isEqualTo(new JsonRpcMessage.Request(RequestId.of("s1"),
                    "elicitation/create", Map.of()));
            assertThat(sink.messages().get(2)).isEqualTo(new JsonRpcMessage.Response(RequestId.of(7), Map.of("n", 1)));
        }
    }

    @Test
    void aNotificationAnsweredWithAnEndlessStreamDoesNotHoldTheSender() throws Exception {
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        server.handler((req, ex) -> {
            OutputStream out = sse(ex);
            write(out, ": keep-alive\n\n");
            // never ends until the test is over (a broken server)
            while (!release.await(50, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                write(out, ": still here\n\n");
            }
        });
        try (HttpTransport t = open()) {
            t.exchange(INITIALIZED, TestSendContext.none());
            assertThat(server.requests("POST")).hasSize(1);
        } finally {
            release.countDown();
        }
        assertThat(sink.messages()).isEmpty();
    }

    @Test
    void headerValuesWithControlCharactersAreRefusedWithoutQuotingThem() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> HttpTransport.newBuilder(server.uri("/mcp"))
                        .header("Authorization", "Bearer sk-\u001b[31mTOPSECRET"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Authorization")
                .hasMessageNotContaining("TOPSECRET");
        HttpTransport.newBuilder(server.uri("/mcp")).header("X-Tab", "a\tb"); // HTAB is allowed
    }

    @Test
    void anEndpointPortOutOfRangeIsRefused() {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> HttpTransport.newBuilder("http://127.0.0.1:99999/mcp"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("99999");
    }

    @Test
    void notificationsAccept202And200WithBody() throws Exception {
        AtomicInteger n = new AtomicInteger();
        server.handler((req, ex) -> {
            if (n.incrementAndGet() == 1) {
                TestServer.status(ex, 202);
            } else {
                json(ex, 200, "{\"jsonrpc\":\"2.0\",\"result\":{}}");
            }
        });
        try (HttpTransport t = open()) {
            t.exchange(INITIALIZED, TestSendContext.none());
            t.exchange(new JsonRpcMessage.Response(RequestId.of("s1"), Map.of()), TestSendContext.none());
        }
        assertThat(server.requests("POST")).hasSize(2);
        assertThat(sink.messages()).isEmpty();
    }

    @Test
    void droppedStreamIsResumedWithLastEventIdAfterRetry() throws Exception {
        AtomicReference<Long> closedAt = new AtomicReference<>();
        server.handler((req, ex) -> {
            if (req.method().equals("POST")) {
                OutputStream out = sse(ex);
                write(out, "id: ev-1\nretry: 300\ndata:\n\n");
                write(out, "id: ev-2\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"srv-1\",\"method\":\"ping\"}\n\n");
                closedAt.set(System.nanoTime());
                return; // closed without the response
            }
            if (req.method().equals("GET")) {
                assertThat(req.header("Last-Event-ID")).isEqualTo("ev-2");
                OutputStream out = sse(ex);
                // replays the server request already seen, then the response
                write(out, "id: ev-2\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"srv-1\",\"method\":\"ping\"}\n\n");
                write(out, "id: ev-3\ndata: " + result(5, "{}") + "\n\n");
                write(out, "id: ev-3\ndata: " + result(5, "{}") + "\n\n");
            }
        });
        try (HttpTransport t = open()) {
            t.exchange(request(5, "tools/call"), TestSendContext.of(5));
            assertThat(sink.messages()).containsExactly(
                    new JsonRpcMessage.Request(RequestId.of("srv-1"), "ping", null),
                    new JsonRpcMessage.Response(RequestId.of(5), Map.of()));
            TestServer.Req get = server.requests("GET").get(0);
            assertThat(get.header("Accept")).isEqualTo("text/event-stream");
            long waitedMillis = TimeUnit.NANOSECONDS.toMillis(get.nanos() - closedAt.get());
            assertThat(waitedMillis).isGreaterThanOrEqualTo(290);
        }
    }

    @Test
    void streamEndingWithoutEventIdFails() throws Exception {
        server.handler((req, ex) -> {
            OutputStream out = sse(ex);
            write(out, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n\n");
        });
        try (HttpTransport t = open()) {
            assertThatThrownBy(() -> t.exchange(request(3, "tools/call"), TestSendContext.of(3)))
                    .isInstanceOf(McpTransportException.class)
                    .hasMessageContaining("tools/call (id 3)")
                    .hasMessageContaining("no event id");
        }
    }

    @Test
    void resumptionIsBounded() throws Exception {
        server.handler((req, ex) -> {
            OutputStream out = sse(ex);
            if (req.method().equals("POST")) {
                write(out, "id: a\nretry: 10\ndata:\n\n");
            }
            // GETs: end at once, nothing new
        });
        try (HttpTransport t = open()) {
            assertThatThrownBy(() -> t.exchange(request(3, "tools/call"), TestSendContext.of(3)))
                    .isInstanceOf(McpTransportException.class)
                    .hasMessageContaining("could not be resumed after " + HttpTransport.MAX_STREAM_ATTEMPTS);
        }
        assertThat(server.requests("GET")).hasSize(HttpTransport.MAX_STREAM_ATTEMPTS);
    }

    @Test
    void a404ForARequestInASessionDropsTheSessionAndReportsItExpired() throws Exception {
        // the transport drops the session and says so; the client starts the new one with initialize
        AtomicInteger sessions = new AtomicInteger();
        AtomicReference<String> live = new AtomicReference<>();
        server.handler((req, ex) -> {
            if (!req.method().equals("POST")) {
                TestServer.status(ex, 405);
                return;
            }
            String sid = req.header("Mcp-Session-Id");
            if (sid == null) {
                // whatever request comes without a session starts one (the transport does not look at methods)
                String s = "s" + sessions.incrementAndGet();
                live.set(s);
                ex.getResponseHeaders().set("Mcp-Session-Id", s);
                json(ex, 200, req.rpcId() == null ? "{}" : result(req.rpcId(), "{\"started\":\"" + s + "\"}"));
                return;
            }
            if (!live.get().equals(sid)) {
                json(ex, 404, "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32001,\"message\":\"gone\"}}");
                return;
            }
            json(ex, 200, result(req.rpcId(), "{\"session\":\"" + sid + "\"}"));
        });
        try (HttpTransport t = open()) {
            t.exchange(request(1, "x/start"), TestSendContext.of(1));
            assertThat(t.sessionId()).contains("s1");
            t.handshakeCompleted("2025-06-18");
            live.set("expired-on-the-server");
            sink.clear();
            assertThatThrownBy(() -> t.exchange(request(2, "x/work"), TestSendContext.of(2)))
                    .isInstanceOf(McpSessionExpiredException.class)
                    .hasMessageContaining("x/work (id 2)").hasMessageContaining("HTTP 404");
            assertThat(t.sessionId()).as("the expired session is dropped").isEmpty();
            assertThat(sink.messages()).as("the 404's error body answers nobody").isEmpty();

            // until a new session starts nothing but initialize goes out (never a request without the session,
            // which the server would refuse as if it had answered it): refused unsent (issue 26 item 23)
            assertThatThrownBy(() -> t.exchange(request(9, "x/again"), TestSendContext.of(9)))
                    .isInstanceOfSatisfying(McpSessionExpiredException.class,
                            e -> assertThat(e.wasSent()).isFalse());
            // initialize goes without a session and takes the one its answer returns
            t.exchange(request(3, "initialize"), TestSendContext.of(3));
            assertThat(t.sessionId()).contains("s2");
            t.exchange(request(4, "x/work"), TestSendContext.of(4));
            assertThat(sink.messages()).containsExactly(
                    new JsonRpcMessage.Response(RequestId.of(3), Map.of("started", "s2")),
                    new JsonRpcMessage.Response(RequestId.of(4), Map.of("session", "s2")));
        }
        List<TestServer.Req> posts = server.requests("POST");
        assertThat(posts.get(2).header("Mcp-Session-Id")).isNull();
        assertThat(posts.get(2).header("MCP-Protocol-Version")).as("the whole session went").isNull();
        assertThat(posts.get(3).header("Mcp-Session-Id")).isEqualTo("s2");
    }

    @Test
    void sameOriginRedirectsAreFollowedWithMethodBodyAndHeaders() throws Exception {
        server.handler((req, ex) -> {
            String path = req.uri().getPath();
            if (path.equals("/mcp")) {
                ex.getResponseHeaders().set("Location", "/moved");
                TestServer.status(ex, 307);
            } else if (path.equals("/moved")) {
                ex.getResponseHeaders().set("Location", server.uri("/final?x=1").toString());
                TestServer.status(ex, 308);
            } else {
                json(ex, 200, result(req.rpcId(), "{}"));
            }
        });
        try (HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).header("Authorization", "Bearer k"))) {
            t.exchange(request(4, "ping"), TestSendContext.of(4));
        }
        List<TestServer.Req> posts = server.requests("POST");
        assertThat(posts).hasSize(3);
        assertThat(posts.get(2).uri().toString()).isEqualTo("/final?x=1");
        for (TestServer.Req r : posts) {
            assertThat(r.header("Authorization")).isEqualTo("Bearer k");
            assertThat(r.rpcMethod()).isEqualTo("ping");
        }
    }

    @Test
    void crossOriginRedirectIsRefusedAndHeadersStayHome() throws Exception {
        try (TestServer other = new TestServer()) {
            other.handler((req, ex) -> json(ex, 200, result(req.rpcId(), "{}")));
            server.handler((req, ex) -> {
                ex.getResponseHeaders().set("Location", other.uri("/mcp").toString());
                TestServer.status(ex, 307);
            });
            try (HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).header("Authorization", "k"))) {
                assertThatThrownBy(() -> t.exchange(request(4, "ping"), TestSendContext.of(4)))
                        .isInstanceOfSatisfying(McpHttpStatusException.class,
                                e -> assertThat(e.statusCode()).isEqualTo(307))
                        .hasMessageContaining("another origin");
            }
            assertThat(other.requests).isEmpty();
        }
    }

    @Test
    void redirectLoopsAreBoundedToFive() throws Exception {
        server.handler((req, ex) -> {
            ex.getResponseHeaders().set("Location", "/loop" + server.requests.size());
            TestServer.status(ex, 307);
        });
        try (HttpTransport t = open()) {
            assertThatThrownBy(() -> t.exchange(request(4, "ping"), TestSendContext.of(4)))
                    .isInstanceOf(McpHttpStatusException.class)
                    .hasMessageContaining("more than 5");
        }
        assertThat(server.requests).hasSize(6);
    }

    @Test
    void found302OnPostIsAnErrorNamingTheStatus() throws Exception {
        server.handler((req, ex) -> {
            ex.getResponseHeaders().set("Location", "/elsewhere");
            TestServer.status(ex, 302);
        });
        try (HttpTransport t = open()) {
            assertThatThrownBy(() -> t.exchange(request(4, "ping"), TestSendContext.of(4)))
                    .isInstanceOfSatisfying(McpHttpStatusException.class,
                            e -> assertThat(e.statusCode()).isEqualTo(302))
                    .hasMessageContaining("HTTP 302");
        }
        assertThat(server.requests).hasSize(1);
    }

    @Test
    void stalledStreamHitsTheIdleTimeout() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        server.handler((req, ex) -> {
            OutputStream out = sse(ex);
            write(out, ": started\n\n");
            release.await(20, TimeUnit.SECONDS);
        });
        try (HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).idleTimeout(Duration.ofMillis(300)))) {
            assertThatThrownBy(() -> t.exchange(request(9, "tools/call"), TestSendContext.of(9)))
                    .isInstanceOf(McpTransportException.class)
                    .hasMessageContaining("idle timeout");
        } finally {
            release.countDown();
        }
    }

    @Test
    void commentsKeepASlowStreamAlive() throws Exception {
        server.handler((req, ex) -> {
            OutputStream out = sse(ex);
            for (int i = 0; i < 8; i++) {
                write(out, ": tick\n");
                Thread.sleep(100);
            }
            write(out, "data: " + result(req.rpcId(), "{}") + "\n\n");
        });
        try (HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).idleTimeout(Duration.ofMillis(400)))) {
            t.exchange(request(9, "tools/call"), TestSendContext.of(9));
            assertThat(sink.messages()).hasSize(1);
        }
    }

    @Test
    void cancellingAbortsTheExchangeAtOnce() throws Exception {
        CountDownLatch streaming = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        server.handler((req, ex) -> {
            OutputStream out = sse(ex);
            write(out, "id: 1\ndata:\n\n");
            streaming.countDown();
            release.await(20, TimeUnit.SECONDS);
        });
        try (HttpTransport t = open()) {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            TestSendContext ctx = TestSendContext.of(11);
            Thread sender = Thread.ofVirtual().start(() -> {
                try {
                    t.exchange(request(11, "tools/call"), ctx);
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            ctx.sender(sender);
            assertThat(streaming.await(10, TimeUnit.SECONDS)).isTrue();
            ctx.cancel();
            assertThat(sender.join(Duration.ofSeconds(5))).isTrue();
            assertThat(failure.get()).isInstanceOfAny(InterruptedException.class, McpTransportException.class);
        } finally {
            release.countDown();
        }
    }

    @Test
    void cancelHookAloneAbortsAReadWithoutInterruptAndClosesTheConnection() throws Exception {
        CountDownLatch streaming = new CountDownLatch(1);
        CountDownLatch disconnected = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        server.handler((req, ex) -> {
            OutputStream out = sse(ex);
            write(out, "id: 1\ndata:\n\n");
            streaming.countDown();
            try {
                // keep-alive comments until the client goes away
                while (!release.await(50, TimeUnit.MILLISECONDS)) {
                    write(out, ": ping\n");
                }
            } catch (java.io.IOException e) {
                disconnected.countDown();
            }
        });
        try (HttpTransport t = open()) {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            TestSendContext ctx = TestSendContext.of(12);
            Thread sender = Thread.ofVirtual().start(() -> {
                try {
                    t.exchange(request(12, "tools/call"), ctx);
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            assertThat(streaming.await(10, TimeUnit.SECONDS)).isTrue();
            ctx.cancel(); // no thread set: only the registered action runs
            assertThat(sender.join(Duration.ofSeconds(5))).isTrue();
            assertThat(failure.get()).isInstanceOf(McpTransportException.class).hasMessageContaining("aborted");
            // the response stream was closed at once: the server's next write fails, while the transport is open
            assertThat(disconnected.await(10, TimeUnit.SECONDS)).isTrue();
        } finally {
            release.countDown();
        }
    }

    @Test
    void closeAbortsInFlightRequests() throws Exception {
        CountDownLatch streaming = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        server.handler((req, ex) -> {
            if (!req.method().equals("POST")) {
                TestServer.status(ex, 405);
                return;
            }
            OutputStream out = sse(ex);
            streaming.countDown();
            release.await(20, TimeUnit.SECONDS);
        });
        HttpTransport t = open();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread sender = Thread.ofVirtual().start(() -> {
            try {
                t.exchange(request(13, "tools/call"), TestSendContext.of(13));
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        try {
            assertThat(streaming.await(10, TimeUnit.SECONDS)).isTrue();
            t.close();
            assertThat(sender.join(Duration.ofSeconds(5))).isTrue();
            assertThat(failure.get()).isInstanceOf(dev.loommcp.McpClosedException.class);
        } finally {
            release.countDown();
        }
    }

    @Test
    void getStreamDeliversServerMessagesAndReconnectsWithLastEventId() throws Exception {
        AtomicInteger gets = new AtomicInteger();
        CountDownLatch second = new CountDownLatch(1);
        server.handler((req, ex) -> {
            if (req.method().equals("GET")) {
                int n = gets.incrementAndGet();
                OutputStream out = sse(ex);
                if (n == 1) {
                    assertThat(req.header("Last-Event-ID")).isNull();
                    write(out, "retry: 50\nid: g1\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/"
                            + "list_changed\"}\n\n");
                    return; // drop: the client reconnects
                }
                if (n == 2) {
                    assertThat(req.header("Last-Event-ID")).isEqualTo("g1");
                    write(out, "id: g2\ndata: {\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"roots/list\"}\n\n");
                    second.countDown();
                    new CountDownLatch(1).await(20, TimeUnit.SECONDS); // stays open until the server stops
                }
                return;
            }
            if ("initialize".equals(req.rpcMethod())) {
                ex.getResponseHeaders().set("Mcp-Session-Id", "abc");
                json(ex, 200, initResult(req.rpcId(), "2025-11-25"));
            } else {
                TestServer.status(ex, 202);
            }
        });
        try (HttpTransport t = open()) {
            t.exchange(initialize(1), TestSendContext.of(1));
            t.exchange(INITIALIZED, TestSendContext.none());
            // cleared before the GET stream starts: its first event may arrive at once
            sink.clear();
            t.handshakeCompleted("2025-11-25");
            assertThat(sink.next(WAIT)).isEqualTo(new JsonRpcMessage.Notification("notifications/tools/list_changed",
                    null));
            assertThat(sink.next(WAIT)).isEqualTo(new JsonRpcMessage.Request(RequestId.of(99), "roots/list", null));
            assertThat(second.await(10, TimeUnit.SECONDS)).isTrue();
            TestServer.Req get = server.requests("GET").get(0);
            assertThat(get.header("Mcp-Session-Id")).isEqualTo("abc");
            assertThat(get.header("MCP-Protocol-Version")).isEqualTo("2025-11-25");
            assertThat(get.header("Accept")).isEqualTo("text/event-stream");
        }
    }

    @Test
    void getStreamGivesUpAfterBoundedFailures() throws Exception {
        server.handler((req, ex) -> {
            if (req.method().equals("GET")) {
                TestServer.status(ex, 503);
            } else {
                TestServer.status(ex, 202);
            }
        });
        try (HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).reconnectDelay(Duration.ofMillis(5)))) {
            t.handshakeCompleted("2025-11-25");
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60))
                    .until(() -> server.requests("GET").size() == HttpTransport.MAX_STREAM_ATTEMPTS + 1
                            && dev.loommcp.testing.LeakCheck.mcpThreads().stream()
                                    .noneMatch(th -> th.getName().startsWith("mcp-http-get")));
        }
    }

    @Test
    void errorStatusesMapToExceptionsOrRpcErrors() throws Exception {
        AtomicInteger n = new AtomicInteger();
        server.handler((req, ex) -> {
            switch (n.incrementAndGet()) {
                case 1 -> {
                    ex.getResponseHeaders().add("WWW-Authenticate", "Bearer realm=\"mcp\", "
                            + "resource_metadata=\"https://a.example/.well-known/oauth-protected-resource\", "
                            + "scope=\"files:read files:write\"");
                    json(ex, 401, "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32001,\"message\":\"no\"}}");
                }
                case 2 -> json(ex, 400, "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32602,"
                        + "\"message\":\"bad params\"}}");
                default -> TestServer.status(ex, 500);
            }
        });
        try (HttpTransport t = open()) {
            assertThatThrownBy(() -> t.exchange(request(1, "tools/list"), TestSendContext.of(1)))
                    .isInstanceOfSatisfying(McpHttpStatusException.class, e -> {
                        assertThat(e.statusCode()).isEqualTo(401);
                        assertThat(e.authParameters()).containsEntry("resource_metadata",
                                "https://a.example/.well-known/oauth-protected-resource")
                                .containsEntry("scope", "files:read files:write");
                        assertThat(e.getMessage()).contains("tools/list").contains("401");
                    });
            t.exchange(request(2, "tools/list"), TestSendContext.of(2));
            assertThat(sink.messages()).containsExactly(new JsonRpcMessage.ErrorResponse(RequestId.of(2),
                    new JsonRpcError(-32602, "bad params", null)));
            assertThatThrownBy(() -> t.exchange(request(3, "tools/list"), TestSendContext.of(3)))
                    .isInstanceOfSatisfying(McpHttpStatusException.class,
                            e -> assertThat(e.statusCode()).isEqualTo(500));
        }
    }

    /** Issue 8 item 10: an HTTP error body answering request 7 with id "7" or 7.0 is still request 7's answer. */
    @Test
    void anErrorBodyWhoseIdIsTheRequestsIdAsTextOrDecimalIsItsAnswer() throws Exception {
        AtomicInteger n = new AtomicInteger();
        server.handler((req, ex) -> json(ex, 400, "{\"jsonrpc\":\"2.0\",\"id\":"
                + (n.incrementAndGet() == 1 ? "\"7\"" : "8.0") + ",\"error\":{\"code\":-32602,\"message\":\"bad\"}}"));
        try (HttpTransport t = open()) {
            t.exchange(request(7, "tools/list"), TestSendContext.of(7));
            t.exchange(request(8, "tools/list"), TestSendContext.of(8));
            assertThat(sink.messages()).containsExactly(
                    new JsonRpcMessage.ErrorResponse(RequestId.of(7), new JsonRpcError(-32602, "bad", null)),
                    new JsonRpcMessage.ErrorResponse(RequestId.of(8), new JsonRpcError(-32602, "bad", null)));
        }
    }

    @Test
    void malformedAnswersAreProtocolErrors() throws Exception {
        AtomicInteger n = new AtomicInteger();
        server.handler((req, ex) -> {
            switch (n.incrementAndGet()) {
                case 1 -> json(ex, 200, "{not json");
                case 2 -> json(ex, 200, result(12345, "{}"));
                case 3 -> TestServer.status(ex, 202);
                default -> {
                    ex.getResponseHeaders().set("Content-Type", "text/html");
                    ex.sendResponseHeaders(200, -1);
                }
            }
        });
        try (HttpTransport t = open()) {
            for (int i = 1; i <= 4; i++) {
                int id = i;
                assertThatThrownBy(() -> t.exchange(request(id, "tools/list"), TestSendContext.of(id)))
                        .isInstanceOf(McpProtocolException.class)
                        .hasMessageContaining("(id " + id + ")");
            }
        }
    }

    @Test
    void malformedSseEventsAreSkippedAndOversizedOnesFail() throws Exception {
        server.handler((req, ex) -> {
            OutputStream out = sse(ex);
            if (req.rpcId().equals(1)) {
                write(out, "data: {garbage\n\n");
                write(out, "data: " + result(1, "{}") + "\n\n");
            } else {
                write(out, "data: " + "x".repeat(5000) + "\n\n");
            }
        });
        try (HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).maxMessageSize(1000))) {
            t.exchange(request(1, "tools/list"), TestSendContext.of(1));
            assertThat(sink.skipped()).hasSize(1);
            assertThat(sink.messages()).hasSize(1);
            assertThatThrownBy(() -> t.exchange(request(2, "tools/list"), TestSendContext.of(2)))
                    .isInstanceOf(McpProtocolException.class)
                    .hasMessage("response stream of POST tools/list (id 2): SSE line longer than the maximum of 1000 "
                            + "bytes"); // a line of 5,000 bytes
        }
    }

    @Test
    void signerSignsEveryRequest() throws Exception {
        List<String> signed = new java.util.concurrent.CopyOnWriteArrayList<>();
        CountDownLatch getSeen = new CountDownLatch(1);
        server.handler((req, ex) -> {
            assertThat(req.header("Signature")).isEqualTo("sig-" + req.method() + "-" + req.body().length());
            if (req.method().equals("GET")) {
                if (req.header("Last-Event-ID") != null) {
                    OutputStream out = sse(ex);
                    write(out, "data: " + result(2, "{}") + "\n\n");
                } else {
                    getSeen.countDown();
                    TestServer.status(ex, 405);
                }
            } else if (req.method().equals("DELETE")) {
                TestServer.status(ex, 405);
            } else if ("initialize".equals(req.rpcMethod())) {
                ex.getResponseHeaders().set("Mcp-Session-Id", "s");
                json(ex, 200, initResult(req.rpcId(), "2025-11-25"));
            } else if (req.rpcId() == null) {
                TestServer.status(ex, 202);
            } else {
                OutputStream out = sse(ex);
                write(out, "id: x\nretry: 0\ndata:\n\n");
            }
        });
        RequestSigner signer = (method, uri, headers, body) -> {
            assertThat(uri).isEqualTo(server.uri("/mcp"));
            assertThat(headers).isUnmodifiable();
            if (!method.equals("DELETE")) {
                assertThat(headers).containsKey("accept");
            }
            signed.add(method + (headers.containsKey("Last-Event-ID") ? "+resume" : ""));
            return Map.of("Signature", "sig-" + method + "-" + body.length);
        };
        try (HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).requestSigner(signer))) {
            t.exchange(initialize(1), TestSendContext.of(1));
            t.exchange(INITIALIZED, TestSendContext.none());
            t.handshakeCompleted("2025-11-25");
            assertThat(getSeen.await(10, TimeUnit.SECONDS)).isTrue();
            t.exchange(request(2, "tools/call"), TestSendContext.of(2));
        }
        assertThat(signed).containsExactly("POST", "POST", "GET", "POST", "GET+resume", "DELETE");
    }

    @Test
    void failingSignerFailsTheRequestWithoutSendingIt() throws Exception {
        try (HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).requestSigner((m, u, h, b) -> {
            throw new IllegalStateException("hsm offline");
        }))) {
            assertThatThrownBy(() -> t.exchange(request(1, "ping"), TestSendContext.of(1)))
                    .isInstanceOf(McpTransportException.class)
                    .hasMessageContaining("request signer failed (IllegalStateException: hsm offline)")
                    .hasRootCauseMessage("hsm offline");
        }
        assertThat(server.requests).isEmpty();
    }

    @Test
    void connectionRefusedIsATransportError() throws Exception {
        int port = server.port();
        server.close();
        try (HttpTransport t = open(HttpTransport.newBuilder("http://127.0.0.1:" + port + "/mcp"))) {
            assertThatThrownBy(() -> t.exchange(request(1, "ping"), TestSendContext.of(1)))
                    .isInstanceOf(McpTransportException.class)
                    .hasMessageContaining("127.0.0.1:" + port);
        }
    }

    @Test
    void responseOnAnotherStreamCompletesTheWaitingRequest() throws Exception {
        // the POST stream stays open without the response; the response arrives on the GET stream
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch postOpen = new CountDownLatch(1);
        server.handler((req, ex) -> {
            if (req.method().equals("GET")) {
                postOpen.await(10, TimeUnit.SECONDS);
                OutputStream out = sse(ex);
                write(out, "data: " + result(21, "{\"via\":\"get\"}") + "\n\n");
                release.await(20, TimeUnit.SECONDS);
            } else if (req.rpcId() == null) {
                TestServer.status(ex, 202);
            } else {
                OutputStream out = sse(ex);
                write(out, ": open\n\n");
                postOpen.countDown();
                release.await(20, TimeUnit.SECONDS);
            }
        });
        try (HttpTransport t = open()) {
            t.handshakeCompleted("2025-11-25");
            t.exchange(request(21, "tools/call"), TestSendContext.of(21));
            assertThat(sink.messages()).containsExactly(new JsonRpcMessage.Response(RequestId.of(21), Map.of("via", "get")));
        } finally {
            release.countDown();
        }
    }

    @Test
    void responseOnAnotherStreamCompletesARequestStillWaitingForHeaders() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch postArrived = new CountDownLatch(1);
        server.handler((req, ex) -> {
            if (req.method().equals("GET")) {
                postArrived.await(10, TimeUnit.SECONDS);
                OutputStream out = sse(ex);
                write(out, "data: " + result(22, "{}") + "\n\n");
                release.await(20, TimeUnit.SECONDS);
            } else {
                postArrived.countDown();
                release.await(20, TimeUnit.SECONDS); // no headers for the POST
            }
        });
        try (HttpTransport t = open()) {
            t.handshakeCompleted("2025-11-25");
            t.exchange(request(22, "tools/call"), TestSendContext.of(22));
            assertThat(sink.messages()).containsExactly(new JsonRpcMessage.Response(RequestId.of(22), Map.of()));
        } finally {
            release.countDown();
        }
    }

    @Test
    void quietGetStreamIsReconnectedAfterTheIdleTimeoutWithoutGivingUp() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        server.handler((req, ex) -> {
            if (req.method().equals("GET")) {
                write(sse(ex), ": open\n\n"); // flushes the headers
                release.await(20, TimeUnit.SECONDS); // then silent
            } else {
                TestServer.status(ex, 202);
            }
        });
        try (HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).idleTimeout(Duration.ofMillis(100))
                .reconnectDelay(Duration.ofMillis(10)))) {
            t.handshakeCompleted("2025-11-25");
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30))
                    .until(() -> server.requests("GET").size() >= HttpTransport.MAX_STREAM_ATTEMPTS + 3);
        } finally {
            release.countDown();
        }
    }
}
