package dev.loommcp.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.ToolArgumentsException;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.langchain4j.service.tool.ToolProviderRequest;
import dev.langchain4j.service.tool.ToolProviderResult;
import dev.loommcp.McpClient;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.RequestOptions;
import dev.loommcp.hosts.McpServers;
import dev.loommcp.hosts.StdioServerConfig;
import dev.loommcp.it.servers.ReferenceServer;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.transport.stdio.StdioTransport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The provider against the pinned reference server {@code server-everything} over stdio, driven by LangChain4j's
 * {@code AiServices} with a scripted chat model (no LLM).
 */
@ExtendWith(LeakCheck.class)
class LoomToolProviderTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private static StdioServerConfig everything() {
        return StdioServerConfig.of("everything", ReferenceServer.stdioCommand());
    }

    private static ToolProviderResult provide(LoomToolProvider provider) {
        return provider.provideTools(new ToolProviderRequest("m", UserMessage.from("hi")));
    }

    private static ToolExecutor executor(ToolProviderResult result, String name) {
        return result.aiServiceTools().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow()
                .toolExecutor();
    }

    private static ToolExecutionRequest call(String name, String arguments) {
        return ToolExecutionRequest.builder().id("1").name(name).arguments(arguments).build();
    }

    @Test
    void anAiServiceAnswersWithTheReferenceServersEcho() throws Exception {
        try (McpServers servers = McpServers.newBuilder().add(everything()).build()) {
            ScriptedChatModel model = new ScriptedChatModel("everything__echo", "{\"message\":\"hi\"}");
            ScriptedChatModel.Assistant assistant = AiServices.builder(ScriptedChatModel.Assistant.class)
                    .chatModel(model).toolProvider(LoomToolProvider.of(servers)).build();

            assertThat(assistant.chat("say hi")).isEqualTo("The server said Echo: hi");
            // dynamic: asked before each model call; every tool of the server offered
            assertThat(model.offered).hasSize(2);
            assertThat(model.offered.getFirst()).contains("everything__echo", "everything__get-sum")
                    .hasSize(servers.tools().size());
        }
    }

    @Test
    void everyToolOfTheReferenceServerConvertsAndKeepsItsSchema() throws Exception {
        try (McpServers servers = McpServers.newBuilder().add(everything()).build()) {
            ToolProviderResult result = provide(LoomToolProvider.of(servers));
            assertThat(result.aiServiceTools()).hasSize(servers.tools().size());
            for (var t : result.aiServiceTools()) {
                ToolSpecification spec = t.toolSpecification();
                assertThat(spec.name()).matches("^[A-Za-z0-9_-]{1,64}$");
                assertThat(spec.toJson()).isNotBlank(); // serializable as a provider would send it
                assertThat(spec.metadata()).containsKey(LangChain4jSchemas.INPUT_SCHEMA_METADATA_KEY);
            }
            ToolSpecification sum = result.aiServiceTools().stream()
                    .filter(t -> t.name().equals("everything__get-sum")).findFirst().orElseThrow()
                    .toolSpecification();
            assertThat(sum.parameters().properties()).containsKeys("a", "b");
            assertThat(sum.parameters().required()).contains("a", "b");
        }
    }

    @Test
    void structuredContentIsTheResultAndBadArgumentsAreLangChain4jsArgumentError() throws Exception {
        try (McpServers servers = McpServers.newBuilder().add(everything()).build()) {
            ToolProviderResult result = provide(LoomToolProvider.of(servers));
            ToolExecutionResult r = executor(result, "everything__get-structured-content")
                    .executeWithContext(call("everything__get-structured-content", "{\"location\":\"New York\"}"),
                            null);
            assertThat(r.isError()).isFalse();
            assertThat(r.result()).isInstanceOf(Map.class);
            assertThat(((Map<?, ?>) r.result()).containsKey("temperature")).isTrue();
            // the older entry point gives the same call as text
            assertThat(executor(result, "everything__echo").execute(call("everything__echo",
                    "{\"message\":\"old\"}"), "memory")).isEqualTo("Echo: old");
            assertThatThrownBy(() -> executor(result, "everything__echo")
                    .executeWithContext(call("everything__echo", "[1,2]"), null))
                    .isInstanceOf(ToolArgumentsException.class)
                    .hasMessageContaining("everything__echo").hasMessageContaining("JSON object");
            assertThatThrownBy(() -> executor(result, "everything__echo")
                    .executeWithContext(call("everything__echo", "{not json"), null))
                    .isInstanceOf(ToolArgumentsException.class).hasMessageContaining("not valid JSON");
        }
    }

    @Test
    void filterAndNameMapperChooseAndNameTheTools() throws Exception {
        try (McpServers servers = McpServers.newBuilder().add(everything()).build()) {
            LoomToolProvider provider = LoomToolProvider.newBuilder(servers)
                    .filter(t -> t.tool().name().startsWith("get-") || t.tool().name().equals("echo"))
                    .toolNameMapper(t -> t.tool().name().equals("echo") ? "shout" : t.name())
                    .build();
            ToolProviderResult result = provide(provider);
            assertThat(result.aiServiceTools()).extracting(t -> t.name())
                    .contains("shout", "everything__get-sum").doesNotContain("everything__echo")
                    .allMatch(n -> n.equals("shout") || n.startsWith("everything__get-"));
            assertThat(executor(result, "shout").executeWithContext(call("shout", "{\"message\":\"x\"}"), null)
                    .resultText()).isEqualTo("Echo: x");
            // a mapper giving one name twice keeps the first tool; a throwing filter leaves only that tool out
            ToolProviderResult clash = provide(LoomToolProvider.newBuilder(servers).toolNameMapper(t -> "same")
                    .build());
            assertThat(clash.aiServiceTools()).extracting(t -> t.name()).containsExactly("same");
            ToolProviderResult picky = provide(LoomToolProvider.newBuilder(servers).filter(t -> {
                if (t.tool().name().equals("echo")) {
                    throw new IllegalStateException("boom");
                }
                return true;
            }).build());
            assertThat(picky.aiServiceTools()).hasSize(servers.tools().size() - 1);
        }
    }

    @Test
    void resourcesAreOfferedAsTwoTools() throws Exception {
        try (McpServers servers = McpServers.newBuilder().add(everything()).build()) {
            ToolProviderResult result = provide(LoomToolProvider.newBuilder(servers).resourcesAsTools(true)
                    .filter(t -> false).build());
            assertThat(result.aiServiceTools()).extracting(t -> t.name())
                    .containsExactly(LoomToolProvider.LIST_RESOURCES, LoomToolProvider.READ_RESOURCE);
            String listed = executor(result, LoomToolProvider.LIST_RESOURCES)
                    .executeWithContext(call(LoomToolProvider.LIST_RESOURCES, "{}"), null).resultText();
            assertThat(listed).startsWith("server everything: ");
            String uri = listed.lines().filter(l -> l.startsWith("- ")).findFirst().orElseThrow()
                    .substring(2).split(" ")[0];
            String read = executor(result, LoomToolProvider.READ_RESOURCE).executeWithContext(call(
                    LoomToolProvider.READ_RESOURCE, "{\"server\":\"everything\",\"uri\":\"" + uri + "\"}"), null)
                    .resultText();
            assertThat(read).isNotBlank();
        }
    }

    @Test
    void anUnknownServerOfTheResourceToolsIsAnErrorTheModelReadsAndTheAiServiceCallGoesOn() throws Exception {
        try (McpServers servers = McpServers.newBuilder().add(everything()).build()) {
            LoomToolProvider provider = LoomToolProvider.newBuilder(servers).resourcesAsTools(true).build();
            ToolProviderResult result = provide(provider);
            for (String tool : List.of(LoomToolProvider.READ_RESOURCE, LoomToolProvider.LIST_RESOURCES)) {
                var answer = executor(result, tool).executeWithContext(
                        call(tool, "{\"server\":\"nope\",\"uri\":\"x\"}"), null);
                assertThat(answer.isError()).as(tool).isTrue();
                assertThat(answer.resultText()).as(tool).isEqualTo(
                        "unknown MCP server 'nope'; the servers are: everything");
            }
            var model = new ScriptedChatModel(LoomToolProvider.READ_RESOURCE, "{\"server\":\"nope\",\"uri\":\"x\"}");
            ScriptedChatModel.Assistant assistant = AiServices.builder(ScriptedChatModel.Assistant.class)
                    .chatModel(model).toolProvider(provider).build();
            assertThat(assistant.chat("read it")).isEqualTo(
                    "The server said unknown MCP server 'nope'; the servers are: everything");
        }
    }

    @Test
    void promptsBecomeChatMessages() throws Exception {
        try (McpServers servers = McpServers.newBuilder().add(everything()).build()) {
            List<ChatMessage> messages = LangChain4jPrompts.toChatMessages(servers.server("everything")
                    .getPrompt("args-prompt", Map.of("city", "Paris"), RequestOptions.DEFAULT));
            assertThat(messages).isNotEmpty().first().isInstanceOf(UserMessage.class);
            assertThat(((UserMessage) messages.getFirst()).singleText()).contains("Paris");
        }
    }

    @Test
    void aChatModelAnswersTheServersSamplingRequest() throws Exception {
        List<ChatRequest> asked = new ArrayList<>();
        ChatModel sampler = new ChatModel() {
            @Override
            public ChatResponse doChat(ChatRequest request) {
                asked.add(request);
                return ChatResponse.builder().aiMessage(AiMessage.from("sampled answer")).modelName("scripted")
                        .build();
            }
        };
        try (McpServers servers = McpServers.newBuilder().add(everything())
                .clientCustomizer((config, b) -> b.samplingHandler(ChatModelSamplingHandler.of(sampler)))
                .build()) {
            ToolProviderResult result = provide(LoomToolProvider.of(servers));
            ToolExecutionResult r = executor(result, "everything__trigger-sampling-request").executeWithContext(
                    call("everything__trigger-sampling-request", "{\"prompt\":\"what is loom?\",\"maxTokens\":50}"),
                    null);
            assertThat(r.isError()).isFalse();
            assertThat(r.resultText()).contains("sampled answer").contains("scripted");
            assertThat(asked).hasSize(1);
            assertThat(asked.getFirst().maxOutputTokens()).isEqualTo(50);
            assertThat(((UserMessage) asked.getFirst().messages().getLast()).singleText()).contains("what is loom?");
        }
    }

    @Test
    void anInterruptedAiServiceCallCancelsTheToolCallOnTheWire(@TempDir Path dir) throws Exception {
        Path wire = dir.resolve("wire.log");
        List<String> command = new ArrayList<>(List.of("node",
                ReferenceServer.nodeDir().resolve("wire-tap.cjs").toString(), wire.toString()));
        command.addAll(ReferenceServer.stdioCommand());
        try (McpServers servers = McpServers.newBuilder().add(StdioServerConfig.of("everything", command))
                .build()) {
            ScriptedChatModel model = new ScriptedChatModel("everything__trigger-long-running-operation",
                    "{\"duration\":60,\"steps\":60}");
            ScriptedChatModel.Assistant assistant = AiServices.builder(ScriptedChatModel.Assistant.class)
                    .chatModel(model).toolProvider(LoomToolProvider.of(servers)).build();
            CompletableFuture<String> answer = new CompletableFuture<>();
            Thread t = Thread.ofVirtual().start(() -> {
                try {
                    answer.complete(assistant.chat("run it"));
                } catch (Throwable e) {
                    answer.completeExceptionally(e);
                }
            });
            String callLine = awaitLine(wire, "\"tools/call\"");
            t.interrupt();
            t.join(WAIT);
            assertThat(t.isAlive()).isFalse();
            assertThat(answer).isCompletedExceptionally(); // the next model call saw the interrupt
            String id = callLine.replaceAll(".*\"id\":\\s*(\"[^\"]*\"|\\d+).*", "$1");
            String cancel = awaitLine(wire, "notifications/cancelled");
            assertThat(cancel).contains("\"requestId\":" + id);
            // the model was asked once: its second call saw the interrupt and failed, as an HTTP model's would
            assertThat(model.offered).hasSize(1);
        }
    }

    @Test
    void theCallTimeoutBoundsEachCallAndTimeoutsMustBePositive() throws Exception {
        try (McpServers servers = McpServers.newBuilder().add(everything()).build()) {
            LoomToolProvider.Builder builder = LoomToolProvider.newBuilder(servers);
            assertThatThrownBy(() -> builder.callTimeout(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("callTimeout");
            assertThatThrownBy(() -> builder.listTimeout(Duration.ofSeconds(-1)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("listTimeout");
            ToolProviderResult result = provide(builder.callTimeout(Duration.ofMillis(500))
                    .listTimeout(Duration.ofSeconds(30)).build());
            // a loom failure reaches LangChain4j's error handler as the McpException itself
            assertThatThrownBy(() -> executor(result, "everything__trigger-long-running-operation")
                    .executeWithContext(call("everything__trigger-long-running-operation",
                            "{\"duration\":60,\"steps\":60}"), null))
                    .isInstanceOf(McpTimeoutException.class);
        }
    }

    @Test
    void aProviderOverClientsNamesToolsByServerName() throws Exception {
        try (McpClient a = McpClient.newBuilder(StdioTransport.newBuilder(ReferenceServer.stdioCommand()).build())
                .serverName("ref server").build();
             McpClient b = McpClient.newBuilder(StdioTransport.newBuilder(ReferenceServer.stdioCommand()).build())
                     .serverName("ref server").build()) {
            a.connect();
            b.connect();
            LoomToolProvider provider = LoomToolProvider.newBuilder(List.of(a, b)).build();
            assertThat(provider.isDynamic()).isFalse(); // one tools/list per client per AI service call
            assertThat(LoomToolProvider.of(McpServers.newBuilder().build()).isDynamic()).isTrue();
            ToolProviderResult result = provide(provider);
            assertThat(result.aiServiceTools()).extracting(t -> t.name())
                    .contains("ref_server__echo", "ref_server_2__echo");
            assertThat(executor(result, "ref_server_2__echo").executeWithContext(
                    call("ref_server_2__echo", "{\"message\":\"two\"}"), null).resultText()).isEqualTo("Echo: two");
        }
    }

    @Test
    void aServerDownAtStartupLeavesTheOthersAndItsToolsGetAClearMessage() throws Exception {
        try (McpServers servers = McpServers.newBuilder().add(everything())
                .add(StdioServerConfig.of("down", List.of("node", "-e", "process.exit(3)")))
                .build()) {
            LoomToolProvider provider = LoomToolProvider.of(servers);
            ScriptedChatModel model = new ScriptedChatModel("down__echo", "{\"message\":\"hi\"}");
            ScriptedChatModel.Assistant assistant = AiServices.builder(ScriptedChatModel.Assistant.class)
                    .chatModel(model).toolProvider(provider).hallucinatedToolNameStrategy(provider::unknownTool)
                    .build();
            String answer = assistant.chat("use the down server");
            assertThat(model.offered.getFirst()).contains("everything__echo").noneMatch(n -> n.startsWith("down"));
            assertThat(answer).contains("MCP tool 'down__echo' is not available: server 'down' is FAILED");
            ToolExecutionResultMessage unknown = provider.unknownTool(call("nothing", "{}"));
            assertThat(unknown.isError()).isTrue();
            assertThat(unknown.text()).contains("no tool named 'nothing'").contains("everything, down");
        }
    }

    private static String awaitLine(Path file, String needle) throws Exception {
        long end = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < end) {
            if (Files.exists(file)) {
                for (String line : Files.readAllLines(file)) {
                    if (line.contains(needle)) {
                        return line;
                    }
                }
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
        throw new AssertionError("no line with " + needle + " in " + file + " within " + WAIT);
    }
}
