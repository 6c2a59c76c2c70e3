package dev.loommcp.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.loommcp.Era;
import dev.loommcp.McpClient;
import dev.loommcp.ProtocolMode;
import dev.loommcp.Subscription;
import dev.loommcp.SubscriptionFilter;
import dev.loommcp.SubscriptionListener;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.ElicitRequest;
import dev.loommcp.schema.ElicitResult;
import dev.loommcp.schema.GetPromptResult;
import dev.loommcp.schema.TextContent;
import dev.loommcp.schema.TextResourceContents;
import dev.loommcp.schema.Tool;
import dev.loommcp.testkit.ModernFixture;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The client's contract in the 2025 era against the dual-era fixture (the reference SDK serves a client that opens
 * with {@code initialize} from the same definitions): the era is forced to LEGACY. The point of interest is MRTR's
 * legacy shape: the SDK turns the tool's {@code input_required} return into a real {@code elicitation/create}
 * request, which the same {@link dev.loommcp.ElicitationHandler} answers (one handler API, two wire shapes).
 */
abstract class DualEraLegacyContract extends FixtureClients {

    @Override
    protected ProtocolMode mode() {
        return ProtocolMode.LEGACY;
    }

    @Test
    void connectsInTheLegacyEra() throws Exception {
        McpClient client = connect();
        assertThat(client.era()).isEqualTo(Era.LEGACY);
        assertThat(client.protocolVersion()).isEqualTo(LEGACY);
        assertThat(client.discoverResult()).isNull();
        assertThat(client.serverInfo().name()).isEqualTo(ModernFixture.Variant.DUAL_ERA.serverName());
        assertThat(sentRequests(0, "server/discover")).isEmpty();
        assertThat(sentRequests(0).get(0).method()).isEqualTo("initialize");
        client.ping();
    }

    @Test
    void listsCallsReadsAndGetsWithoutTheModernEnvelope() throws Exception {
        McpClient client = connect();
        assertThat(client.listAllTools()).extracting(Tool::name).contains("echo", "deploy", "add-note", "route");
        assertThat(client.callTool("echo", Map.of("message", "hi")).text()).isEqualTo("Echo: hi");
        assertThat(client.readResource("notes://all").contents().get(0)).isInstanceOf(TextResourceContents.class);
        GetPromptResult greeting = client.getPrompt("greeting", Map.of("name", "Ada"));
        assertThat(((TextContent) greeting.messages().get(0).content()).text()).isEqualTo("Hello, Ada!");
        assertThat(client.callTool("route", Map.of("region", "eu", "count", 2)).text())
                .isEqualTo("region=eu count=2 note=");
        for (JsonRpcMessage.Request r : sentRequests(0)) {
            Object meta = r.params() == null ? null : r.params().get("_meta");
            if (meta != null) {
                assertThat(map(meta)).as(r.method()).doesNotContainKey("io.modelcontextprotocol/protocolVersion");
            }
        }
    }

    @Test
    void deployIsConfirmedThroughTheSameHandlerAsARealElicitationRequest() throws Exception {
        assumeThat(http()).as("stateless legacy HTTP cannot carry server-to-client requests").isFalse();
        List<ElicitRequest> asked = new CopyOnWriteArrayList<>();
        McpClient client = connect(b -> b.elicitationHandler(request -> {
            asked.add(request);
            return ElicitResult.accept(Map.of("confirm", true));
        }));
        CallToolResult accepted = client.callTool("deploy", Map.of("env", "prod"));
        assertThat(accepted.error()).isFalse();
        assertThat(accepted.text()).isEqualTo("Deployed to prod");
        assertThat(asked).extracting(ElicitRequest::message).containsExactly("Deploy to prod?");
        // the 2025 wire shape: one tools/call, answered after a server-to-client elicitation/create
        assertThat(sentRequests(0, "tools/call")).hasSize(1);
        assertThat(recording(0).received()).anyMatch(m -> m instanceof JsonRpcMessage.Request r
                && r.method().equals("elicitation/create"));
    }

    @Test
    void deployDeclinedThroughTheHandlerIsAToolError() throws Exception {
        assumeThat(http()).as("stateless legacy HTTP cannot carry server-to-client requests").isFalse();
        McpClient client = connect(b -> b.elicitationHandler(request -> ElicitResult.decline()));
        CallToolResult declined = client.callTool("deploy", Map.of("env", "dev"));
        assertThat(declined.error()).isTrue();
        assertThat(declined.text()).isEqualTo("Deploy to dev declined");
    }

    @Test
    void overStatelessLegacyHttpTheServerCannotAskAndSaysSo() throws Exception {
        assumeThat(http()).isTrue();
        List<ElicitRequest> asked = new CopyOnWriteArrayList<>();
        McpClient client = connect(b -> b.elicitationHandler(request -> {
            asked.add(request);
            return ElicitResult.accept(Map.of("confirm", true));
        }));
        // the SDK's stateless legacy leg serves each POST with a fresh instance that has no channel back
        CallToolResult result = client.callTool("deploy", Map.of("env", "prod"));
        assertThat(result.error()).isTrue();
        assertThat(result.text()).contains("Cannot request input");
        assertThat(asked).isEmpty();
    }

    @Test
    void aSubscriptionMapsOntoResourcesSubscribeAndTheSessionsNotifications() throws Exception {
        assumeThat(http()).as("stateless legacy HTTP has no notification channel (GET is 405)").isFalse();
        McpClient client = connect();
        CountDownLatch toolsChanged = new CountDownLatch(1);
        CountDownLatch updated = new CountDownLatch(1);
        SubscriptionFilter filter = new SubscriptionFilter(true, false, false, List.of("notes://all"));
        try (Subscription sub = client.listen(filter, new SubscriptionListener() {
            @Override
            public void onToolsListChanged() {
                toolsChanged.countDown();
            }

            @Override
            public void onResourceUpdated(String uri) {
                if (uri.equals("notes://all")) {
                    updated.countDown();
                }
            }
        })) {
            assertThat(sub.acknowledged().resourceSubscriptions()).containsExactly("notes://all");
            assertThat(sentRequests(0, "resources/subscribe")).hasSize(1);
            client.callTool("add-note", Map.of("text", "legacy note"));
            assertThat(updated.await(20, TimeUnit.SECONDS)).as("notifications/resources/updated").isTrue();
            assertThat(toolsChanged.await(20, TimeUnit.SECONDS)).as("notifications/tools/list_changed").isTrue();
        }
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                .until(() -> !sentRequests(0, "resources/unsubscribe").isEmpty());
    }
}
