package dev.loommcp.spring.ai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpProtocolException;
import dev.loommcp.RequestOptions;
import dev.loommcp.hosts.McpServers;
import dev.loommcp.hosts.RestartPolicy;
import dev.loommcp.hosts.ServerState;
import dev.loommcp.hosts.ServerStatus;
import dev.loommcp.hosts.StdioServerConfig;
import dev.loommcp.it.servers.CrashFixture;
import dev.loommcp.it.servers.ReferenceServer;
import dev.loommcp.testing.LeakCheck;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.execution.ToolExecutionException;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link LoomToolCallbacks} and {@link LoomToolCallback} against the pinned reference server over stdio: lazy
 * listing, the schema unchanged, the tool context as {@code _meta} on the wire, {@code isError} and other failures as
 * {@link ToolExecutionException}, an interrupt cancelling on the wire, and a {@code ChatClient} round trip with a
 * scripted model.
 */
@ExtendWith(LeakCheck.class)
class LoomToolCallbacksTest {

    private final McpServers servers = McpServers.newBuilder()
            .add(StdioServerConfig.of("everything", ReferenceServer.stdioCommand()))
            .add(StdioServerConfig.of("down", List.of("/nonexistent/loom-mcp-no-such-server")))
            .restartPolicy(RestartPolicy.NEVER)
            .build();

    @AfterEach
    void close() {
        servers.close();
    }

    @Test
    void nothingStartsUntilTheToolsAreListedThenTheyCarryTheRegistryNamesAndTheSchemaUnchanged() throws Exception {
        LoomToolCallbacks tools = LoomToolCallbacks.of(servers);
        assertThat(servers.statuses()).extracting(ServerStatus::state).containsOnly(ServerState.IDLE);
        assertThat(LeakCheck.descendants()).isEmpty();

        List<ToolCallback> callbacks = tools.toolCallbacks();
        assertThat(ScriptedChatModel.names(callbacks)).contains("everything__echo")
                .allMatch(n -> n.startsWith("everything__"));   // the down server is left out, not thrown
        assertThat(servers.server("down").status().state()).isEqualTo(ServerState.FAILED);
        ToolCallback echo = callbacks.stream()
                .filter(c -> c.getToolDefinition().name().equals("everything__echo")).findFirst().orElseThrow();
        Object schema = JsonMapper.builder().build().readValue(echo.getToolDefinition().inputSchema(), Object.class);
        assertThat(schema).isEqualTo(servers.tool("everything__echo").orElseThrow().tool().inputSchema());
        assertThat(echo.getToolDefinition().description()).isEqualTo("Echoes back the input string");
        // the second listing reuses the callbacks; the provider lists the same
        assertThat(tools.toolCallbacks()).containsExactlyElementsOf(callbacks);
        assertThat(tools.asProvider().getToolCallbacks()).containsExactlyElementsOf(callbacks);
    }

    @Test
    void theFilterSeesTheServerAndTheTool() throws Exception {
        LoomToolCallbacks tools = LoomToolCallbacks.newBuilder(servers)
                .filter((server, tool) -> server.equals("everything") && tool.name().equals("echo")).build();
        assertThat(ScriptedChatModel.names(tools.toolCallbacks())).containsExactly("everything__echo");
    }

    @Test
    void aCallReturnsTheTextAndSendsTheToolContextAsMeta() throws Exception {
        ToolCallback echo = LoomToolCallbacks.of(servers).toolCallback("everything__echo");
        try (WireTap wire = new WireTap()) {
            String answer = echo.call("{\"message\":\"hi\"}",
                    new ToolContext(Map.of("tenant", "t1", "notJson", new Object())));
            assertThat(answer).isEqualTo("Echo: hi");
            assertThat(wire.sent()).filteredOn(l -> l.contains("\"tools/call\""))
                    .singleElement().satisfies(l -> assertThat(l).contains("\"tenant\":\"t1\"")
                            .contains("\"_meta\"").doesNotContain("notJson"));
        }
        // empty input is sent as {} (the server then says which argument is missing)
        assertThatThrownBy(() -> echo.call(" ")).isInstanceOf(ToolExecutionException.class)
                .hasMessageContaining("expected string, received undefined at message");
    }

