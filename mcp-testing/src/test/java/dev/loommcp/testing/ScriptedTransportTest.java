package dev.loommcp.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpClient;
import dev.loommcp.event.McpClientListener;
import dev.loommcp.McpException;
import dev.loommcp.McpRpcException;
import dev.loommcp.McpTransportException;
import dev.loommcp.RequestOptions;
import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.McpSessionExpiredException;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.Deadline;
import dev.loommcp.spi.TransportContext;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LeakCheck.class)
class ScriptedTransportTest {

    private static Map<String, Object> text(String s) {
        return Map.of("content", List.of(Map.of("type", "text", "text", s)));
    }

    @Test
    void handshakeUsesTheScriptedServerInfoAndRecordsTheInitializedNotification() throws Exception {
        ScriptedTransport server = ScriptedTransport.create()
                .serverInfo(Map.of("name", "fake", "version", "9"));
        try (McpClient client = McpClient.newBuilder(server).build()) {
            client.connect();
            assertThat(client.serverInfo().orElseThrow().name()).isEqualTo("fake");
            server.awaitNotification("notifications/initialized");
            assertThat(server.handshakeVersion().orElseThrow()).isEqualTo(ScriptedTransport.DEFAULT_PROTOCOL_VERSION);
            assertThat(server.requests("initialize")).hasSize(1);
        }
        assertThat(server.isClosed()).isTrue();
    }

    @Test
    void heldRequestIsAnsweredLaterByTheTest() throws Exception {
        ScriptedTransport server = ScriptedTransport.create().hold("tools/call");
        try (McpClient client = McpClient.newBuilder(server).build()) {
            client.connect();
            CompletableFuture<CallToolResult> pending = client.callToolAsync("slow", Map.of(), RequestOptions.DEFAULT);
            JsonRpcMessage.Request request = server.awaitRequest("tools/call");
            assertThat(pending).isNotDone();
            server.reply(request.id(), text("done"));
            assertThat(pending.get(10, TimeUnit.SECONDS).text()).isEqualTo("done");
        }
    }

    @Test
    void unscriptedMethodIsMethodNotFoundAndThrowingResponderIsInternalError() throws Exception {
        ScriptedTransport server = ScriptedTransport.create()
                .on("tools/call", r -> {
                    throw new IllegalStateException("boom");
                });
        try (McpClient client = McpClient.newBuilder(server).build()) {
            client.connect();
            assertThatThrownBy(() -> client.listTools(null)).isInstanceOf(McpRpcException.class)
                    .satisfies(e -> assertThat(((McpRpcException) e).code()).isEqualTo(JsonRpcError.METHOD_NOT_FOUND));
            assertThatThrownBy(() -> client.callTool("x", Map.of())).isInstanceOf(McpRpcException.class)
                    .satisfies(e -> assertThat(((McpRpcException) e).code()).isEqualTo(JsonRpcError.INTERNAL_ERROR))
                    .hasMessageContaining("boom");
        }
    }

