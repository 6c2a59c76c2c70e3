package dev.loommcp.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.config.Era;
import dev.loommcp.McpClient;
import dev.loommcp.McpRpcException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpUnsupportedInEraException;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.RequestOptions;
import dev.loommcp.event.Subscription;
import dev.loommcp.event.SubscriptionFilter;
import dev.loommcp.event.SubscriptionListener;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.ElicitRequest;
import dev.loommcp.schema.ElicitResult;
import dev.loommcp.schema.GetPromptResult;
import dev.loommcp.schema.LoggingLevel;
import dev.loommcp.schema.ReadResourceResult;
import dev.loommcp.schema.TextContent;
import dev.loommcp.schema.TextResourceContents;
import dev.loommcp.schema.Tool;
import dev.loommcp.it.servers.ModernFixture;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The client's contract in the modern era (MCP 2026-07-28) against the reference SDK's server
 * ({@code test-servers/modern-fixture.mjs}): the same cases for every transport, fixture variant and mode that ends
 * in the modern era (AUTO against either variant, MODERN, the pinned {@code 2026-07-28}). A subclass supplies the
 * transport, the variant and the mode.
 */
abstract class ModernEraContract extends FixtureClients {

    private final ModernFixture.Variant variant;
    private final ProtocolMode mode;

    /**
     * @param variant the fixture variant the class runs against
     * @param mode    the protocol mode of its clients
     */
    ModernEraContract(ModernFixture.Variant variant, ProtocolMode mode) {
        this.variant = variant;
        this.mode = mode;
    }

    /** Returns the fixture variant the class runs against. */
    protected final ModernFixture.Variant variant() {
        return variant;
    }

    @Override
    protected final ProtocolMode mode() {
        return mode;
    }

    @Test
    void connectsInTheModernEraAndReportsTheServer() throws Exception {
        McpClient client = connect();
        assertThat(client.era().orElseThrow()).isEqualTo(Era.MODERN);
        assertThat(client.protocolVersion().orElseThrow()).isEqualTo(MODERN);
        assertThat(client.discoverResult()).isPresent();
        assertThat(client.discoverResult().orElseThrow().supportedVersions()).contains(MODERN);
        assertThat(client.serverInfo().orElseThrow().name()).isEqualTo(variant().serverName());
        assertThat(client.instructions().orElseThrow()).contains("loom-mcp test fixture");
        assertThat(client.serverCapabilities().orElseThrow().hasTools()).isTrue();
        assertThat(client.serverCapabilities().orElseThrow().hasResources()).isTrue();
        // the session never spoke the 2025 handshake (on stdio the AUTO probe ran in a throw-away process)
        assertThat(sentRequests(0, "initialize")).isEmpty();
        assertThat(recording(0).sentNotifications("notifications/initialized")).isEmpty();
    }

    @Test
    void listsCallsReadsAndGetsWithTheEnvelopeOnEveryRequest() throws Exception {
        McpClient client = connect();
        assertThat(client.listAllTools()).extracting(Tool::name)
                .contains("echo", "deploy", "add-note", "route", "slow");
        CallToolResult echo = client.callTool("echo", Map.of("message", "hi"));
        assertThat(echo.error()).isFalse();
        assertThat(echo.text()).isEqualTo("Echo: hi");

        ReadResourceResult notes = client.readResource("notes://all");
        assertThat(notes.contents()).hasSize(1);
        assertThat(notes.contents().get(0)).isInstanceOf(TextResourceContents.class);

        GetPromptResult greeting = client.getPrompt("greeting", Map.of("name", "Ada"));
        assertThat(((TextContent) greeting.messages().get(0).content()).text()).isEqualTo("Hello, Ada!");

        List<JsonRpcMessage.Request> sent = sentRequests(0);
        assertThat(sent).extracting(JsonRpcMessage.Request::method)
                .contains("tools/list", "tools/call", "resources/read", "prompts/get");
        for (JsonRpcMessage.Request r : sent) {
            Map<String, Object> meta = map(r.params().get("_meta"));
            assertThat(meta).as(r.method() + " _meta")
                    .containsEntry("io.modelcontextprotocol/protocolVersion", MODERN)
                    .containsKeys("io.modelcontextprotocol/clientCapabilities", "io.modelcontextprotocol/clientInfo");
        }
    }

