package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.HttpTransportTest.initResult;
import static dev.loommcp.transport.http.TestServer.json;
import static dev.loommcp.transport.http.TestServer.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpClient;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.event.McpClientListener;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpSessionExpiredException;
import dev.loommcp.McpTransportException;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.TextContent;
import dev.loommcp.testing.LeakCheck;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Session expiry end to end (issue 9 item 2): the HTTP transport drops the session on a 404 and reports
 * {@link McpSessionExpiredException}; the client starts the new session itself, with connect()'s checks, and sends
 * the request again only where the replay policy allows.
 */
@ExtendWith(LeakCheck.class)
class HttpSessionExpiryTest {

    TestServer server;
    McpClient client;
    HttpTransport transport;
    final AtomicInteger sessions = new AtomicInteger();
    /** The session the server knows: set once its notifications/initialized was accepted. */
    final AtomicReference<String> live = new AtomicReference<>("none");
    final AtomicReference<String> version = new AtomicReference<>("2025-06-18");
    final AtomicBoolean refuseInitialized = new AtomicBoolean();
    final AtomicInteger restarts = new AtomicInteger();
    /** How the server says it does not know a session: the spec's 404, or the TypeScript SDK's 400. */
    volatile boolean answer400;
    /** When set, a request in an expired session waits here before its 404. */
    volatile CountDownLatch expiredGate;
    /** How long the server takes to answer initialize. */
    volatile long initializeDelayMillis;
    /** When set, the next tools/call is answered by an event stream that ends early, and the server restarts. */
    final AtomicBoolean restartMidStream = new AtomicBoolean();
    /** The sessions the server forgot (expired, or lost in a restart). */
    final java.util.Set<String> forgotten = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** When set, the GET stream is offered: a short stream in a live session, 404 in an unknown one. */
    volatile boolean getStream;

    @BeforeEach
    void start() throws Exception {
        server = new TestServer();
        server.handler((req, ex) -> {
            String sid = req.header("Mcp-Session-Id");
            if (req.method().equals("GET") && sid != null && forgotten.contains(sid)) {
                TestServer.status(ex, 404); // a resumption or stream in a session the server forgot
                return;
            }
            if (req.method().equals("GET") && getStream && sid != null) {
                // one event, then the stream ends: the client reconnects in 100 ms
                TestServer.write(TestServer.sse(ex), "retry: 100\ndata: {\"jsonrpc\":\"2.0\",\"method\":"
                        + "\"notifications/test\"}\n\n");
                return;
            }
            if (!req.method().equals("POST")) {
                TestServer.status(ex, 405);
                return;
            }
            String m = req.rpcMethod();
            if ("initialize".equals(m)) {
                assertThat(sid).as("initialize is sent without a session").isNull();
                if (initializeDelayMillis > 0) {
                    Thread.sleep(initializeDelayMillis);
                }
                String s = "s" + sessions.incrementAndGet();
                ex.getResponseHeaders().set("Mcp-Session-Id", s);
                json(ex, 200, initResult(req.rpcId(), version.get()));
                return;
            }
            if ("notifications/initialized".equals(m)) {
                if (refuseInitialized.get()) {
                    json(ex, 400, "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"no\"}}");
                } else {
                    live.set(sid);
                    TestServer.status(ex, 202);
                }
                return;
            }
            if (!live.get().equals(sid)) {
                CountDownLatch gate = expiredGate;
                if (gate != null) {
                    gate.countDown();
                    // every request sees the expired session: the first waits for the others (long enough for a
                    // starved caller on a loaded machine; with 10 s the second came after the renewal once)
                    gate.await(30, TimeUnit.SECONDS);
                }
                if (answer400) {
                    json(ex, 400, "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32000,"
                            + "\"message\":\"Bad Request: No valid session ID provided\"}}");
                } else {
                    json(ex, 404, "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32001,\"message\":\"gone\"}}");
                }
                return;
            }
            if ("tools/call".equals(m) && req.body().contains("\"bad\"")) {
                json(ex, 400, "{\"jsonrpc\":\"2.0\",\"id\":" + req.rpcId() + ",\"error\":{\"code\":-32602,"
                        + "\"message\":\"Invalid params\"}}");
                return;
            }
            if ("tools/call".equals(m) && restartMidStream.compareAndSet(true, false)) {
                forgotten.add(sid);
                live.set("restarted"); // the server restarts while the answer is on its way: the stream ends early
                TestServer.write(TestServer.sse(ex), "id: e1\nretry: 100\ndata:\n\n");
                return;
            }
            if (req.rpcId() == null) {
                TestServer.status(ex, 202);
            } else if ("tools/list".equals(m)) {
                json(ex, 200, result(req.rpcId(), "{\"tools\":["
                        + "{\"name\":\"idem\",\"inputSchema\":{\"type\":\"object\"},"
                        + "\"annotations\":{\"idempotentHint\":true}},"
                        + "{\"name\":\"plain\",\"inputSchema\":{\"type\":\"object\"}}]}"));
            } else if ("tools/call".equals(m)) {
                json(ex, 200, result(req.rpcId(), "{\"content\":[{\"type\":\"text\",\"text\":\"" + sid + "\"}]}"));
            } else if ("prompts/list".equals(m)) {
                json(ex, 200, result(req.rpcId(), "{\"prompts\":[]}"));
            } else {
                json(ex, 200, result(req.rpcId(), "{}"));
            }
        });
        transport = HttpTransport.newBuilder(server.uri("/mcp")).build();
        client = McpClient.newBuilder(transport).protocolMode(ProtocolMode.LEGACY).listener(new McpClientListener() {
            @Override
            public void onSessionRestarted() {
                restarts.incrementAndGet();
            }
        }).build();
        client.connect();
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    List<String> posted() {
        return server.requests("POST").stream().map(TestServer.Req::rpcMethod).toList();
    }

    long count(String method) {
        return posted().stream().filter(method::equals).count();
    }

    void expire() {
        forgotten.add(live.get());
        live.set("expired-on-the-server");
    }

    @Test
    void anExpiredSessionIsRenewedByTheClientAndAnIdempotentRequestSentOnceMore() throws Exception {
        expire();
        assertThat(client.listTools(null).tools()).hasSize(2);

        assertThat(posted()).containsExactly("initialize", "notifications/initialized", "tools/list",
                "initialize", "notifications/initialized", "tools/list");
        assertThat(transport.sessionId()).contains("s2");
        TestServer.Req renewedInitialized = server.requests("POST").get(4);
        assertThat(renewedInitialized.header("Mcp-Session-Id")).isEqualTo("s2");
        assertThat(renewedInitialized.header("MCP-Protocol-Version"))
                .as("the client told the transport the version before notifications/initialized").isEqualTo("2025-06-18");
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> restarts.get() == 1);
        assertThat(client.isConnected()).isTrue();
    }

