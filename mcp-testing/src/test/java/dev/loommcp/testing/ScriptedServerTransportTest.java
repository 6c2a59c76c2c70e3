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
import dev.loommcp.schema.CallToolResult;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LeakCheck.class)
class ScriptedServerTransportTest {

    private static Map<String, Object> text(String s) {
        return Map.of("content", List.of(Map.of("type", "text", "text", s)));
    }

    @Test
    void handshakeUsesTheScriptedServerInfoAndRecordsTheInitializedNotification() throws Exception {
        ScriptedServerTransport server = ScriptedServerTransport.create()
                .serverInfo(Map.of("name", "fake", "version", "9"));
        try (McpClient client = McpClient.newBuilder(server).build()) {
            client.connect();
            assertThat(client.serverInfo().name()).isEqualTo("fake");
            server.awaitNotification("notifications/initialized");
            assertThat(server.handshakeVersion()).isEqualTo(ScriptedServerTransport.DEFAULT_PROTOCOL_VERSION);
            assertThat(server.requests("initialize")).hasSize(1);
        }
        assertThat(server.isClosed()).isTrue();
    }

    @Test
    void heldRequestIsAnsweredLaterByTheTest() throws Exception {
        ScriptedServerTransport server = ScriptedServerTransport.create().hold("tools/call");
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
        ScriptedServerTransport server = ScriptedServerTransport.create()
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
        ScriptedServerTransport server = ScriptedServerTransport.create();
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
        ScriptedServerTransport server = ScriptedServerTransport.create();
        try (McpClient client = McpClient.newBuilder(server).build()) {
            client.connect();
            server.deliver(new JsonRpcMessage.Request(RequestId.of("s1"), "ping", null));
            assertThat(server.awaitAnswerTo(RequestId.of("s1"))).isInstanceOf(JsonRpcMessage.Response.class);
        }
    }

    @Test
    void lossFailsPendingCallsAndLaterSends() throws Exception {
        ScriptedServerTransport server = ScriptedServerTransport.create().hold("tools/call");
        try (McpClient client = McpClient.newBuilder(server).build()) {
            client.connect();
            CompletableFuture<CallToolResult> pending = client.callToolAsync("t", Map.of(), RequestOptions.DEFAULT);
            server.awaitRequest("tools/call");
            server.lose(new McpTransportException("cable cut"));
            assertThatThrownBy(() -> pending.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(McpException.class);
            assertThatThrownBy(() -> client.callTool("t", Map.of())).isInstanceOf(McpException.class);
        }
    }
}
