package dev.loommcp.examples.langchain4j;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.AiServices;
import dev.loommcp.hosts.McpServers;
import dev.loommcp.hosts.McpServersFile;
import dev.loommcp.hosts.ServerConfig;
import dev.loommcp.langchain4j.LoomToolProvider;
import dev.loommcp.tasks.McpTasks;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A LangChain4j agent whose tools are the tools of MCP servers, through loom-mcp: an {@code mcpServers} file (the
 * format Claude Desktop, VS Code and Cursor use) becomes an {@link McpServers} registry, the registry a
 * {@link LoomToolProvider}, the provider the tools of an {@link AiServices} assistant.
 *
 * <ul>
 *   <li>Starting the app starts no server: each starts on the first turn that needs the tools, so one server that
 *       is down never stops the app (its tools are left out, the others work, and a model that calls one of its
 *       tools is told which server failed and why).</li>
 *   <li>A server that crashes is restarted by the registry; the next call goes to the new process.</li>
 *   <li>Task-backed tools (MCP tasks) work like any other tool: each server's client has its own {@link McpTasks}.</li>
 *   <li>Interrupting the thread of {@link #ask} cancels the running MCP call on the wire.</li>
 *   <li>{@link #close()} stops every server process.</li>
 * </ul>
 *
 * <p>Run it with {@code java dev.loommcp.examples.langchain4j.AgentApp mcp.json [tool [argumentsJson]]}: it asks
 * the scripted model one question and prints the answer.
 */
public final class AgentApp implements AutoCloseable {

    /** The assistant: LangChain4j implements it. */
    public interface Assistant {
        /**
         * Answers one user message.
         *
         * @param userMessage the question
         * @return the answer
         */
        String chat(String userMessage);
    }

    private final McpServers servers;
    private final Assistant assistant;

    private AgentApp(McpServers servers, Assistant assistant) {
        this.servers = servers;
        this.assistant = assistant;
    }

    /**
     * Builds the app: the registry (lazy: nothing starts here), the tool provider and the assistant.
     *
     * @param configs the MCP servers
     * @param model   the chat model
     * @return the app; close it to stop the servers
     */
    public static AgentApp start(List<? extends ServerConfig> configs, ChatModel model) {
        Map<String, McpTasks> tasks = new ConcurrentHashMap<>();
        McpServers servers = McpServers.newBuilder()
                .addAll(configs)
                // one McpTasks per server: a task-backed tool returns its final result to the executor
                .clientCustomizer((config, client) -> client.taskSupport(
                        tasks.computeIfAbsent(config.name(), name -> McpTasks.create()).support()))
                .build();
        LoomToolProvider tools = LoomToolProvider.newBuilder(servers)
                .callTimeout(Duration.ofMinutes(2))
                .build();
        Assistant assistant = AiServices.builder(Assistant.class)
                .chatModel(model)
                .toolProvider(tools)
                // a tool of a server that is down: the model is told why instead of the call failing
                .hallucinatedToolNameStrategy(tools::unknownTool)
                .build();
        return new AgentApp(servers, assistant);
    }

    /**
     * Asks the assistant; runs the tool calls the model asks for on this thread.
     *
     * @param question the user's message
     * @return the model's answer
     */
    public String ask(String question) {
        return assistant.chat(question);
    }

    /**
     * The registry, for its statuses (which servers are up, restarts, last errors).
     *
     * @return the registry
     */
    public McpServers servers() {
        return servers;
    }

    /** Stops every server process. */
    @Override
    public void close() {
        servers.close();
    }

    /**
     * Runs one question against the servers of an {@code mcpServers} file and prints the answer.
     *
     * @param args the file, then optionally the tool to ask for (default {@code everything__echo}) and its
     *             arguments (default {@code {"message":"hi"}})
     * @throws IOException if the file cannot be read
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: AgentApp MCP_JSON [TOOL [ARGUMENTS_JSON]]");
            System.exit(2);
        }
        List<ServerConfig> configs = McpServersFile.read(Path.of(args[0]));
        String tool = args.length > 1 ? args[1] : "everything__echo";
        String arguments = args.length > 2 ? args[2] : "{\"message\":\"hi\"}";
        try (AgentApp app = start(configs, new ScriptedChatModel(tool, arguments))) {
            System.out.println(app.ask("Call the tool, please."));
        }
    }
}