    @Test
    void unknownToolIsAnRpcError() throws Exception {
        McpClient client = connect();
        assertThatThrownBy(() -> client.callTool("no-such-tool", Map.of()))
                .isInstanceOfSatisfying(McpRpcException.class, e -> assertThat(e.method()).isEqualTo("tools/call"));
        assertThat(client.callTool("echo", Map.of("message", "after")).text()).isEqualTo("Echo: after");
    }

    @Test
    void deployIsConfirmedThroughTheElicitationHandler() throws Exception {
        List<ElicitRequest> asked = new CopyOnWriteArrayList<>();
        McpClient client = connect(b -> b.elicitationHandler(request -> {
            asked.add(request);
            return ElicitResult.accept(Map.of("confirm", true));
        }));
        CallToolResult result = client.callTool("deploy", Map.of("env", "prod"));
        assertThat(result.error()).isFalse();
        assertThat(result.text()).isEqualTo("Deployed to prod");
        assertThat(asked).hasSize(1);
        assertThat(asked.get(0).message()).isEqualTo("Deploy to prod?");
        assertThat(map(asked.get(0).requestedSchema().get("properties"))).containsKey("confirm");

        // MRTR on the wire: the retry is a new request with the answers and the state echoed
        List<JsonRpcMessage.Request> calls = sentRequests(0, "tools/call");
        assertThat(calls).hasSize(2);
        assertThat(calls.get(1).id()).isNotEqualTo(calls.get(0).id());
        assertThat(calls.get(0).params()).doesNotContainKeys("inputResponses", "requestState");
        assertThat(calls.get(1).params()).containsEntry("requestState", "opaque-state-for-prod");
        assertThat(map(calls.get(1).params().get("inputResponses"))).containsKey("confirm");
        // a client without server-to-client requests in this era: the server sent none
        assertThat(recording(0).received()).noneMatch(m -> m instanceof JsonRpcMessage.Request);
    }

    @Test
    void deployDeclinedThroughTheElicitationHandlerIsAToolError() throws Exception {
        McpClient client = connect(b -> b.elicitationHandler(request -> ElicitResult.decline()));
        CallToolResult result = client.callTool("deploy", Map.of("env", "staging"));
        assertThat(result.error()).isTrue();
        assertThat(result.text()).contains("declined");
    }

    @Test
    void deployWithoutAnElicitationHandlerNamesTheMissingCapability() throws Exception {
        McpClient client = connect();
        assertThatThrownBy(() -> client.callTool("deploy", Map.of("env", "prod")))
                .isInstanceOfSatisfying(McpRpcException.class,
                        e -> assertThat(e.requiredCapabilities()).containsKey("elicitation"));
        assertThat(client.callTool("echo", Map.of("message", "still")).text()).isEqualTo("Echo: still");
    }