    /**
     * Servers on the TypeScript SDK (the reference server among them) answer an unknown session with 400 "No valid
     * session ID provided": the client renews then too, as for the spec's 404; a 400 that is about something else
     * stays the server's answer to the call.
     */
    @Test
    void a400SayingTheSessionIsUnknownRenewsItLikeA404() throws Exception {
        answer400 = true;
        expire();
        assertThat(client.listTools(null).tools()).hasSize(2);
        assertThat(posted()).containsExactly("initialize", "notifications/initialized", "tools/list",
                "initialize", "notifications/initialized", "tools/list");
        assertThat(transport.sessionId()).contains("s2");

        assertThatThrownBy(() -> client.callTool("bad", java.util.Map.of()))
                .isInstanceOfSatisfying(dev.loommcp.McpRpcException.class,
                        e -> assertThat(e.code()).isEqualTo(-32602));
        assertThat(count("initialize")).isEqualTo(2);
        assertThat(client.callTool("plain", java.util.Map.of()).text()).isEqualTo("s2");
    }

    @Test
    void aSecondExpiryOfTheResentRequestFailsWithoutAnotherRenewal() throws Exception {
        live.set("never");
        // every request now 404s, also in the new session: notifications/initialized is accepted, the session isn't
        server.handler(neverLive());
        assertThatThrownBy(() -> client.listTools(null)).isInstanceOf(McpSessionExpiredException.class)
                .hasMessageContaining("tools/list");
        assertThat(count("tools/list")).isEqualTo(2);
        assertThat(count("initialize")).isEqualTo(2);
    }

    private TestServer.Handler neverLive() {
        return (req, ex) -> {
            if (!req.method().equals("POST")) {
                TestServer.status(ex, 405);
            } else if ("initialize".equals(req.rpcMethod())) {
                ex.getResponseHeaders().set("Mcp-Session-Id", "s" + sessions.incrementAndGet());
                json(ex, 200, initResult(req.rpcId(), version.get()));
            } else if (req.rpcId() == null) {
                TestServer.status(ex, 202);
            } else {
                TestServer.status(ex, 404);
            }
        };
    }