    @Test
    void serverNotificationReachesTheClient() throws Exception {
        ScriptedTransport server = ScriptedTransport.create();
        CountDownLatch changed = new CountDownLatch(1);
        try (McpClient client = McpClient.newBuilder(server).listener(new McpClientListener() {
            @Override
            public void onToolsListChanged() {
                changed.countDown();
            }
        }).build()) {
            client.connect();
            server.notifyClient("notifications/tools/list_changed", null);
            assertThat(changed.await(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void serverRequestGetsTheClientsAnswer() throws Exception {
        ScriptedTransport server = ScriptedTransport.create();
        try (McpClient client = McpClient.newBuilder(server).build()) {
            client.connect();
            server.deliver(new JsonRpcMessage.Request(RequestId.of("s1"), "ping", null));
            assertThat(server.awaitAnswerTo(RequestId.of("s1"))).isInstanceOf(JsonRpcMessage.Response.class);
        }
    }

    @Test
    void lossFailsPendingCallsAndLaterSends() throws Exception {
        ScriptedTransport server = ScriptedTransport.create().hold("tools/call");
        try (McpClient client = McpClient.newBuilder(server).build()) {
            client.connect();
            CompletableFuture<CallToolResult> pending = client.callToolAsync("t", Map.of(), RequestOptions.DEFAULT);
            server.awaitRequest("tools/call");
            server.lose(new McpTransportException("cable cut"));
            assertThatThrownBy(() -> pending.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(McpException.class);
            assertThatThrownBy(() -> client.callTool("t", Map.of())).isInstanceOf(McpException.class);
        }
    }

    @Test
    void whatTheClientSendsAndReceivesHasItsWireForm() throws Exception {
        ScriptedTransport server = ScriptedTransport.create()
                .on("tools/call", r -> text(String.valueOf(((Map<?, ?>) r.params().get("arguments")).get("n")
                        .getClass().getSimpleName())));
        try (McpClient client = McpClient.newBuilder(server).build()) {
            client.connect();
            // a Long argument travels as JSON and comes back as a decoder makes it (Integer)
            assertThat(client.callTool("t", Map.of("n", 7L)).text()).isEqualTo("Integer");
        }
    }

    @Test
    void blockingModeRunsEachExchangeOnAForkOfTheRequestAndACancelEndsIt() throws Exception {
        ScriptedTransport server = ScriptedTransport.create(ScriptedTransport.Mode.BLOCKING).hold("tools/call");
        assertThat(server.exchangePerRequest()).isTrue();
        try (McpClient client = McpClient.newBuilder(server).build()) {
            client.connect();
            CompletableFuture<CallToolResult> pending = client.callToolAsync("slow", Map.of(), RequestOptions.DEFAULT);
            RequestId id = server.awaitRequest("tools/call").id();
            assertThat(server.openExchanges()).isEqualTo(1);
            assertThat(server.recordOf(m -> m instanceof JsonRpcMessage.Request r && r.id().equals(id)).requestId())
                    .isEqualTo(id);
            pending.cancel(true);
            server.awaitSendFinished(id);
            assertThat(server.cancelHookRan(id)).isTrue();
            assertThat(server.openExchanges()).isZero();
        }
    }

    @Test
    void aBlockingSendWhoseRequestEndedBeforeItsForkEndsByThrowingAndCountsAsFinished() throws Exception {
        // the race a test meets when it closes the client as soon as it sees the request: the request's scope ends
        // between the record and the fork of the exchange
        ScriptedTransport server = ScriptedTransport.create(ScriptedTransport.Mode.BLOCKING).hold("tools/call")
                .awaitTimeout(Duration.ofSeconds(1));
        server.open(TransportContext.of(new RecordingSink(), Deadline.NONE));
        try {
            RequestId id = RequestId.of(7);
            TestSendContext ended = new TestSendContext(id, Duration.ofSeconds(5)).end();
            assertThatThrownBy(() -> server.send(new JsonRpcMessage.Request(id, "tools/call", Map.of()), ended))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("ended");
            assertThat(server.awaitRequest("tools/call").id()).isEqualTo(id);
            server.awaitSendFinished(id); // at once: the send is over
            assertThat(server.openExchanges()).isZero();
        } finally {
            server.close();
        }
    }

    @Test
    void anExpiredSessionRefusesRequestsUntilTheClientInitializesAgain() throws Exception {
        ScriptedTransport server = ScriptedTransport.create().on("tools/call", r -> text("ok"));
        try (McpClient client = McpClient.newBuilder(server).build()) {
            client.connect();
            server.expireSession();
            // a tools/call that met the expired session fails typed; the client renews the session at once
            assertThatThrownBy(() -> client.callTool("t", Map.of())).isInstanceOf(McpSessionExpiredException.class);
            assertThat(server.expiredRequests()).isEqualTo(1);
            assertThat(client.callTool("t", Map.of()).text()).isEqualTo("ok");
            assertThat(server.requests("initialize")).hasSize(2);
        }
    }

    @Test
    void rawJsonIsDecodedAsATransportWouldAndAnAwaitIsBounded() throws Exception {
        ScriptedTransport server = ScriptedTransport.create().awaitTimeout(Duration.ofMillis(200));
        try (McpClient client = McpClient.newBuilder(server).build()) {
            client.connect();
            server.deliverJson("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}");
            assertThatThrownBy(() -> server.awaitRequest("never/sent")).isInstanceOf(AssertionError.class)
                    .hasMessageContaining("never/sent");
        }
        assertThatThrownBy(() -> server.awaitTimeout(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anOpenFailureAndASecondOpenAreReportedToTheCaller() throws Exception {
        ScriptedTransport failing = ScriptedTransport.create()
                .failOpen(new McpTransportException("cannot start the server"));
        try (McpClient client = McpClient.newBuilder(failing).build()) {
            assertThatThrownBy(client::connect).isInstanceOf(McpException.class)
                    .hasMessageContaining("cannot start the server");
        }
        ScriptedTransport once = ScriptedTransport.create();
        RecordingSink sink = new RecordingSink();
        once.open(TransportContext.of(sink, Deadline.NONE));
        try {
            assertThatThrownBy(() -> once.open(TransportContext.of(sink, Deadline.NONE)))
                    .isInstanceOf(IllegalStateException.class);
        } finally {
            once.close();
        }
        assertThat(once.openCount()).isEqualTo(2);
        assertThat(once.closeCount()).isEqualTo(1);
    }
}