    @Test
    void aSubscriptionSeesToolListChangesAndResourceUpdates() throws Exception {
        McpClient listener = connect();
        CountDownLatch toolsChanged = new CountDownLatch(1);
        CountDownLatch promptsChanged = new CountDownLatch(1);
        CountDownLatch updated = new CountDownLatch(1);
        List<String> updatedUris = new CopyOnWriteArrayList<>();
        SubscriptionFilter filter = new SubscriptionFilter(true, true, false, List.of("notes://all"));
        try (Subscription sub = listener.listen(filter, new SubscriptionListener() {
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
                updatedUris.add(uri);
                updated.countDown();
            }
        })) {
            assertThat(sub.isActive()).isTrue();
            assertThat(sub.acknowledged().toolsListChanged()).isTrue();
            assertThat(sub.acknowledged().promptsListChanged()).isTrue();
            assertThat(sub.acknowledged().resourceSubscriptions()).containsExactly("notes://all");
            assertThat(sub.refused().isEmpty()).isTrue();
            // over HTTP another client changes the notes (one server for both); over stdio each client has its
            // own server process, so the listening client changes them itself
            McpClient writer = http() ? connect() : listener;
            String note = "note-" + UUID.randomUUID();
            assertThat(writer.callTool("add-note", Map.of("text", note)).text()).startsWith("saved (");
            assertThat(updated.await(20, TimeUnit.SECONDS)).as("notifications/resources/updated").isTrue();
            assertThat(toolsChanged.await(20, TimeUnit.SECONDS)).as("notifications/tools/list_changed").isTrue();
            assertThat(promptsChanged.await(20, TimeUnit.SECONDS)).as("notifications/prompts/list_changed").isTrue();
            assertThat(updatedUris).contains("notes://all");
            ReadResourceResult read = listener.readResource("notes://all");
            assertThat(((TextResourceContents) read.contents().get(0)).text()).contains(note);
            sub.close();
            assertThat(sub.isActive()).isFalse();
        }
        // the listen was the only long-lived request: closing it leaves nothing pending
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> listener.pendingRequestCount() == 0);
    }

    @Test
    void methodsRemovedInTheModernEraFailWithoutBeingSent() throws Exception {
        McpClient client = connect();
        assertThatThrownBy(client::ping)
                .isInstanceOfSatisfying(McpUnsupportedInEraException.class, e -> {
                    assertThat(e.era()).isEqualTo(Era.MODERN);
                    assertThat(e.method()).isEqualTo("ping");
                });
        assertThatThrownBy(() -> client.setLoggingLevel(LoggingLevel.DEBUG))
                .isInstanceOf(McpUnsupportedInEraException.class);
        assertThatThrownBy(() -> client.subscribe("notes://all"))
                .isInstanceOf(McpUnsupportedInEraException.class);
        assertThat(sentRequests(0)).extracting(JsonRpcMessage.Request::method)
                .doesNotContain("ping", "logging/setLevel", "resources/subscribe");
        assertThat(client.callTool("echo", Map.of("message", "ok")).text()).isEqualTo("Echo: ok");
    }

    @Test
    void aTimedOutCallIsCancelledTheTransportsWayAndTheClientStaysUsable() throws Exception {
        McpClient client = connect();
        assertThatThrownBy(() -> client.callTool("slow", Map.of("ms", 20_000),
                RequestOptions.ofTimeout(Duration.ofMillis(500))))
                .isInstanceOf(McpTimeoutException.class);
        assertThat(client.pendingRequestCount()).isZero();
        if (http()) {
            // Streamable HTTP (2026-07-28): cancelling is aborting the exchange; no notification is sent
            assertThat(recording(0).sentNotifications("notifications/cancelled")).isEmpty();
        } else {
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> !recording(0).sentNotifications("notifications/cancelled").isEmpty());
            JsonRpcMessage.Request call = sentRequests(0, "tools/call").get(0);
            assertThat(recording(0).sentNotifications("notifications/cancelled").get(0).params().get("requestId"))
                    .isEqualTo(call.id().value());
        }
        assertThat(client.callTool("echo", Map.of("message", "alive")).text()).isEqualTo("Echo: alive");
    }

    @Test
    void parametersAnnotatedWithXMcpHeaderReachTheTool() throws Exception {
        McpClient client = connect();
        List<String> names = client.listAllTools().stream().map(Tool::name).toList();
        // the fixture's server checks every Mcp-Param-* header against the arguments over HTTP (-32020 if one is
        // missing or differs), so a result here means the headers went out right, encoded where needed
        CallToolResult plain = client.callTool("route", Map.of("region", "eu-west", "count", 3));
        assertThat(plain.text()).isEqualTo("region=eu-west count=3 note=");
        CallToolResult encoded = client.callTool("route", Map.of("region", " Zürich\t", "count", -7, "note", "n"));
        assertThat(encoded.text()).isEqualTo("region= Zürich\t count=-7 note=n");
        if (http()) {
            assertThat(names).as("a tool with an invalid x-mcp-header is dropped over HTTP")
                    .doesNotContain("bad-header");
            assertThatThrownBy(() -> client.callTool("bad-header", Map.of("ratio", 0.5)))
                    .hasMessageContaining("bad-header");
            assertThat(sentRequests(0, "tools/call")).noneMatch(r -> "bad-header".equals(r.params().get("name")));
        } else {
            assertThat(names).as("stdio has no headers: the annotation does not matter").contains("bad-header");
            assertThat(client.callTool("bad-header", Map.of("ratio", 0.5)).text()).isEqualTo("ratio=0.5");
        }
    }
}