    @Test
    void concurrentExpiriesShareOneInitialize() throws Exception {
        expiredGate = new CountDownLatch(2);
        expire();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread a = Thread.ofVirtual().start(() -> {
            try {
                client.listTools(null);
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        Thread b = Thread.ofVirtual().start(() -> {
            try {
                client.listPrompts(null);
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        assertThat(a.join(Duration.ofSeconds(60))).isTrue();
        assertThat(b.join(Duration.ofSeconds(60))).isTrue();
        assertThat(failure.get()).isNull();
        assertThat(count("initialize")).as("connect, then one renewal for both").isEqualTo(2);
        assertThat(sessions.get()).isEqualTo(2);
        assertThat(count("tools/list")).isEqualTo(2);
        assertThat(count("prompts/list")).isEqualTo(2);
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> restarts.get() == 1);
    }

    @Test
    void aNonIdempotentCallIsNotResentAndFailsTypedWhileTheNextCallWorks() throws Exception {
        client.listAllTools(); // the catalog learns the tools' annotations
        expire();
        assertThatThrownBy(() -> client.callTool("plain", Map.of()))
                .isInstanceOf(McpSessionExpiredException.class).hasMessageContaining("tools/call");
        assertThat(count("tools/call")).as("not sent again: it may have run in the old session").isEqualTo(1);
        assertThat(count("initialize")).as("the new session is started all the same").isEqualTo(2);

        CallToolResult next = client.callTool("plain", Map.of());
        assertThat(((TextContent) next.content().get(0)).text()).isEqualTo("s2");
        assertThat(count("initialize")).isEqualTo(2);
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> restarts.get() == 1);
    }

    @Test
    void aToolWithIdempotentHintIsResentOnce() throws Exception {
        client.listAllTools(); // the catalog learns the tools' annotations
        expire();
        CallToolResult r = client.callTool("idem", Map.of());
        assertThat(((TextContent) r.content().get(0)).text()).isEqualTo("s2");
        assertThat(count("tools/call")).isEqualTo(2);
        assertThat(count("initialize")).isEqualTo(2);
    }

    @Test
    void aFailedRenewalFailsTheCallCleanlyAndTheNextCallTriesAgain() throws Exception {
        expire();
        refuseInitialized.set(true);
        assertThatThrownBy(() -> client.listTools(null))
                .isInstanceOf(McpTransportException.class)
                .satisfies(e -> assertThat(e.getSuppressed()).hasAtLeastOneElementOfType(
                        McpSessionExpiredException.class));
        assertThat(count("tools/list")).as("never resent without a new session").isEqualTo(1);
        assertThat(restarts.get()).isZero();
        assertThat(client.isConnected()).as("the client stays usable").isTrue();

        refuseInitialized.set(false);
        assertThat(client.listTools(null).tools()).hasSize(2);
        assertThat(count("initialize")).as("connect, the failed renewal, the next one").isEqualTo(3);
        assertThat(transport.sessionId()).contains("s3");
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> restarts.get() == 1);
    }

    @Test
    void theRenewalRefusesAnUnsupportedVersionLikeConnect() throws Exception {
        expire();
        version.set("1999-01-01");
        assertThatThrownBy(() -> client.ping()).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("'1999-01-01'").hasMessageContaining("supports");
        assertThat(count("notifications/initialized")).as("no initialized for a refused version").isEqualTo(1);
        assertThat(restarts.get()).isZero();

        version.set("2025-11-25");
        client.ping();
        assertThat(count("initialize")).isEqualTo(3);
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> restarts.get() == 1);
    }

    /** The POSTs other than initialize that reached the server without a session. */
    List<String> sentWithoutSession() {
        return server.requests("POST").stream().filter(r -> !"initialize".equals(r.rpcMethod()))
                .filter(r -> r.header("Mcp-Session-Id") == null).map(TestServer.Req::rpcMethod).toList();
    }

    /**
     * Issue 26 item 23: while an expired session is renewed (the server answers the next initialize after 300 ms),
     * calls made meanwhile wait for the new session and go out in it; none goes out without a session (the
     * server's 400 "no valid session ID" reached callers as an McpRpcException, as if the tool had refused).
     */
    @Test
    void callsDuringARenewalWaitForTheNewSessionAndNeverGoOutWithout() throws Exception {
        client.listAllTools(); // the catalog learns the tools' annotations
        answer400 = true; // as servers on the TypeScript SDK answer an unknown (or missing) session
        initializeDelayMillis = 300;
        expire();
        int perWave = 60;
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        AtomicInteger expiredPlain = new AtomicInteger();
        List<Thread> threads = new java.util.ArrayList<>();
        // the first wave meets the expired session; the second comes while the new one is being started
        for (int wave = 0; wave < 2; wave++) {
            boolean duringRenewal = wave == 1;
            if (duringRenewal) {
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20))
                        .until(() -> count("initialize") == 2);
            }
            for (int i = 0; i < perWave; i++) {
                boolean idempotent = i % 2 == 0;
                threads.add(Thread.ofVirtual().start(() -> {
                    try {
                        CallToolResult r = client.callTool(idempotent ? "idem" : "plain", Map.of(),
                                dev.loommcp.RequestOptions.ofTimeout(Duration.ofSeconds(20)));
                        assertThat(((TextContent) r.content().get(0)).text()).isEqualTo("s2");
                    } catch (McpSessionExpiredException e) {
                        if (idempotent || duringRenewal) {
                            failures.add(e); // never sent in the old session: it goes out in the new one
                        } else {
                            expiredPlain.incrementAndGet(); // sent in the old session: not resent, typed
                        }
                    } catch (Throwable e) {
                        failures.add(e); // the bug: McpRpcException -32000 "No valid session ID provided"
                    }
                }));
            }
        }
        for (Thread t : threads) {
            assertThat(t.join(Duration.ofSeconds(60))).isTrue();
        }
        assertThat(failures).isEmpty();
        assertThat(sentWithoutSession()).as("no request but initialize without a session").isEmpty();
        assertThat(count("initialize")).as("connect, then one renewal for all").isEqualTo(2);
    }

