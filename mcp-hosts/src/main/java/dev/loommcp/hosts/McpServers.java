package dev.loommcp.hosts;

import dev.loommcp.policy.ResiliencePolicy;
import dev.loommcp.McpClient;
import dev.loommcp.McpClosedException;
import dev.loommcp.intercept.McpInterceptor;
import dev.loommcp.intercept.ServerRequestInterceptor;
import dev.loommcp.RequestOptions;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.Deadline;
import dev.loommcp.spi.TransportThreads;
import dev.loommcp.transport.http.HttpTransport;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * A registry of MCP servers, the way agent hosts use them: built from code or from an {@code mcpServers} file,
 * started lazily (on first use) or eagerly ({@link #startAll()}), each server in parallel and with its own startup
 * deadline, so a server that fails or hangs never holds up the others. A server whose connection fails after it was
 * ready (its stdio process exits, the client gives up on its HTTP connection) is restarted with bounded exponential
 * backoff ({@link RestartPolicy}); every state change ({@link ServerState}) and every completed re-list of a server's tools goes to a
 * {@link McpServersListener}.
 *
 * <pre>{@code
 * try (McpServers servers = McpServers.newBuilder()
 *         .config(Path.of("mcp.json"))                 // or .add(StdioServerConfig.of("files", "npx", ...))
 *         .listener(new McpServersListener() {
 *             public void onStateChanged(ServerStateChange change) { log(change); }
 *             public void onToolsListChanged(String server) { refreshModelTools(); }
 *         })
 *         .build()) {
 *     servers.startAll();                              // optional: otherwise each starts on first use
 *     for (HostedTool t : servers.tools()) { ... }     // "files__read_file", "github__search", ...
 *     CallToolResult r = servers.callTool("files__read_file", Map.of("path", "/tmp/a.txt"));
 * }
 * }</pre>
 *
 * <h2>Namespaced tools</h2>
 * {@link #tools()} lists the tools of every ready server under a name a model accepts
 * ({@code ^[a-zA-Z0-9_-]{1,64}$}, what chat APIs take), derived from the full name {@code server + separator + tool}
 * ({@linkplain Builder#separator the separator} is {@code __} by default): a full name that fits is kept; any other
 * has each other character replaced by {@code _} and, when longer than 64 characters or when two tools would get the
 * same name, is cut and ends in {@code _} and 8 hex digits of the SHA-256 of the full name (see docs/hosts.md for the
 * exact rule). The names are collision-free and stable: the same servers and tools give the same names in every run.
 * {@link #tool(String)} maps either name back to the server and tool, and {@link #callTool} routes by either. The
 * lists are refreshed when a server sends {@code notifications/tools/list_changed}. Server names may not contain the
 * separator nor end with its beginning, so the first separator in a full name always ends the server's name.
 *
 * <h2>Restarts and reloads</h2>
 * {@link #restart(String)} starts a server again on demand; {@link #reload(List)} applies a new list of servers
 * (an edited file): added ones are added, removed ones closed, changed ones replaced, and unchanged ones keep running
 * (the same process or session).
 *
 * <h2>Threads and closing</h2>
 * Thread-safe: every method may be called from many (virtual) threads at once; state lives under
 * {@link java.util.concurrent.locks.ReentrantLock}s and no lock is held while a call waits. The registry's threads are
 * virtual threads named {@code mcp-hosts-*}. {@link #close()} closes every server in parallel and returns within
 * {@linkplain Builder#closeTimeout the close timeout}; afterwards every call fails with {@link McpClosedException}.
 */
public final class McpServers implements AutoCloseable {

    /** The servers, replaced as a whole (under {@link #reloading}) by a reload; read without a lock. */
    private volatile Map<String, HostedServer> servers;
    /** Serializes reloads, and a reload with close. Never held while a server closes or a listener runs. */
    private final java.util.concurrent.locks.ReentrantLock reloading = new java.util.concurrent.locks.ReentrantLock();
    /** The names of the tools as last computed, reused while no server's tool list changed. */
    private final ToolNaming toolNaming;
    private final String separator;
    private final Duration closeTimeout;
    private final HostSettings settings;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * The customizer of each server's client builder: the registry's interceptors first (the outermost, in the order
     * added), then the application's customizer (whose interceptors run inside them).
     */
    private static BiConsumer<ServerConfig, McpClient.Builder> withInterceptors(List<McpInterceptor> interceptors,
            List<ServerRequestInterceptor> serverRequestInterceptors,
            BiConsumer<ServerConfig, McpClient.Builder> customizer) {
        if (interceptors.isEmpty() && serverRequestInterceptors.isEmpty()) {
            return customizer;
        }
        return (config, builder) -> {
            interceptors.forEach(builder::addInterceptor);
            serverRequestInterceptors.forEach(builder::addServerRequestInterceptor);
            customizer.accept(config, builder);
        };
    }

    private McpServers(Builder b) {
        this.separator = b.separator;
        this.toolNaming = new ToolNaming(b.separator);
        this.closeTimeout = b.closeTimeout;
        this.settings = new HostSettings(b.startupTimeout, b.readyTimeout, b.restartPolicy, b.listener,
                withInterceptors(List.copyOf(b.interceptors), List.copyOf(b.serverRequestInterceptors), b.customizer),
                b.httpCustomizer, TransportThreads.standard(), b.transports, b.stderrInStatus, b.resilience,
                Map.copyOf(b.resilienceOf));
        Map<String, HostedServer> map = new LinkedHashMap<>();
        for (ServerConfig c : b.configs) {
            map.put(c.name(), new HostedServer(c, settings));
        }
        this.servers = java.util.Collections.unmodifiableMap(map);
    }

    /**
     * Returns a builder of an empty registry.
     *
     * @return the builder
     */
    public static Builder newBuilder() {
        return new Builder();
    }

    /**
     * Returns the names of the servers, in the order they were added (after a reload, the file's order).
     *
     * @return an unmodifiable list
     */
    public List<String> names() {
        return List.copyOf(servers.keySet());
    }

    /**
     * Returns one server: its state, its tools, and the host interfaces with its own tool names.
     *
     * @param name the server's name
     * @return the server
     * @throws IllegalArgumentException if there is no server of that name (the message lists the names)
     */
    public HostedServer server(String name) {
        HostedServer s = servers.get(Objects.requireNonNull(name, "name"));
        if (s == null) {
            throw new IllegalArgumentException("no MCP server named '" + ToolNaming.printable(name)
                    + "' (the servers are: " + String.join(", ", servers.keySet()) + ")");
        }
        return s;
    }

    /**
     * Returns a snapshot of every server, in order. Takes no lock of the registry and never waits (each server's
     * status is the one published at its last change, with its circuit breaker's state as the client knows it now:
     * {@link HostedServer#status()}), so a {@link McpServersListener} may call it.
     *
     * @return the statuses
     */
    public List<ServerStatus> statuses() {
        return servers.values().stream().map(HostedServer::status).toList();
    }

    /**
     * Starts a server again now: a failed or idle one starts, a ready one has its client closed (its process tree
     * ended, its HTTP session deleted) and a new one started, one waiting out a restart backoff starts at once. The
     * restart policy's count of consecutive restarts starts afresh. Returns at once; the listener hears each change,
     * and calls wait for the server as for any start. See {@link HostedServer#restart()}.
     *
     * @param name the server's name
     * @throws IllegalArgumentException if there is no server of that name (the message lists the names)
     * @throws McpClosedException       if the registry is closed
     */
    public void restart(String name) {
        if (closed.get()) {
            throw new McpClosedException("the server registry is closed", null);
        }
        server(name).restart();
    }

    /**
     * Reads an {@code mcpServers} file again ({@link McpServersFile#read(Path)}) and applies it: see
     * {@link #reload(List)}.
     *
     * @param mcpJson the file
     * @return what changed
     * @throws IOException              if it cannot be read
     * @throws IllegalArgumentException if it is not valid (the message says where); nothing changes then
     * @throws McpClosedException       if the registry is closed
     */
    public ReloadResult reload(Path mcpJson) throws IOException {
        return reload(McpServersFile.read(mcpJson));
    }

    /**
     * Reads an {@code mcpServers} file again with the given options ({@link McpServersFile#read(Path,
     * McpServersFile.Options)}) and applies it: see {@link #reload(List)}.
     *
     * @param mcpJson the file
     * @param options the environment, input prompt, workspace folder and home directory
     * @return what changed
     * @throws IOException              if it cannot be read
     * @throws IllegalArgumentException if it is not valid (the message says where); nothing changes then
     * @throws McpClosedException       if the registry is closed
     */
    public ReloadResult reload(Path mcpJson, McpServersFile.Options options) throws IOException {
        return reload(McpServersFile.read(mcpJson, options));
    }

    /**
     * Applies a new list of servers, as after the user edited the file: a server whose name is new is added (idle:
     * it starts on first use or with {@link #startAll()}); one whose name is gone is closed (the listener sees it
     * {@link ServerState#CLOSED}); one whose configuration changed ({@code equals}: command, arguments, variables,
     * directory, URL, headers) is closed and replaced by a new one under the same name; one whose configuration is
     * equal keeps running: the same {@link HostedServer}, process and session, its calls in flight untouched. The
     * servers' order becomes the list's. A call that routes to a closed server meanwhile fails with
     * {@link McpClosedException}. Returns once the closed servers are closed (bounded by the close timeout).
     * Reloads run one at a time.
     *
     * @param configs the servers, names unique
     * @return the names added, removed, changed and unchanged
     * @throws IllegalArgumentException if a name repeats, contains the separator or ends with its beginning;
     *                                  nothing changes then
     * @throws McpClosedException       if the registry is closed
     */
    public ReloadResult reload(List<? extends ServerConfig> configs) {
        Objects.requireNonNull(configs, "configs");
        Builder.check(configs, separator);
        List<HostedServer> retired = new ArrayList<>();
        List<String> added = new ArrayList<>();
        List<String> removed = new ArrayList<>();
        List<String> changed = new ArrayList<>();
        List<String> unchanged = new ArrayList<>();
        reloading.lock();
        try {
            if (closed.get()) {
                throw new McpClosedException("the server registry is closed", null);
            }
            Map<String, HostedServer> old = servers;
            Map<String, HostedServer> next = new LinkedHashMap<>();
            for (ServerConfig c : configs) {
                HostedServer current = old.get(c.name());
                if (current == null) {
                    added.add(c.name());
                    next.put(c.name(), new HostedServer(c, settings));
                } else if (current.config().equals(c)) {
                    unchanged.add(c.name());
                    next.put(c.name(), current);
                } else {
                    changed.add(c.name());
                    retired.add(current);
                    next.put(c.name(), new HostedServer(c, settings));
                }
            }
            for (Map.Entry<String, HostedServer> e : old.entrySet()) {
                if (!next.containsKey(e.getKey())) {
                    removed.add(e.getKey());
                    retired.add(e.getValue());
                }
            }
            servers = java.util.Collections.unmodifiableMap(next);
        } finally {
            reloading.unlock();
        }
        closeAll(retired, Deadline.after(closeTimeout));
        return new ReloadResult(added, removed, changed, unchanged);
    }

    /**
     * Returns the separator between a server's name and its tool's name.
     *
     * @return the separator
     */
    public String separator() {
        return separator;
    }

    /**
     * Starts every idle server at once, each on its own thread, and waits until each is ready or failed, each within
     * the startup timeout (so the wait ends within about one startup timeout). A server that fails is
     * {@link ServerState#FAILED} and reported to the listener; nothing is thrown for it.
     *
     * @return the statuses after the wait
     * @throws McpClosedException   if the registry is closed
     * @throws InterruptedException if the calling thread is interrupted (the servers keep starting)
     */
    public List<ServerStatus> startAll() throws InterruptedException {
        settleAll(Deadline.after(settings.startupTimeout().plusSeconds(1)));
        return statuses();
    }

    /**
     * Lists the tools of every server under their namespaced names, starting idle servers (all at once) and waiting
     * for starting or restarting ones up to the {@linkplain Builder#readyTimeout ready timeout}; see
     * {@link #tools(RequestOptions)}.
     *
     * @return the tools, server by server in registry order, each server's in its order
     * @throws McpClosedException   if the registry is closed
     * @throws InterruptedException if the calling thread is interrupted
     */
    public List<HostedTool> tools() throws InterruptedException {
        return tools(RequestOptions.DEFAULT);
    }

    /**
     * Lists the tools of every ready server under their namespaced names. Idle servers are started (all at once);
     * servers that are starting or restarting are waited for until the options' deadline (or the ready timeout);
     * servers that failed, or are not ready by then, are left out (see {@link #statuses()}). The lists are the ones
     * each server gave when it started, refreshed after its {@code notifications/tools/list_changed}.
     *
     * @param options the wait's timeout or deadline (other options are ignored)
     * @return the tools, server by server in registry order
     * @throws McpClosedException   if the registry is closed
     * @throws InterruptedException if the calling thread is interrupted
     */
    public List<HostedTool> tools(RequestOptions options) throws InterruptedException {
        settleAll(waitDeadline(options));
        return toolNaming.of(servers.values()).tools();
    }

    /**
     * Looks a tool up by the name {@link #tools()} gave it, or by its full name {@code server + separator + tool},
     * among the tools of the servers that are ready now; starts nothing and never waits.
     *
     * @param name the name a model was given, or the full name
     * @return the tool (its server and the server's own tool name), or empty
     */
    public java.util.Optional<HostedTool> tool(String name) {
        Objects.requireNonNull(name, "name");
        return java.util.Optional.ofNullable(toolNaming.of(servers.values()).byName().get(name));
    }

    /**
     * Calls a tool by the name {@link #tools()} gave it, or its full name, with the default options; see
     * {@link #callTool(String, Map, RequestOptions)}.
     *
     * @param namespacedName the name from {@link #tools()}, or {@code server + separator + tool}
     * @param arguments      the arguments (a plain JSON object), or {@code null}
     * @return the result
     * @throws IllegalArgumentException if the name has no known server or the server has no such tool
     * @throws dev.loommcp.McpException  when the call fails (see {@link HostedServer#callTool})
     * @throws InterruptedException     if the calling thread is interrupted
     */
    public CallToolResult callTool(String namespacedName, @Nullable Map<String, @Nullable Object> arguments)
            throws InterruptedException {
        return callTool(namespacedName, arguments, RequestOptions.DEFAULT);
    }

    /**
     * Calls a tool by the name {@link #tools()} gave it or by its full name {@code server + separator + tool}. A
     * name {@link #tool(String)} knows goes to its server; otherwise a full name's server is the part before the first
     * separator and the tool the rest (the server is started or waited for as {@link HostedServer} describes, within
     * the call's deadline; when it is ready and its tool list does not hold the tool, the call fails before anything
     * is sent); any other name, which may be a name given to a tool of a server not ready yet, starts the idle
     * servers and waits for them (within the call's deadline) before it is looked up again.
     *
     * @param namespacedName the name from {@link #tools()}, or {@code server + separator + tool}
     * @param arguments      the arguments (a plain JSON object), or {@code null}
     * @param options        timeout, deadline, token, progress listener, extra {@code _meta}
     * @return the result; {@code isError: true} is a result, not an exception
     * @throws IllegalArgumentException      if the name is no name {@link #tools()} gave and has no separator, names
     *                                       no server of the registry, or the server does not list the tool (the
     *                                       message names what was missing)
     * @throws McpServerUnavailableException if the server failed
     * @throws McpClosedException            if the registry is closed
     * @throws dev.loommcp.McpException       when the call fails (timeout, cancellation, JSON-RPC error, transport)
     * @throws InterruptedException          if the calling thread is interrupted
     */
    public CallToolResult callTool(String namespacedName, @Nullable Map<String, @Nullable Object> arguments,
                                   RequestOptions options)
            throws InterruptedException {
        Objects.requireNonNull(namespacedName, "namespacedName");
        Objects.requireNonNull(options, "options");
        if (closed.get()) {
            throw new McpClosedException("the server registry is closed", null);
        }
        RequestOptions bounded = HostedServer.bounded(options); // one bound for the wait and the call
        HostedTool known = toolNaming.of(servers.values()).byName().get(namespacedName);
        if (known == null && !toolNaming.isFullName(namespacedName, servers)) {
            // perhaps the name of a tool of a server that is not ready yet
            settleAll(waitDeadline(bounded));
            known = toolNaming.of(servers.values()).byName().get(namespacedName);
        }
        ToolNaming.Route route = toolNaming.route(namespacedName, known, servers);
        if (!route.listed()) { // a full name: start or wait for its server, then look in its list
            ToolNaming.requireListed(namespacedName, route, route.server().client(bounded) != null);
        }
        return route.server().callTool(route.tool(), arguments, bounded);
    }

    /**
     * Closes every server at once (its client, its process tree or HTTP session) and its registry threads, and
     * returns within the {@linkplain Builder#closeTimeout close timeout}. Idempotent; every later call fails with
     * {@link McpClosedException}. The listener sees each server go to {@link ServerState#CLOSED}.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        Deadline deadline = Deadline.after(closeTimeout);
        reloading.lock(); // a reload under way has swapped its map when this returns; a later one sees closed
        reloading.unlock();
        closeAll(List.copyOf(servers.values()), deadline);
    }

    /** Closes servers at once, each on its own thread, and waits for them and their workers until the deadline. */
    private void closeAll(List<HostedServer> list, Deadline deadline) {
        List<Thread> closers = new ArrayList<>();
        for (HostedServer s : list) {
            closers.add(settings.threads().start("hosts-close", s::close));
        }
        boolean interrupted = settings.threads().joinAll(closers, deadline);
        List<Thread> workers = new ArrayList<>();
        list.forEach(s -> workers.addAll(s.workers()));
        interrupted |= settings.threads().joinAll(workers, deadline);
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Returns whether {@link #close()} was called.
     *
     * @return whether it was
     */
    public boolean isClosed() {
        return closed.get();
    }

    @Override
    public String toString() {
        return "McpServers" + servers.keySet();
    }

    private void settleAll(Deadline deadline) throws InterruptedException {
        if (closed.get()) {
            throw new McpClosedException("the server registry is closed", null);
        }
        List<HostedServer> list = List.copyOf(servers.values());
        list.forEach(HostedServer::startAsync);
        for (HostedServer s : list) {
            s.awaitSettled(deadline);
        }
    }

    /** The deadline of a wait for servers: the options' own, or the ready timeout. */
    private Deadline waitDeadline(RequestOptions options) {
        Deadline d = options.timeout().map(Deadline::after).orElse(Deadline.NONE);
        if (options.deadline().isPresent()) {
            d = d.earliest(Deadline.at(options.deadline().get()));
        }
        return d.isNone() ? Deadline.after(settings.readyTimeout()) : d;
    }

    /**
     * Builds a registry. Not thread-safe.
     */
    public static final class Builder {
        private final List<ServerConfig> configs = new ArrayList<>();
        private String separator = "__";
        private Duration startupTimeout = Duration.ofSeconds(30);
        private Duration readyTimeout = Duration.ofSeconds(60);
        private Duration closeTimeout = Duration.ofSeconds(15);
        private RestartPolicy restartPolicy = RestartPolicy.DEFAULT;
        private McpServersListener listener = new McpServersListener() { };
        private BiConsumer<ServerConfig, McpClient.Builder> customizer = (config, builder) -> { };
        private BiConsumer<HttpServerConfig, HttpTransport.Builder> httpCustomizer = (config, builder) -> { };
        private final List<McpInterceptor> interceptors = new ArrayList<>();
        private final List<ServerRequestInterceptor> serverRequestInterceptors = new ArrayList<>();
        private java.util.function.Function<ServerConfig, dev.loommcp.spi.McpTransport> transports = null;
        private boolean stderrInStatus = true;
        private ResiliencePolicy resilience = ResiliencePolicy.NONE;
        private final Map<String, ResiliencePolicy> resilienceOf = new LinkedHashMap<>();

        private Builder() {
        }

        /**
         * Adds a server.
         *
         * @param config the server
         * @return this builder
         * @throws IllegalArgumentException if a server of that name was added already
         */
        public Builder add(ServerConfig config) {
            Objects.requireNonNull(config, "config");
            if (configs.stream().anyMatch(c -> c.name().equals(config.name()))) {
                throw new IllegalArgumentException("server '" + config.name() + "' is given twice");
            }
            configs.add(config);
            return this;
        }

        /**
         * Adds servers.
         *
         * @param list the servers, in order
         * @return this builder
         * @throws IllegalArgumentException if a name repeats
         */
        public Builder addAll(List<? extends ServerConfig> list) {
            list.forEach(this::add);
            return this;
        }

        /**
         * Adds the servers of an {@code mcpServers} file ({@link McpServersFile#read(Path)}; {@code ${NAME}} from
         * this process's environment).
         *
         * @param mcpJson the file
         * @return this builder
         * @throws IOException              if it cannot be read
         * @throws IllegalArgumentException if it is not valid, or a name repeats (the message says where)
         */
        public Builder config(Path mcpJson) throws IOException {
            return addAll(McpServersFile.read(mcpJson));
        }

        /**
         * Adds the servers of an {@code mcpServers} file read with the given options ({@link McpServersFile#read(Path,
         * McpServersFile.Options)}: environment, input prompt, workspace folder).
         *
         * @param mcpJson the file
         * @param options how references resolve
         * @return this builder
         * @throws IOException              if it cannot be read
         * @throws IllegalArgumentException if it is not valid, an input has no answer, or a name repeats (the
         *                                  message says where)
         */
        public Builder config(Path mcpJson, McpServersFile.Options options) throws IOException {
            return addAll(McpServersFile.read(mcpJson, options));
        }

        /**
         * Sets the separator of namespaced tool names. Default {@code __}.
         *
         * @param separator 1 to 8 characters, none of them a letter or digit
         * @return this builder
         * @throws IllegalArgumentException if it is empty, longer than 8 or holds a letter, digit or control
         *                                  character
         */
        public Builder separator(String separator) {
            Objects.requireNonNull(separator, "separator");
            if (separator.isEmpty() || separator.length() > 8 || separator.chars().anyMatch(
                    c -> Character.isLetterOrDigit(c) || Character.isISOControl(c))) {
                throw new IllegalArgumentException("the separator must have 1 to 8 characters, none a letter, digit "
                        + "or control character");
            }
            this.separator = separator;
            return this;
        }

        /**
         * Sets the bound of one start of a server: its transport, handshake and first tool listing. Default 30 s.
         *
         * @param timeout the bound, positive
         * @return this builder
         * @throws IllegalArgumentException if it is not positive
         */
        public Builder startupTimeout(Duration timeout) {
            this.startupTimeout = positive(timeout, "startupTimeout");
            return this;
        }

        /**
         * Sets how long a call that sets no deadline waits for a server that is starting or restarting. Default
         * 60 s.
         *
         * @param timeout the bound, positive
         * @return this builder
         * @throws IllegalArgumentException if it is not positive
         */
        public Builder readyTimeout(Duration timeout) {
            this.readyTimeout = positive(timeout, "readyTimeout");
            return this;
        }

        /**
         * Sets the bound of {@link McpServers#close()}. Default 15 s (a stdio server gets the transport's graces,
         * 2 s each, to exit; all servers close at once).
         *
         * @param timeout the bound, positive
         * @return this builder
         * @throws IllegalArgumentException if it is not positive
         */
        public Builder closeTimeout(Duration timeout) {
            this.closeTimeout = positive(timeout, "closeTimeout");
            return this;
        }

        /**
         * Sets when a failed connection is restarted. Default {@link RestartPolicy#DEFAULT}.
         *
         * @param policy the policy
         * @return this builder
         */
        public Builder restartPolicy(RestartPolicy policy) {
            this.restartPolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * Sets the listener of every server's state changes and tool re-lists. Default none.
         *
         * @param listener the listener
         * @return this builder
         * @throws NullPointerException if {@code listener} is {@code null}
         */
        public Builder listener(McpServersListener listener) {
            this.listener = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /**
         * Sets whether the last lines a failed stdio server wrote to stderr appear in what the registry reports of
         * the failure: its {@link ServerStatus#lastError()} and {@link ServerStatus#lastExit()}, the
         * {@link ServerStateChange#cause()} and {@link ServerStateChange#exit()}, the WARNING it logs, the
         * {@link McpServerUnavailableException} of later calls, and the exception of a call that the process's exit
         * ended. Default {@code true}: the tail usually says why a server died ({@code database not up yet}). A
         * server-side agent that passes failures on to its users or to a model turns it off, since a server may
         * print secrets of its own: the tail then reads {@code <withheld>} and {@link ProcessExit#stderrTail()} is
         * empty. (The stdio transport's {@code stderrListener}, set through a custom transport, still hears every
         * line.)
         *
         * @param show whether to show the tail
         * @return this builder
         */
        public Builder stderrInStatus(boolean show) {
            this.stderrInStatus = show;
            return this;
        }

        /**
         * Sets what is applied to each server's client builder before the client is built (client identity,
         * request timeout, sampling or elicitation handlers, protocol mode, telemetry). The registry sets the client's
         * {@code serverName} and {@code listener} itself, after this, and adds an event listener of its own
         * ({@code addEventListener}) beside the one the customizer sets or adds, which keeps hearing the client's
         * events.
         *
         * @param customizer receives the server's configuration and the builder
         * @return this builder
         */
        public Builder clientCustomizer(BiConsumer<ServerConfig, McpClient.Builder> customizer) {
            this.customizer = Objects.requireNonNull(customizer, "customizer");
            return this;
        }

        /**
         * Adds an interceptor of the requests every hosted server's client sends (see
         * {@link McpInterceptor}), at every start and restart. The registry's interceptors are the outermost, in the
         * order added; interceptors the {@link #clientCustomizer clientCustomizer} adds for one server run inside
         * them. {@link McpInterceptor.Chain#connection()} tells the servers apart: {@code connection().server()} is
         * the registry's name for the server (the client's {@code serverName()}). The same instance serves every
         * server: it must be thread-safe. Default none.
         *
         * @param interceptor the interceptor
         * @return this builder
         * @throws NullPointerException if {@code interceptor} is {@code null}
         */
        public Builder addInterceptor(McpInterceptor interceptor) {
            interceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
            return this;
        }

        /**
         * Adds an interceptor of the requests every hosted server asks of its client (sampling, elicitation, roots;
         * see {@link ServerRequestInterceptor}), before those the {@link #clientCustomizer clientCustomizer} adds.
         * Default none.
         *
         * @param interceptor the interceptor
         * @return this builder
         * @throws NullPointerException if {@code interceptor} is {@code null}
         */
        public Builder addServerRequestInterceptor(ServerRequestInterceptor interceptor) {
            serverRequestInterceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
            return this;
        }

        /**
         * Sets what is applied to the transport builder of each HTTP server ({@link HttpServerConfig}, from code or
         * an {@code mcpServers} file) before its transport is built, at every start and restart: an OAuth provider
         * ({@code b.authorization(oauth)}, module {@code dev.loommcp.auth}), TLS material, timeouts, a request
         * signer. The builder comes with the configuration's URL and headers set
         * ({@link HttpServerConfig#newTransportBuilder()}). Called on the thread that starts the server; an exception
         * fails that start like any other start failure (the server is restarted or FAILED by the restart policy).
         * Stdio servers are not affected. Default none.
         *
         * <pre>{@code
         * McpOAuth oauth = McpOAuth.newBuilder().authorizationCode(browser).build();
         * McpServers servers = McpServers.newBuilder().config(Path.of("mcp.json"))
         *         .httpCustomizer((config, b) -> {
         *             if (config.name().equals("github")) {
         *                 b.authorization(oauth);
         *             }
         *         })
         *         .build();
         * }</pre>
         *
         * @param customizer receives the server's configuration and its transport builder
         * @return this builder
         */
        public Builder httpCustomizer(BiConsumer<HttpServerConfig, HttpTransport.Builder> customizer) {
            this.httpCustomizer = Objects.requireNonNull(customizer, "customizer");
            return this;
        }

        /**
         * Sets the resilience policy of every server that has none of its own ({@link #resilience(String,
         * ResiliencePolicy)}): its rate limit, circuit breaker, budget and retry, applied by each server's client
         * ({@link McpClient.Builder#resilience}) before the {@linkplain #clientCustomizer client customizer}, which
         * may override it. Each server keeps its own state (its own breaker, tokens and counts), from its start; a
         * restart makes a new client, whose breaker starts closed and whose budget starts afresh. A server's
         * breaker shows in {@link ServerStatus#circuit()} and its changes reach
         * {@link McpServersListener#onCircuitStateChanged}. Default {@link ResiliencePolicy#NONE}.
         *
         * @param policy the policy
         * @return this builder
         * @throws NullPointerException if {@code policy} is {@code null}
         */
        public Builder resilience(ResiliencePolicy policy) {
            this.resilience = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * Sets the resilience policy of one server, instead of the registry's ({@link #resilience(ResiliencePolicy)}):
         * for a server that is slower, more fragile or more expensive than the others. It applies at each start of
         * that server, also when a {@linkplain McpServers#reload reload} adds it again.
         *
         * @param serverName the server's configured name; it must be added to this builder by {@link #build()}
         * @param policy     its policy ({@link ResiliencePolicy#NONE}: none, whatever the registry's)
         * @return this builder
         * @throws NullPointerException if either is {@code null}
         */
        public Builder resilience(String serverName, ResiliencePolicy policy) {
            Objects.requireNonNull(serverName, "serverName");
            resilienceOf.put(serverName, Objects.requireNonNull(policy, "policy"));
            return this;
        }

        /** Tests: builds each server's transport instead of its configuration (a scripted server, say). */
        Builder transports(java.util.function.Function<ServerConfig, dev.loommcp.spi.McpTransport> factory) {
            this.transports = Objects.requireNonNull(factory, "factory");
            return this;
        }

        /**
         * Builds the registry. Nothing is started: servers start on first use, or all at once with
         * {@link McpServers#startAll()}.
         *
         * @return the registry
         * @throws IllegalArgumentException if a server's name contains the separator or ends with its beginning
         *                                  (namespaced names would be ambiguous), or if a server's own
         *                                  {@linkplain #resilience(String, ResiliencePolicy) resilience policy}
         *                                  names no server of this builder; the message names the server
         */
        public McpServers build() {
            check(configs, separator);
            for (String name : resilienceOf.keySet()) {
                if (configs.stream().noneMatch(c -> c.name().equals(name))) {
                    throw new IllegalArgumentException("resilience policy for server '" + name + "', which is not "
                            + "one of the servers added (" + configs.stream().map(ServerConfig::name).toList() + ")");
                }
            }
            return new McpServers(this);
        }

        /** Refuses repeated names and names that would make full tool names ambiguous. */
        static void check(List<? extends ServerConfig> configs, String separator) {
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (ServerConfig c : configs) {
                if (!seen.add(c.name())) {
                    throw new IllegalArgumentException("server '" + c.name() + "' is given twice");
                }
            }
            for (ServerConfig c : configs) {
                String n = c.name();
                if (n.contains(separator)) {
                    throw new IllegalArgumentException("server '" + n + "': its name contains the separator '"
                            + separator + "' of namespaced tool names; rename it or choose another separator");
                }
                for (int k = 1; k < separator.length(); k++) {
                    if (n.endsWith(separator.substring(0, k))) {
                        throw new IllegalArgumentException("server '" + n + "': its name ends with '"
                                + separator.substring(0, k) + "', the beginning of the separator '" + separator
                                + "', so namespaced tool names would be ambiguous; rename it or choose another "
                                + "separator");
                    }
                }
            }
        }

        private static Duration positive(Duration d, String what) {
            Objects.requireNonNull(d, what);
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(what + " must be positive");
            }
            return d;
        }
    }
}
