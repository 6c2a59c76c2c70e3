package dev.loommcp.spring.ai;

import dev.loommcp.McpClosedException;
import dev.loommcp.RequestOptions;
import dev.loommcp.hosts.HostedTool;
import dev.loommcp.hosts.McpServers;
import dev.loommcp.schema.Tool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiPredicate;
import java.util.function.Supplier;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * The tools of an {@link McpServers} registry as Spring AI {@link ToolCallback}s, for {@code ChatClient}:
 * {@code chatClient.prompt().user(...).tools(loomTools.asProvider()).call()}.
 *
 * <p>Nothing is started when this object is made: the servers start when the tools are first listed
 * ({@link #toolCallbacks()}, which Spring AI calls when a request that names the provider is built) or when a tool is
 * called. A server that is down is left out of the list (its status says why: {@link McpServers#statuses()}); the
 * other servers' tools are listed. Do <em>not</em> register {@link #asProvider()} (or the callbacks) as Spring beans:
 * Spring AI lists every {@code ToolCallbackProvider} bean when the context starts, which would start every server
 * then (docs/frameworks.md).
 *
 * <p>The list follows the registry's, which refreshes a server's tools after its
 * {@code notifications/tools/list_changed} and after a restart; a callback is made once per listed tool and reused
 * while the tool is unchanged, so listing ready servers costs no I/O.
 *
 * <p>Thread-safe.
 */
public final class LoomToolCallbacks {

    private final McpServers servers;
    private final BiPredicate<String, Tool> filter;
    private final RequestOptions callOptions;
    private final Duration listTimeout;
    private final Map<HostedTool, LoomToolCallback> callbacks = new ConcurrentHashMap<>();
    private final ToolCallbackProvider provider = this::providedCallbacks;

    private LoomToolCallbacks(Builder builder) {
        this.servers = builder.servers;
        this.filter = builder.filter;
        this.callOptions = builder.callOptions;
        this.listTimeout = builder.listTimeout;
    }

    /**
     * Returns callbacks for every tool of the registry, with the default settings of {@link #newBuilder}.
     *
     * @param servers the registry; its owner closes it
     * @return the callbacks
     */
    public static LoomToolCallbacks of(McpServers servers) {
        return newBuilder(servers).build();
    }

    /**
     * Returns a builder over a registry.
     *
     * @param servers the registry; its owner closes it
     * @return a builder with no filter, the default request options and a listing wait of 30 seconds
     */
    public static Builder newBuilder(McpServers servers) {
        return new Builder(servers);
    }

    /**
     * Lists the callbacks of the tools of every ready server, passing the filter: idle servers are started (all at
     * once) and starting ones waited for up to the listing timeout; servers that failed or are not ready by then are
     * left out.
     *
     * @return the callbacks, server by server in registry order
     * @throws McpClosedException   if the registry is closed
     * @throws InterruptedException if the calling thread is interrupted
     */
    public List<ToolCallback> toolCallbacks() throws InterruptedException {
        List<HostedTool> tools = servers.tools(RequestOptions.ofTimeout(listTimeout));
        List<ToolCallback> list = new ArrayList<>(tools.size());
        for (HostedTool tool : tools) {
            if (filter.test(tool.server(), tool.tool())) {
                list.add(callbacks.computeIfAbsent(tool, t -> new LoomToolCallback(servers, t.name(),
                        () -> LoomToolCallback.definitionOf(t), callOptions)));
            }
        }
        if (callbacks.size() > 2 * Math.max(list.size(), 16)) {   // tools gone after list changes or restarts
            callbacks.keySet().retainAll(tools);
        }
        return List.copyOf(list);
    }

    /**
     * Returns a callback for a tool by the name the registry gives it ({@code server__tool}), without listing
     * anything: for a tool the model must be offered even while its server is down (the call then fails with a
     * {@link org.springframework.ai.tool.execution.ToolExecutionException} naming the server and why). Its definition
     * is the listed tool's when the server is ready when it is read, else the name with an empty object schema. The
     * filter is not applied.
     *
     * @param name the tool's name in the registry, {@code server + separator + tool}
     * @return the callback
     */
    public ToolCallback toolCallback(String name) {
        Objects.requireNonNull(name, "name");
        Supplier<ToolDefinition> definition = () -> servers.tool(name).map(LoomToolCallback::definitionOf)
                .orElseGet(() -> ToolDefinition.builder().name(name).description(name)
                        .inputSchema("{\"type\":\"object\",\"properties\":{}}").build());
        return new LoomToolCallback(servers, name, definition, callOptions);
    }

    /**
     * Returns a provider to pass to {@code ChatClient}'s {@code tools(...)} or {@code defaultTools(...)}; each
     * {@link ToolCallbackProvider#getToolCallbacks()} lists as {@link #toolCallbacks()} does. An interrupt while it
     * waits for starting servers ends the wait with the tools of the servers ready then, and the thread's interrupt
     * flag set.
     *
     * @return the provider (one instance per {@code LoomToolCallbacks})
     * @throws McpClosedException from {@code getToolCallbacks()} if the registry is closed
     */
    public ToolCallbackProvider asProvider() {
        return provider;
    }

    private ToolCallback[] providedCallbacks() {
        try {
            return toolCallbacks().toArray(ToolCallback[]::new);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return callbacks.entrySet().stream()
                    .filter(e2 -> servers.tool(e2.getKey().name()).isPresent())
                    .map(Map.Entry::getValue).toArray(ToolCallback[]::new);
        }
    }

    @Override
    public String toString() {
        return "LoomToolCallbacks[" + servers + "]";
    }

    /** Settings of {@link LoomToolCallbacks}; not thread-safe. */
    public static final class Builder {
        private final McpServers servers;
        private BiPredicate<String, Tool> filter = (server, tool) -> true;
        private RequestOptions callOptions = RequestOptions.DEFAULT;
        private Duration listTimeout = Duration.ofSeconds(30);

        private Builder(McpServers servers) {
            this.servers = Objects.requireNonNull(servers, "servers");
        }

        /**
         * Keeps only the tools the filter accepts.
         *
         * @param filter given the server's name and the tool as the server listed it; {@code true} keeps the tool
         * @return this builder
         */
        public Builder filter(BiPredicate<String, Tool> filter) {
            this.filter = Objects.requireNonNull(filter, "filter");
            return this;
        }

        /**
         * Sets the options of every tool call: timeout or deadline, progress listener, {@code _meta} entries (the
         * tool context's entries are added to them). Default {@link RequestOptions#DEFAULT} (the client's default
         * timeout).
         *
         * @param options the options
         * @return this builder
         */
        public Builder requestOptions(RequestOptions options) {
            this.callOptions = Objects.requireNonNull(options, "options");
            return this;
        }

        /**
         * Sets how long a listing waits for servers that are starting. Default 30 seconds.
         *
         * @param timeout a positive duration
         * @return this builder
         * @throws IllegalArgumentException if it is zero or negative
         */
        public Builder listTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("listTimeout must be positive, got " + timeout);
            }
            this.listTimeout = timeout;
            return this;
        }

        /**
         * Builds the callbacks; starts nothing.
         *
         * @return the callbacks
         */
        public LoomToolCallbacks build() {
            return new LoomToolCallbacks(this);
        }
    }
}
