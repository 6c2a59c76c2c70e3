package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.HttpTransportTest.initResult;
import static dev.loommcp.transport.http.TestServer.json;
import static dev.loommcp.transport.http.TestServer.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpClient;
import dev.loommcp.ProtocolMode;
import dev.loommcp.McpClientListener;
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

    @BeforeEach
    void start() throws Exception {
        server = new TestServer();
        server.handler((req, ex) -> {
            if (!req.method().equals("POST")) {
                TestServer.status(ex, 405);
                return;
            }
            String m = req.rpcMethod();
            String sid = req.header("Mcp-Session-Id");
            if ("initialize".equals(m)) {
                assertThat(sid).as("initialize is sent without a session").isNull();
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
                    gate.await(10, TimeUnit.SECONDS); // every request sees the expired session
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
        live.set("expired-on-the-server");
    }

    @Test
    void anExpiredSessionIsRenewedByTheClientAndAnIdempotentRequestSentOnceMore() throws Exception {
        expire();
        assertThat(client.listTools(null).tools()).hasSize(2);

        assertThat(posted()).containsExactly("initialize", "notifications/initialized", "tools/list",
                "initialize", "notifications/initialized", "tools/list");
        assertThat(transport.sessionId()).isEqualTo("s2");
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
        assertThat(transport.sessionId()).isEqualTo("s2");

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
        assertThat(a.join(Duration.ofSeconds(30))).isTrue();
        assertThat(b.join(Duration.ofSeconds(30))).isTrue();
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
        assertThat(transport.sessionId()).isEqualTo("s3");
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
}
