package dev.loommcp.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.McpClient;
import dev.loommcp.event.Subscription;
import dev.loommcp.event.SubscriptionFilter;
import dev.loommcp.event.SubscriptionListener;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.ElicitRequest;
import dev.loommcp.schema.ElicitResult;
import dev.loommcp.testkit.ModernFixture;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The legacy-era contract over stdio against the dual-era fixture, era forced to LEGACY; plus what only a 2025
 * connection with a channel back can do: MRTR's legacy shape (the SDK's shim turns the tool's {@code input_required}
 * return into a real {@code elicitation/create} request that the same handler answers) and subscriptions mapped onto
 * {@code resources/subscribe} and the session's notifications.
 */
class StdioDualEraLegacyTest extends DualEraLegacyContract {

    @Override
    protected List<String> stdioCommand() {
        return ModernFixture.stdioCommand(ModernFixture.Variant.DUAL_ERA);
    }

    @Test
    void deployIsConfirmedThroughTheSameHandlerAsARealElicitationRequest() throws Exception {
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
        McpClient client = connect(b -> b.elicitationHandler(request -> ElicitResult.decline()));
        CallToolResult declined = client.callTool("deploy", Map.of("env", "dev"));
        assertThat(declined.error()).isTrue();
        assertThat(declined.text()).isEqualTo("Deploy to dev declined");
    }

    @Test
    void aSubscriptionMapsOntoResourcesSubscribeAndTheSessionsNotifications() throws Exception {
        McpClient client = connect();
        CountDownLatch toolsChanged = new CountDownLatch(1);
        CountDownLatch promptsChanged = new CountDownLatch(1);
        CountDownLatch updated = new CountDownLatch(1);
        SubscriptionFilter filter = new SubscriptionFilter(true, true, false, List.of("notes://all"));
        try (Subscription sub = client.listen(filter, new SubscriptionListener() {
            @Override
            public void onToolsListChanged() {
                toolsChanged.countDown();
            }

            @Override
            public void onPromptsListChanged() {
                promptsChanged.countDown();
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
            assertThat(promptsChanged.await(20, TimeUnit.SECONDS)).as("notifications/prompts/list_changed").isTrue();
        }
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> !sentRequests(0, "resources/unsubscribe").isEmpty());
    }
}
