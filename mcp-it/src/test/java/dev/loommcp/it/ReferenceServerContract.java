package dev.loommcp.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.CancellationToken;
import dev.loommcp.McpClient;
import dev.loommcp.event.McpClientListener;
import dev.loommcp.McpClosedException;
import dev.loommcp.McpRpcException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpTool;
import dev.loommcp.RequestOptions;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.CompleteResult;
import dev.loommcp.schema.ContentBlock;
import dev.loommcp.schema.CreateMessageResult;
import dev.loommcp.schema.ElicitResult;
import dev.loommcp.schema.EmbeddedResource;
import dev.loommcp.schema.GetPromptResult;
import dev.loommcp.schema.ImageContent;
import dev.loommcp.schema.LoggingLevel;
import dev.loommcp.schema.LoggingMessageNotification;
import dev.loommcp.schema.ProgressNotification;
import dev.loommcp.schema.Prompt;
import dev.loommcp.schema.PromptReference;
import dev.loommcp.schema.ReadResourceResult;
import dev.loommcp.schema.Resource;
import dev.loommcp.schema.ResourceLink;
import dev.loommcp.schema.ResourceTemplate;
import dev.loommcp.schema.Root;
import dev.loommcp.schema.TextContent;
import dev.loommcp.schema.TextResourceContents;
import dev.loommcp.schema.Tool;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.RecordingTransport;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The client's contract against the reference server {@code @modelcontextprotocol/server-everything}: the same cases
 * over every transport. A subclass supplies the transport. The clients run in the default protocol mode, AUTO, which
 * must find the legacy era (server-everything speaks 2025 only: it answers the {@code server/discover} probe with
 * {@code -32601} over stdio and {@code 400 -32000} over HTTP).
 */
@ExtendWith(LeakCheck.class)
abstract class ReferenceServerContract {

    /** Returns a new transport to a fresh server (or session). */
    protected abstract McpTransport newTransport() throws Exception;

    private McpClient client;
    private RecordingTransport recording;

    private McpClient connect(Consumer<McpClient.Builder> customize) throws Exception {
        recording = new RecordingTransport(newTransport());
        McpClient.Builder b = McpClient.newBuilder(recording)
                .requestTimeout(Duration.ofSeconds(30));
        customize.accept(b);
        client = b.build();
        client.connect();
        return client;
    }

    private McpClient connect() throws Exception {
        return connect(b -> { });
    }

    @AfterEach
    void closeClient() {
        if (client != null) {
            client.close();
            assertThat(client.pendingRequestCount()).isZero();
        }
    }

    @Test
    void connectsAndReportsTheServer() throws Exception {
        connect();
        assertThat(client.isConnected()).isTrue();
        assertThat(client.era().orElseThrow()).isEqualTo(dev.loommcp.config.Era.LEGACY);
        assertThat(client.discoverResult()).isEmpty();
        assertThat(client.protocolVersion().orElseThrow()).isEqualTo("2025-11-25");
        assertThat(client.serverInfo().orElseThrow().name()).isEqualTo("mcp-servers/everything");
        assertThat(client.serverCapabilities().orElseThrow().hasTools()).isTrue();
        assertThat(client.instructions().orElseThrow()).isNotBlank();
        client.ping();
    }

    @Test
    void listsAndCallsTools() throws Exception {
        connect();
        List<Tool> tools = client.listAllTools();
        assertThat(tools).extracting(Tool::name).contains("echo", "get-sum", "get-tiny-image");
        CallToolResult echo = client.callTool("echo", Map.of("message", "hi"));
        assertThat(echo.error()).isFalse();
        assertThat(echo.text()).isEqualTo("Echo: hi");
        CallToolResult sum = client.callTool("get-sum", Map.of("a", 2, "b", 3));
        assertThat(sum.text()).contains("5");
    }

    @Test
    void toolHandlesCarryTheDefinitionAndAreRevokedOnClose() throws Exception {
        connect();
        McpTool echo = client.tools().stream().filter(t -> t.name().equals("echo")).findFirst().orElseThrow();
        assertThat(echo.definition()).containsKey("inputSchema");
        assertThat(echo.call(Map.of("message", "x")).text()).isEqualTo("Echo: x");
        client.close();
        assertThatThrownBy(() -> echo.call(Map.of("message", "x"))).isInstanceOf(McpClosedException.class);
        assertThatThrownBy(() -> client.ping()).isInstanceOf(McpClosedException.class);
    }

