package dev.loommcp.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.langchain4j.service.tool.ToolProvider;
import dev.langchain4j.service.tool.ToolProviderRequest;
import dev.langchain4j.service.tool.ToolProviderResult;
import dev.loommcp.McpCancelledException;
import dev.loommcp.McpClient;
import dev.loommcp.McpException;
import dev.loommcp.RequestOptions;
import dev.loommcp.hosts.HostedTool;
import dev.loommcp.hosts.McpServers;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * MCP servers' tools as a LangChain4j {@link ToolProvider}: give it to
 * {@code AiServices.builder(...).toolProvider(provider)} and the model sees every tool of every server (under the
 * namespaced names {@link McpServers} gives them, {@code server__tool}), each executed through loom-mcp.
 *
 * <pre>{@code
 * McpServers servers = McpServers.newBuilder().config(Path.of("mcp.json")).build();
 * Assistant assistant = AiServices.builder(Assistant.class)
 *         .chatModel(model)
 *         .toolProvider(LoomToolProvider.of(servers))
 *         .build();
 * }</pre>
 *
 * <p><b>Tools.</b> Each call of {@link #provideTools} lists the tools of the servers that are up ({@link
 * McpServers#tools(RequestOptions)}: idle servers are started, a server that fails is left out and the others stay;
 * see {@link McpServers#statuses()}), filtered ({@link Builder#filter}) and named ({@link Builder#toolNameMapper});
 * their input schemas are converted by {@link LangChain4jSchemas} (a tool whose conversion fails is left out with a
 * warning, never the whole server). Over a registry the provider is {@linkplain #isDynamic() dynamic}: LangChain4j
 * asks again before each model call of a conversation, so a tool list that changed
 * ({@code notifications/tools/list_changed}, a server restarted or reloaded) is seen on the next turn.
 *
 * <p><b>Execution.</b> A tool's {@link ToolExecutor} parses the arguments (a JSON object; anything else throws
 * LangChain4j's {@code ToolArgumentsException}, which its {@code ToolArgumentsErrorHandler} handles) and calls the
 * tool through loom-mcp on the caller's thread. The result maps to a {@code ToolExecutionResult}: {@code isError}
 * as the server said; the text is the result's text blocks joined by newlines (or, with none, its
 * {@code structuredContent} as JSON, integers of any size exactly); images and audio become LangChain4j image and
 * audio contents beside the text; {@code result()} is the {@code structuredContent} map when present, else the
 * text; {@code attributes()} are the result's {@code _meta}. A server's {@code isError: true} is a result the model
 * sees. A loom-mcp failure (server unavailable, timeout, JSON-RPC error, transport) is thrown as the
 * {@link McpException} itself: that is LangChain4j's contract for a failed execution, so its
 * {@code ToolExecutionErrorHandler} decides (by default the exception's message, which names the server, goes to the
 * model as an error result and the conversation goes on; an application that wants the call to fail configures a
 * handler that rethrows).
 *
 * <p><b>Cancellation.</b> Interrupting the thread that runs the AI service call (for example
 * {@code Future.cancel(true)}) while a tool runs cancels the MCP request on the wire ({@code notifications/cancelled},
 * or the task's {@code tasks/cancel}); the executor then throws {@link McpCancelledException} with the thread's
 * interrupt status set again, so the AI service call ends at its next blocking step (the model's HTTP call).
 *
 * <p><b>Resources.</b> With {@link Builder#resourcesAsTools(boolean)} two more tools are offered:
 * {@value #LIST_RESOURCES} (optional {@code server}) lists the servers' resources, {@value #READ_RESOURCE}
 * ({@code server}, {@code uri}) reads one. A {@code server} that names no server is an error result the model reads
 * (it lists the servers), as {@link #unknownTool} answers a made-up tool name, so the AI service call goes on.
 *
 * <p>Thread-safe: one provider may serve many AI services and conversations at once. It owns nothing: closing the
 * registry or the clients is the caller's business.
 */
public final class LoomToolProvider implements ToolProvider {

    /** The name of the tool that lists the servers' resources ({@link Builder#resourcesAsTools}). */
    public static final String LIST_RESOURCES = "mcp_list_resources";

    /** The name of the tool that reads one resource ({@link Builder#resourcesAsTools}). */
    public static final String READ_RESOURCE = "mcp_read_resource";

    private static final System.Logger LOG = ToolSource.LOG;

    private final ToolSource source;
    private final Predicate<HostedTool> filter;
    private final Function<HostedTool, String> nameMapper;
    private final boolean resourcesAsTools;
    private final RequestOptions callOptions;
    private final RequestOptions listOptions;
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    private LoomToolProvider(Builder b) {
        this.source = b.source;
        this.filter = b.filter;
        this.nameMapper = b.nameMapper;
        this.resourcesAsTools = b.resourcesAsTools;
        this.callOptions = b.callTimeout == null ? RequestOptions.DEFAULT : RequestOptions.ofTimeout(b.callTimeout);
        this.listOptions = b.listTimeout == null ? RequestOptions.DEFAULT : RequestOptions.ofTimeout(b.listTimeout);
    }

    /**
     * A provider of every tool of a registry's servers, under the registry's names, with no resource tools.
     *
     * @param servers the registry (the caller closes it)
     * @return the provider
     */
    public static LoomToolProvider of(McpServers servers) {
        return newBuilder(servers).build();
    }

    /**
     * A builder over a registry: tool names are {@link HostedTool#name()} (normally {@code server__tool}).
     *
     * @param servers the registry (the caller closes it)
     * @return a builder
     */
    public static Builder newBuilder(McpServers servers) {
        return new Builder(new ToolSource.Registry(Objects.requireNonNull(servers, "servers")));
    }

    /**
     * A builder over clients the caller connected: each client's tools are named
     * {@code serverName + "__" + tool} (characters outside {@code [A-Za-z0-9_-]} become {@code _}; a name is cut to
     * 64 characters and made unique with a {@code _2}, {@code _3} suffix; two clients with one server name get
     * {@code name} and {@code name_2}). A client whose tool list fails is left out of that turn's tools.
     *
     * @param clients the clients (the caller connects and closes them)
     * @return a builder
     */
    public static Builder newBuilder(List<? extends McpClient> clients) {
        Objects.requireNonNull(clients, "clients").forEach(c -> Objects.requireNonNull(c, "a client is null"));
        return new Builder(new ToolSource.Clients(List.copyOf(clients)));
    }

    /**
     * Lists the tools for one turn of an AI service call (see the class comment). Never throws for one server's or
     * one tool's failure; blocks while idle servers start (bounded by {@link Builder#listTimeout}, else the
     * registry's ready timeout).
     *
     * @param request LangChain4j's request (not used: every conversation sees the same tools)
     * @return the tools and their executors
     * @throws McpCancelledException if the thread is interrupted while servers start (its interrupt status is set
     *                               again)
     * @throws dev.loommcp.McpClosedException if the registry is closed
     */
    @Override
    public ToolProviderResult provideTools(ToolProviderRequest request) {
        List<HostedTool> tools;
        try {
            tools = source.tools(listOptions);
        } catch (InterruptedException e) {
            throw LoomToolExecutor.interrupted("listing the MCP servers' tools");
        }
        ToolProviderResult.Builder result = ToolProviderResult.builder();
        Set<String> names = new HashSet<>();
        for (HostedTool tool : tools) {
            try {
                if (!filter.test(tool)) {
                    continue;
                }
                String name = Objects.requireNonNull(nameMapper.apply(tool), "the tool name mapper gave null");
                if (!names.add(name)) {
                    leftOut(tool, "the name '" + name + "' is taken");
                    continue;
                }
                result.add(LangChain4jSchemas.toToolSpecification(name, tool.tool()),
                        new LoomToolExecutor(source, tool, callOptions));
            } catch (RuntimeException e) {
                // one tool's odd schema, filter or mapper failure never costs the other tools
                leftOut(tool, e.toString());
            }
        }
        if (resourcesAsTools && !source.servers().isEmpty()) {
            addResourceTools(result, names);
        }
        return result.build();
    }

    /** Logs a tool left out: at WARNING the first time (per tool and reason), then at DEBUG (asked every turn). */
    private void leftOut(HostedTool tool, String reason) {
        String key = tool.server() + '\0' + tool.tool().name() + '\0' + reason;
        boolean first = warned.size() < 1024 && warned.add(key);
        LOG.log(first ? System.Logger.Level.WARNING : System.Logger.Level.DEBUG,
                "MCP tool ''{0}'' of server ''{1}'' left out: {2}", tool.tool().name(), tool.server(), reason);
    }

    /**
     * Whether LangChain4j asks for the tools before each model call of a conversation (1.13 and later) rather than
     * once per AI service call. {@code true} over a registry: its lists are cached and refreshed on
     * {@code notifications/tools/list_changed}, restarts and reloads, so asking is cheap and a change shows on the
     * next turn. {@code false} over a list of clients: each listing is a {@code tools/list} round trip per client,
     * done once per AI service call.
     *
     * @return {@code true} over a registry, {@code false} over clients
     */
    @Override
    public boolean isDynamic() {
        return source instanceof ToolSource.Registry;
    }

    /**
     * Answers a model's call of a tool this provider did not offer, for
     * {@code AiServices.builder(...).hallucinatedToolNameStrategy(provider::unknownTool)}: LangChain4j's default
     * throws and ends the AI service call. The answer, an error result the model sees, says why: for a name
     * {@code server__tool} of a registry server that is not up, the server's state and last error (for example a
     * server that failed to start); otherwise that no such tool exists and which servers there are. Never throws,
     * starts nothing, never waits.
     *
     * @param request the model's tool call
     * @return the error result for the model
     */
    public ToolExecutionResultMessage unknownTool(ToolExecutionRequest request) {
        Objects.requireNonNull(request, "request");
        String name = request.name() == null ? "" : request.name();
        return ToolExecutionResultMessage.builder().id(request.id()).toolName(name).isError(true)
                .text(source.unavailable(name)).build();
    }

    private void addResourceTools(ToolProviderResult.Builder result, Set<String> names) {
        List<String> servers = source.servers();
        JsonEnumSchema serverEnum = JsonEnumSchema.builder().enumValues(servers)
                .description("the MCP server's name").build();
        if (names.add(LIST_RESOURCES)) {
            result.add(ToolSpecification.builder().name(LIST_RESOURCES)
                            .description("Lists the resources (documents, files, data) the MCP servers offer, with "
                                    + "their URIs; read one with " + READ_RESOURCE + ".")
                            .parameters(JsonObjectSchema.builder().addProperty("server", serverEnum).build()).build(),
                    new ResourceTools.Lister(source, listOptions));
        }
        if (names.add(READ_RESOURCE)) {
            result.add(ToolSpecification.builder().name(READ_RESOURCE)
                            .description("Reads one resource of an MCP server by its URI (from " + LIST_RESOURCES
                                    + ").")
                            .parameters(JsonObjectSchema.builder().addProperty("server", serverEnum)
                                    .addProperty("uri", JsonStringSchema.builder().description("the resource's URI")
                                            .build())
                                    .required("server", "uri").build()).build(),
                    new ResourceTools.Reader(source, callOptions));
        }
    }

    /**
     * Builds a {@link LoomToolProvider}. Not thread-safe; the provider it builds is.
     */
    public static final class Builder {
        private final ToolSource source;
        private Predicate<HostedTool> filter = t -> true;
        private Function<HostedTool, String> nameMapper = HostedTool::name;
        private boolean resourcesAsTools;
        private @Nullable Duration callTimeout;
        private @Nullable Duration listTimeout;

        private Builder(ToolSource source) {
            this.source = source;
        }

        /**
         * Offers only the tools the filter accepts (default: all). Called for each tool on each
         * {@link #provideTools}; a filter that throws leaves that tool out.
         *
         * @param filter sees the server's name ({@link HostedTool#server()}) and the tool as listed
         * @return this builder
         */
        public Builder filter(Predicate<HostedTool> filter) {
            this.filter = Objects.requireNonNull(filter, "filter");
            return this;
        }

        /**
         * Names the tools for the model (default: {@link HostedTool#name()}, {@code server__tool}). The executor
         * always calls the server's own tool name. A name given twice keeps the first tool (the other is left out
         * with a warning); a model provider may reject names outside {@code ^[A-Za-z0-9_-]{1,64}$}.
         *
         * @param nameMapper the tool's name for the model
         * @return this builder
         */
        public Builder toolNameMapper(Function<HostedTool, String> nameMapper) {
            this.nameMapper = Objects.requireNonNull(nameMapper, "nameMapper");
            return this;
        }

        /**
         * Also offers the servers' resources as two tools, {@value #LIST_RESOURCES} and {@value #READ_RESOURCE}
         * (default: off).
         *
         * @param on whether to offer them
         * @return this builder
         */
        public Builder resourcesAsTools(boolean on) {
            this.resourcesAsTools = on;
            return this;
        }

        /**
         * The timeout of each tool call and resource read (default: the client's request timeout).
         *
         * @param timeout a positive duration
         * @return this builder
         * @throws IllegalArgumentException if it is not positive
         */
        public Builder callTimeout(Duration timeout) {
            this.callTimeout = positive(timeout, "callTimeout");
            return this;
        }

        /**
         * How long listing the tools may wait for servers that are starting (default: the registry's ready
         * timeout, or the client's request timeout); a server not ready by then is left out of that turn.
         *
         * @param timeout a positive duration
         * @return this builder
         * @throws IllegalArgumentException if it is not positive
         */
        public Builder listTimeout(Duration timeout) {
            this.listTimeout = positive(timeout, "listTimeout");
            return this;
        }

        /**
         * Builds the provider.
         *
         * @return the provider
         */
        public LoomToolProvider build() {
            return new LoomToolProvider(this);
        }

        private static Duration positive(Duration d, String what) {
            Objects.requireNonNull(d, what);
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(what + " must be positive, was " + d);
            }
            return d;
        }
    }
}