    @Test
    void isErrorAndBadArgumentsAndADownServerFailWithAToolExecutionExceptionNamingTheTool() {
        LoomToolCallbacks tools = LoomToolCallbacks.of(servers);
        ToolCallback echo = tools.toolCallback("everything__echo");
        assertThatThrownBy(() -> echo.call("{}"))
                .isInstanceOf(ToolExecutionException.class)
                .hasMessageContaining("MCP tool everything__echo returned an error")
                .hasMessageContaining("Input validation error");
        assertThatThrownBy(() -> echo.call("[1]")).isInstanceOf(ToolExecutionException.class)
                .hasMessageContaining("everything__echo got arguments that are not a JSON object but ArrayList");
        assertThatThrownBy(() -> echo.call("{")).isInstanceOf(ToolExecutionException.class)
                .hasMessageContaining("everything__echo got arguments that are not JSON");
        assertThatThrownBy(() -> tools.toolCallback("down__echo").call("{\"message\":\"hi\"}"))
                .isInstanceOf(ToolExecutionException.class)
                .hasMessageContaining("MCP tool down__echo failed")
                .hasMessageContaining("down");
        assertThatThrownBy(() -> tools.toolCallback("nowhere__echo").call("{}"))
                .isInstanceOf(ToolExecutionException.class)
                .hasMessageContaining("nowhere");
    }

    @Test
    void aMalformedResultIsAToolExecutionExceptionNamingTheNamespacedToolAndTheChatGoesOn() {
        try (McpServers sloppy = McpServers.newBuilder()
                .add(StdioServerConfig.of("sl", CrashFixture.malformedResultCommand()))
                .restartPolicy(RestartPolicy.NEVER).build()) {
            LoomToolCallbacks tools = LoomToolCallbacks.of(sloppy);
            assertThatThrownBy(() -> tools.toolCallback("sl__malformed").call("{}"))
                    .isInstanceOf(ToolExecutionException.class)
                    .hasMessageContaining("MCP tool sl__malformed failed")
                    .hasMessageContaining("malformed")
                    .hasRootCauseInstanceOf(McpProtocolException.class);
            // Spring AI's default processor gives the message to the model; the chat request is not aborted
            var model = new ScriptedChatModel("sl__malformed", "{}");
            String answer = ChatClient.create(model).prompt().user("go").tools(tools.asProvider()).call().content();
            assertThat(answer).startsWith("The server said").contains("MCP tool sl__malformed failed");
            assertThat(tools.toolCallback("sl__echo").call("{\"message\":\"still\"}")).isEqualTo("Echo: still");
        }
    }

    @Test
    void anInterruptCancelsTheCallOnTheWire() throws Exception {
        ToolCallback slow = LoomToolCallbacks.of(servers).toolCallback("everything__trigger-long-running-operation");
        try (WireTap wire = new WireTap()) {
            AtomicReference<Thread> caller = new AtomicReference<>();
            CompletableFuture<Throwable> failure = new CompletableFuture<>();
            Thread t = Thread.ofVirtual().start(() -> {
                caller.set(Thread.currentThread());
                try {
                    slow.call("{\"duration\":30,\"steps\":30}");
                    failure.complete(null);
                } catch (Throwable e) {
                    failure.complete(e);
                }
            });
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (wire.sent().stream().noneMatch(l -> l.contains("trigger-long-running-operation"))) {
                assertThat(System.nanoTime()).as("the call was sent").isLessThan(end);
                Thread.sleep(20);
            }
            t.interrupt();
            assertThat(failure.get(30, TimeUnit.SECONDS)).isInstanceOf(ToolExecutionException.class)
                    .hasCauseInstanceOf(InterruptedException.class);
            t.join();
            assertThat(wire.sent()).anyMatch(l -> l.contains("notifications/cancelled"));
        }
    }

    @Test
    void aChatClientWithTheProviderCallsTheToolAndAnswersWithItsText() {
        var model = new ScriptedChatModel("everything__echo", "{\"message\":\"hi\"}");
        LoomToolCallbacks tools = LoomToolCallbacks.newBuilder(servers)
                .requestOptions(RequestOptions.ofTimeout(Duration.ofSeconds(30))).build();
        String answer = ChatClient.create(model).prompt().user("say hi").tools(tools.asProvider())
                .toolContext(Map.of("tenant", "t1")).call().content();
        assertThat(answer).isEqualTo("The server said Echo: hi");
        assertThat(model.offeredTools.getFirst()).contains("everything__echo");
    }
}