    @Test
    void structuredContentImagesLinksAndEmbeddedResources() throws Exception {
        connect();
        client.listAllTools(); // caches outputSchema for validation
        CallToolResult weather = client.callTool("get-structured-content", Map.of("location", "Chicago"));
        assertThat(weather.structuredContent()).containsKeys("temperature", "conditions", "humidity");
        record Weather(double temperature, String conditions, double humidity) { }
        assertThat(weather.structuredContentAs(Weather.class).conditions()).isNotBlank();

        CallToolResult image = client.callTool("get-tiny-image", Map.of());
        ImageContent img = image.content().stream().filter(c -> c instanceof ImageContent)
                .map(c -> (ImageContent) c).findFirst().orElseThrow();
        assertThat(img.mimeType()).isEqualTo("image/png");
        assertThat(java.util.Base64.getDecoder().decode(img.data())).isNotEmpty();

        CallToolResult links = client.callTool("get-resource-links", Map.of("count", 2));
        assertThat(links.content()).filteredOn(c -> c instanceof ResourceLink).hasSize(2);

        CallToolResult embedded = client.callTool("get-resource-reference",
                Map.of("resourceType", "Text", "resourceId", 1));
        assertThat(embedded.content()).anyMatch(c -> c instanceof EmbeddedResource);
    }

    @Test
    void unknownToolIsAnRpcError() throws Exception {
        connect();
        CallToolResult result;
        try {
            result = client.callTool("no-such-tool", Map.of());
        } catch (McpRpcException e) {
            assertThat(e.method()).isEqualTo("tools/call");
            return;
        }
        // some servers report an unknown tool as an isError result instead
        assertThat(result.error()).isTrue();
    }

    @Test
    void resourcesTemplatesReadAndSubscribe() throws Exception {
        CopyOnWriteArrayList<JsonRpcMessage.Notification> seen = new CopyOnWriteArrayList<>();
        CountDownLatch updated = new CountDownLatch(1);
        connect(b -> b.keepNotifications(true).listener(new McpClientListener() {
            @Override
            public void onNotification(JsonRpcMessage.Notification n) {
                seen.add(n);
                if (n.method().equals("notifications/resources/updated")) {
                    updated.countDown();
                }
            }
        }));
        List<Resource> resources = client.listAllResources();
        assertThat(resources).extracting(Resource::uri)
                .contains("demo://resource/static/document/architecture.md");
        List<ResourceTemplate> templates = client.listAllResourceTemplates();
        assertThat(templates).extracting(ResourceTemplate::uriTemplate)
                .contains("demo://resource/dynamic/text/{resourceId}");
        ReadResourceResult read = client.readResource("demo://resource/static/document/architecture.md");
        assertThat(read.contents()).hasSize(1);
        assertThat(((TextResourceContents) read.contents().get(0)).text()).isNotBlank();

        String uri = "demo://resource/dynamic/text/1";
        client.subscribe(uri);
        client.callTool("toggle-subscriber-updates", Map.of());
        assertThat(updated.await(20, TimeUnit.SECONDS)).as("resources/updated notification").isTrue();
        assertThat(client.drainNotifications()).anyMatch(n -> n.method().equals("notifications/resources/updated"));
        client.callTool("toggle-subscriber-updates", Map.of());
        client.unsubscribe(uri);
    }

    @Test
    void promptsWithArgumentsAndCompletion() throws Exception {
        connect();
        List<Prompt> prompts = client.listAllPrompts();
        assertThat(prompts).extracting(Prompt::name).contains("simple-prompt", "args-prompt", "completable-prompt");
        GetPromptResult args = client.getPrompt("args-prompt", Map.of("city", "Lisbon", "state", "Lisboa"));
        assertThat(args.messages()).isNotEmpty();
        ContentBlock first = args.messages().get(0).content();
        assertThat(((TextContent) first).text()).contains("Lisbon");

        CompleteResult department = client.complete(new PromptReference("completable-prompt", null),
                "department", "E", null);
        assertThat(department.completion().values()).containsExactly("Engineering");
        CompleteResult name = client.complete(new PromptReference("completable-prompt", null),
                "name", "", Map.of("department", "Engineering"));
        assertThat(name.completion().values()).isNotEmpty();
    }

    @Test
    void loggingLevelAndMessages() throws Exception {
        CountDownLatch got = new CountDownLatch(1);
        AtomicReference<LoggingMessageNotification> message = new AtomicReference<>();
        connect(b -> b.listener(new McpClientListener() {
            @Override
            public void onLog(LoggingMessageNotification m) {
                message.set(m);
                got.countDown();
            }
        }));
        client.setLoggingLevel(LoggingLevel.DEBUG);
        client.callTool("toggle-simulated-logging", Map.of());
        try {
            assertThat(got.await(20, TimeUnit.SECONDS)).as("a notifications/message").isTrue();
            assertThat(message.get().knownLevel()).isPresent();
        } finally {
            client.callTool("toggle-simulated-logging", Map.of());
        }
    }