    /**
     * Issue 26 item 24: a resumption GET answered 404 after a server restart is the session's expiry, as for a
     * POST: an idempotent call is sent again in a new session (it failed with McpHttpStatusException).
     */
    @Test
    void aResumptionAnswered404IsTheSessionsExpiryAndAnIdempotentCallIsResent() throws Exception {
        client.listAllTools(); // the catalog learns the tools' annotations
        restartMidStream.set(true);
        CallToolResult r = client.callTool("idem", Map.of(), dev.loommcp.RequestOptions.ofTimeout(
                Duration.ofSeconds(20)));
        assertThat(((TextContent) r.content().get(0)).text()).isEqualTo("s2");
        assertThat(server.requests("GET")).as("the resumption, in the session the server forgot")
                .anyMatch(g -> "e1".equals(g.header("Last-Event-ID")) && "s1".equals(g.header("Mcp-Session-Id")));
        assertThat(count("initialize")).isEqualTo(2);
        assertThat(count("tools/call")).isEqualTo(2);
    }

    /**
     * Issue 26 item 24: the GET stream answered 404 for the session is the session's expiry too: the next call,
     * even one that may not be resent, goes out in a new session instead of failing in the forgotten one.
     */
    @Test
    void aGetStreamAnswered404ExpiresTheSessionBeforeTheNextCall() throws Exception {
        client.listAllTools();
        getStream = true;
        client.close();
        transport = HttpTransport.newBuilder(server.uri("/mcp")).build();
        client = McpClient.newBuilder(transport).protocolMode(ProtocolMode.LEGACY).build();
        client.connect(); // s2, with its GET stream
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20))
                .until(() -> server.requests("GET").stream().anyMatch(g -> "s2".equals(g.header("Mcp-Session-Id"))));
        client.listAllTools();
        expire();
        int gets = server.requests("GET").size();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20))
                .until(() -> server.requests("GET").size() > gets); // the reconnect, answered 404
        int calls = (int) count("tools/call");
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20))
                .until(() -> transport.sessionId().isEmpty()); // the transport took the 404 as the expiry
        CallToolResult r = client.callTool("plain", Map.of());
        assertThat(((TextContent) r.content().get(0)).text()).isEqualTo("s3");
        assertThat(count("tools/call")).as("sent once, in the new session").isEqualTo(calls + 1);
        assertThat(sentWithoutSession()).isEmpty();
    }
}