    @Test
    void progressListenerSeesEveryStep() throws Exception {
        connect();
        CopyOnWriteArrayList<ProgressNotification> progress = new CopyOnWriteArrayList<>();
        CallToolResult r = client.callTool("trigger-long-running-operation", Map.of("duration", 1, "steps", 4),
                RequestOptions.newBuilder().progressListener(progress::add).build());
        assertThat(r.error()).isFalse();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> progress.size() >= 4);
        assertThat(progress).extracting(ProgressNotification::progress).containsExactly(1.0, 2.0, 3.0, 4.0);
        JsonRpcMessage.Request sent = recording.sent().stream()
                .filter(m -> m instanceof JsonRpcMessage.Request q && q.method().equals("tools/call"))
                .map(m -> (JsonRpcMessage.Request) m).findFirst().orElseThrow();
        Map<?, ?> meta = (Map<?, ?>) sent.params().get("_meta");
        assertThat(meta.containsKey("progressToken")).isTrue();
    }

    @Test
    void timedOutCallSendsCancelledAndTheClientStaysUsable() throws Exception {
        connect();
        assertThatThrownBy(() -> client.callTool("trigger-long-running-operation", Map.of("duration", 5, "steps", 5),
                RequestOptions.ofTimeout(Duration.ofMillis(500))))
                .isInstanceOf(McpTimeoutException.class)
                .hasMessageContaining("tools/call");
        assertThat(client.pendingRequestCount()).isZero();
        // over HTTP the notification is POSTed from a background thread: wait for it
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> !recording.sentNotifications("notifications/cancelled").isEmpty());
        List<JsonRpcMessage.Notification> cancels = recording.sentNotifications("notifications/cancelled");
        assertThat(cancels).hasSize(1);
        JsonRpcMessage.Request call = recording.sent().stream()
                .filter(m -> m instanceof JsonRpcMessage.Request q && q.method().equals("tools/call"))
                .map(m -> (JsonRpcMessage.Request) m).findFirst().orElseThrow();
        assertThat(cancels.get(0).params().get("requestId")).isEqualTo(call.id().value());
        assertThat(client.callTool("echo", Map.of("message", "still here")).text()).isEqualTo("Echo: still here");
    }

    @Test
    void tokenCancelsACall() throws Exception {
        connect();
        CancellationToken token = CancellationToken.create();
        var future = client.callToolAsync("trigger-long-running-operation", Map.of("duration", 5, "steps", 5),
                RequestOptions.ofToken(token));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> client.pendingRequestCount() == 1);
        token.cancel("user pressed stop");
        assertThatThrownBy(future::join).hasCauseInstanceOf(dev.loommcp.McpCancelledException.class);
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> !recording.sentNotifications("notifications/cancelled").isEmpty());
        Object reason = recording.sentNotifications("notifications/cancelled").get(0).params().get("reason");
        assertThat(reason).isEqualTo("user pressed stop");
    }

    @Test
    void elicitationSamplingAndRootsThroughHandlers() throws Exception {
        connect(b -> b
                .elicitationHandler(request -> ElicitResult.accept(Map.of("name", "Ada", "check", true,
                        "firstLine", "x", "integer", 3, "number", 1.5)))
                .samplingHandler(request -> CreateMessageResult.ofText("test-model", "sampled answer"))
                .rootsHandler(() -> List.of(new Root("file:///tmp/project", "project", null))));
        // the capability-gated tools are registered after notifications/initialized
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() ->
                client.listAllTools().stream().map(Tool::name).toList()
                        .containsAll(List.of("trigger-sampling-request", "get-roots-list",
                                "trigger-elicitation-request")));
        CallToolResult sampled = client.callTool("trigger-sampling-request",
                Map.of("prompt", "say hi", "maxTokens", 10));
        assertThat(sampled.text()).contains("sampled answer");
        CallToolResult roots = client.callTool("get-roots-list", Map.of());
        assertThat(roots.text()).contains("file:///tmp/project");
        CallToolResult elicited = client.callTool("trigger-elicitation-request", Map.of());
        assertThat(elicited.error()).isFalse();
        assertThat(elicited.text()).containsIgnoringCase("accept");
    }
}
