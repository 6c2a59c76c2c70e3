package dev.loommcp;

import dev.loommcp.policy.CircuitState;
import dev.loommcp.policy.ResiliencePolicy;
import dev.loommcp.config.Era;
import dev.loommcp.config.OutputSchemaValidation;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.event.McpClientListener;
import dev.loommcp.event.McpEventListener;
import dev.loommcp.event.ProgressListener;
import dev.loommcp.event.Subscription;
import dev.loommcp.event.SubscriptionFilter;
import dev.loommcp.event.SubscriptionListener;
import dev.loommcp.handler.ElicitationHandler;
import dev.loommcp.handler.RootsHandler;
import dev.loommcp.handler.SamplingHandler;
import dev.loommcp.internal.json.Json;
import dev.loommcp.intercept.McpInterceptor;
import dev.loommcp.intercept.ServerRequestInterceptor;
import dev.loommcp.internal.session.Paging;
import dev.loommcp.internal.session.Session;
import dev.loommcp.internal.session.TransportClaims;
import dev.loommcp.internal.session.config.SessionConfig;
import dev.loommcp.internal.session.era.EraVerdictFile;
import dev.loommcp.internal.session.era.Handshake;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.ClientCapabilities;
import dev.loommcp.schema.CompleteResult;
import dev.loommcp.schema.CompletionReference;
import dev.loommcp.schema.DiscoverResult;
import dev.loommcp.schema.GetPromptResult;
import dev.loommcp.schema.Implementation;
import dev.loommcp.schema.InitializeResult;
import dev.loommcp.schema.ListPromptsResult;
import dev.loommcp.schema.ListResourceTemplatesResult;
import dev.loommcp.schema.ListResourcesResult;
import dev.loommcp.schema.ListToolsResult;
import dev.loommcp.schema.LoggingLevel;
import dev.loommcp.schema.Prompt;
import dev.loommcp.schema.ReadResourceResult;
import dev.loommcp.schema.Resource;
import dev.loommcp.schema.ResourceTemplate;
import dev.loommcp.schema.ServerCapabilities;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.spi.TaskSupport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * A client of one MCP server: plain blocking calls, cheap to run from many virtual threads at once, each with its
 * own deadline and cancellation (DESIGN.md section 2; the seeds' {@code MCPClient} / {@code McpClient}). The
 * operations of each feature are documented on the interfaces it implements: {@link McpTools}, {@link McpResources},
 * {@link McpPrompts}, {@link McpUtilities}; what the server sends unasked reaches a {@link McpClientListener}. A host
 * that needs only to call tools can depend on the narrow {@link McpToolCaller}, one that needs tools, prompts and
 * resources on {@link McpSkillServer} (both implemented by this class and by a host registry's servers).
 *
 * <pre>{@code
 * try (McpClient client = McpClient.newBuilder(StdioTransport.newBuilder("npx", "-y", "server").build())
 *         .clientInfo(Implementation.of("my-agent", "1.0"))
 *         .requestTimeout(Duration.ofSeconds(30))
 *         .build()) {
 *     client.connect();
 *     CallToolResult r = client.callTool("echo", Map.of("message", "hi"));
 * }
 * }</pre>
 *
 * <h2>Life cycle and protocol eras</h2>
 * {@link #connect()} opens the transport and picks the protocol era as {@link Builder#protocolMode} says
 * ({@link ProtocolMode#AUTO} by default): the legacy era runs the {@code initialize} handshake (protocol versions
 * 2024-11-05 to 2025-11-25) and sends {@code notifications/initialized}; the modern era (2026-07-28) learns the
 * server with {@code server/discover} and has no session: every request then carries the protocol version, the
 * client's capabilities and identity in its {@code _meta}, and a server that needs input answers
 * {@code input_required}, which the client fulfils with the same handlers that serve the legacy era's server requests
 * and retries. The same API serves both eras; {@link #era()} tells which one is in use. Methods the modern era removed
 * ({@code ping}, {@code logging/setLevel}, {@code resources/subscribe}/{@code unsubscribe},
 * {@code notifications/roots/list_changed}) fail there with {@link McpUnsupportedInEraException} without sending
 * anything. In the modern era complete listings ({@code listAll...}, {@code tools()}) and {@code readResource} may be
 * answered from a cache while the server's {@code ttlMs} hint says they are fresh; the matching list-changed or
 * resource-updated notification drops them. {@code connect} may be called once; a failed or cancelled connect closes
 * the client (the transport is released; build a new client to try again). {@link #close()}
 * fails every call in flight with {@link McpClosedException}, interrupts running handlers, closes the transport
 * (which ends the server process tree or the HTTP session) and waits for the client's threads; afterwards every call
 * and every {@link McpTool} handle fails with {@link McpClosedException}.
 *
 * <h2>Deadlines and cancellation</h2>
 * Each call's deadline is the earlier of its {@link RequestOptions} timeout and deadline; when the call sets
 * neither, the client's {@linkplain Builder#requestTimeout default timeout} applies. When the deadline passes, the {@link CancellationToken}
 * fires, the calling thread is interrupted or the client closes, the pending request is removed, a
 * {@code notifications/cancelled} is sent to the server (never for {@code initialize}, and not on close; in the
 * modern era over HTTP the request's exchange is aborted instead), a late
 * response is dropped, and the call throws {@link McpTimeoutException}, {@link McpCancelledException},
 * {@link InterruptedException} or {@link McpClosedException} respectively (MCP "Cancellation"). A call that fails
 * with an {@link McpTransportException} after the server had accepted its request (over HTTP: its answer stream
 * idled out or broke and could not be resumed, or its response headers never came) is cancelled on the wire the same
 * way while the session goes on: a lost stream is no cancellation to the server.
 *
 * <h2>Threads</h2>
 * All methods are thread-safe. Listeners run one at a time on the client's event thread ({@code mcp-events-N});
 * server requests (sampling, elicitation, roots) run each on its own virtual thread ({@code mcp-handler-N}), at most
 * {@linkplain Builder#maxConcurrentServerRequests a bound} at once (beyond it they are refused at once). Neither
 * ever blocks the transport's reader. Listeners and handlers may call the client, including {@link #close()}. A
 * call's {@link ProgressListener} runs on the calling thread while it waits: every progress notification the server
 * sent before its response reaches it before the call returns, and none after.
 *
 * <h2>Interceptors</h2>
 * {@link Builder#addInterceptor} adds code that every request the client sends passes through, on the calling thread
 * inside the request's scope, first added outermost: to observe, time, veto ({@link McpVetoedException}), rewrite
 * params and {@code _meta}, or answer without sending. {@link Builder#addServerRequestInterceptor} does the same for
 * what a server asks of the client. A failing interceptor fails its call with {@link McpInterceptorException}, never
 * the client. See {@link dev.loommcp.intercept.McpInterceptor} and {@code docs/policies.md}.
 *
 * <h2>Memory</h2>
 * What waits for a listener is bounded by count and by bytes ({@link Builder#listenerQueueCapacity},
 * {@link Builder#listenerQueueBytes}; each call's progress queue likewise); notifications are kept for
 * {@link #drainNotifications()} only when asked ({@link Builder#keepNotifications}), within
 * {@link Builder#notificationQueueCapacity} and {@link Builder#notificationQueueBytes}. Beyond a bound the oldest
 * entries are dropped and counted ({@link #droppedEventCount()}, {@link #droppedNotificationCount()}).
 *
 * <p>Whatever a listener, handler or other callback of the application throws, {@link Error}s included, is logged at
 * {@code WARNING} (class and stack trace, never the message) and the client carries on: the event thread runs the
 * next listener, and a server request whose handler failed is answered with {@code -32603}.
 *
 * <h2>Errors</h2>
 * A JSON-RPC error from the server is an {@link McpRpcException}; a tool result with {@code isError: true} is a
 * normal {@link CallToolResult}. Capabilities are not checked before sending: a request for a feature the server did
 * not advertise is sent, and the server's "method not found" comes back as {@link McpRpcException}.
 */
public final class McpClient implements McpTools, McpSkillServer, McpUtilities, AutoCloseable {

    /** The protocol version this client offers in {@code initialize}. */
    public static final String LATEST_PROTOCOL_VERSION = Handshake.LATEST_PROTOCOL_VERSION;

    /** The protocol versions this client accepts from a server, newest first. */
    public static final List<String> SUPPORTED_PROTOCOL_VERSIONS = Handshake.SUPPORTED_PROTOCOL_VERSIONS;

    /** The default of {@link Builder#maxConcurrentServerRequests(int)}. */
    public static final int DEFAULT_MAX_CONCURRENT_SERVER_REQUESTS = 64;

    private final SessionConfig config;
    private final Session session;
    private final Paging paging;
    private final String serverName;

    McpClient(SessionConfig config, String serverName) {
        this.config = config;
        this.serverName = serverName;
        this.session = new Session(config);
        this.paging = new Paging(session::request, config.maxListPages(), session.resultCache());
        if (config.taskSupport() != null) {
            config.taskSupport().bind(session.taskChannel()); // throws when already bound to another client
        }
    }

    /**
     * Returns a builder for a client over the given transport.
     *
     * @param transport the transport, for example a {@code StdioTransport} or {@code HttpTransport}; the client owns
     *                  it from now on and closes it
     * @return the builder
     * @throws NullPointerException if {@code transport} is {@code null}
     */
    public static Builder newBuilder(McpTransport transport) {
        return new Builder(transport);
    }

    /**
     * Builds an {@link McpClient}; obtained from {@link McpClient#newBuilder(McpTransport)}. Each setting is checked
     * when it is set (the exception named on the setter), so {@link #build()} fails only for a task support bound
     * elsewhere or a transport already given to a client. Not thread-safe; {@link #build()} succeeds once per
     * transport (the client owns it).
     */
    public static final class Builder {
        /** The settings, their defaults and checks. */
        private final ClientSettings settings;

        private Builder(McpTransport transport) {
            this.settings = new ClientSettings(transport);
        }

        /**
         * Sets the name {@link McpClient#serverName()} reports (a host's name for this server, such as its key in
         * an {@code mcpServers} file). Default none: the server's self-reported {@code serverInfo.name} is reported.
         * Nothing is sent to the server.
         *
         * @param name the name: not empty, no ISO control characters (it goes into log and exception messages)
         * @return this builder
         * @throws NullPointerException     if {@code name} is {@code null}
         * @throws IllegalArgumentException if {@code name} is empty or holds an ISO control character (such as a
         *                                  newline)
         */
        public Builder serverName(String name) {
            settings.serverName(name);
            return this;
        }

        /**
         * Sets the client identity sent in {@code initialize} (legacy era) and in every request's
         * {@code _meta["io.modelcontextprotocol/clientInfo"]} (modern era). Default: name {@code loom-mcp}, version
         * {@code 0.1.0}.
         *
         * @param info the identity; its name and version not empty, and its name, version and title without ISO
         *             control characters (they go into logs and messages, on both sides)
         * @return this builder
         * @throws NullPointerException     if {@code info} or its name or version is {@code null}
         * @throws IllegalArgumentException if its name or version is empty, or its name, version or title holds an
         *                                  ISO control character (such as a newline)
         */
        public Builder clientInfo(Implementation info) {
            settings.clientInfo(info);
            return this;
        }

        /**
         * Sets the default timeout of each request (used when the call's options set neither timeout nor
         * deadline). Default 60 seconds.
         *
         * @param timeout positive duration
         * @return this builder
         * @throws IllegalArgumentException if not positive
         */
        public Builder requestTimeout(Duration timeout) {
            settings.requestTimeout(timeout);
            return this;
        }

        /**
         * Sets the default bound of {@link McpClient#connect()}: opening the transport plus the handshake. Default 30
         * seconds.
         *
         * @param timeout positive duration
         * @return this builder
         * @throws IllegalArgumentException if not positive
         */
        public Builder connectTimeout(Duration timeout) {
            settings.connectTimeout(timeout);
            return this;
        }

        /**
         * Answers {@code elicitation/create} with this handler and declares the {@code elicitation} capability with
         * form and URL modes.
         *
         * @param handler the handler
         * @return this builder
         */
        public Builder elicitationHandler(ElicitationHandler handler) {
            return elicitationHandler(handler, true);
        }

        /**
         * Answers {@code elicitation/create} with this handler and declares the {@code elicitation} capability: form
         * mode always, URL mode when asked.
         *
         * @param handler the handler
         * @param urlMode whether to declare URL mode (MCP 2025-11-25)
         * @return this builder
         */
        public Builder elicitationHandler(ElicitationHandler handler, boolean urlMode) {
            settings.elicitationHandler(handler, urlMode);
            return this;
        }

        /**
         * When {@code true}, an accepted form-mode elicitation gets every schema property that has a {@code default}
         * and is missing from the handler's content filled in (MCP 2025-11-25, SEP-1034). Default {@code false}.
         *
         * @param apply whether to fill in defaults
         * @return this builder
         */
        public Builder applyElicitationDefaults(boolean apply) {
            settings.applyElicitationDefaults(apply);
            return this;
        }

        /**
         * Answers {@code sampling/createMessage} with this handler and declares the {@code sampling} capability.
         *
         * @param handler the handler
         * @return this builder
         */
        public Builder samplingHandler(SamplingHandler handler) {
            settings.samplingHandler(handler);
            return this;
        }

        /**
         * Answers {@code roots/list} with this handler and declares the {@code roots} capability with
         * {@code listChanged}.
         *
         * @param handler the handler
         * @return this builder
         */
        public Builder rootsHandler(RootsHandler handler) {
            settings.rootsHandler(handler);
            return this;
        }

        /**
         * Sets the listener for what the server sends on its own initiative: notifications, tool-list changes, log
         * messages (see {@link McpClient#setLoggingLevel}) and session restarts. Default none.
         *
         * @param listener the listener, or {@code null} for none
         * @return this builder
         */
        public Builder listener(@Nullable McpClientListener listener) {
            settings.listener(listener);
            return this;
        }

        /**
         * Sets the listener that observes each request (start, end, failure, cancellation, with durations) and the
         * transport's close, for metrics. Default none (then observing costs a null check per request).
         *
         * @param listener the listener, or {@code null} for none
         * @return this builder
         */
        public Builder eventListener(@Nullable McpEventListener listener) {
            settings.eventListener(listener);
            return this;
        }

        /**
         * Adds a listener that observes each request and the transport's close beside the one set with
         * {@link #eventListener(McpEventListener)} (which does not replace it), for code that adds its own to a
         * builder it did not make: telemetry, a registry of servers. Every listener hears every event, the one set
         * with {@code eventListener} first, then the added ones in the order added; one that throws is logged as
         * {@link McpEventListener} says and does not keep the others from hearing it. Default none.
         *
         * @param listener the listener
         * @return this builder
         * @throws NullPointerException if {@code listener} is {@code null}
         */
        public Builder addEventListener(McpEventListener listener) {
            settings.addEventListener(listener);
            return this;
        }

        /**
         * Sets what happens when {@code structuredContent} fails the tool's {@code outputSchema}. Default
         * {@link OutputSchemaValidation#WARN}.
         *
         * @param mode the mode
         * @return this builder
         */
        public Builder outputSchemaValidation(OutputSchemaValidation mode) {
            settings.outputSchemaValidation(mode);
            return this;
        }

        /**
         * Sets the most pages a complete listing ({@code listAll...}, {@code tools()}) reads before it stops with
         * {@link McpProtocolException}. Default 1000.
         *
         * @param pages at least 1
         * @return this builder
         * @throws IllegalArgumentException if less than 1
         */
        public Builder maxListPages(int pages) {
            settings.maxListPages(pages);
            return this;
        }

        /**
         * Keeps server notifications for {@link McpClient#drainNotifications()}. Default {@code false}: nothing is
         * kept (listeners still get every notification).
         *
         * @param keep whether to keep them
         * @return this builder
         */
        public Builder keepNotifications(boolean keep) {
            settings.keepNotifications(keep);
            return this;
        }

        /**
         * Sets the most bytes of notifications {@link McpClient#drainNotifications()} keeps (when
         * {@linkplain #keepNotifications(boolean) keeping}); beyond it the oldest are dropped. A notification counts
         * with its size as JSON text (estimated from the parsed message); its heap is about that for text-heavy
         * payloads and up to a few times more for payloads of many small values. The newest notification is always
         * kept, even alone above the budget. Default 16 MiB.
         *
         * @param bytes at least 1
         * @return this builder
         * @throws IllegalArgumentException if less than 1
         */
        public Builder notificationQueueBytes(long bytes) {
            settings.notificationQueueBytes(bytes);
            return this;
        }

        /**
         * Sets how many events may wait for the listeners (notification, logging, list-changed and session
         * listeners, which run one at a time on the event thread); beyond it the oldest are dropped and counted
         * ({@link McpClient#droppedEventCount()}). Each call's progress notifications wait in a queue of their own
         * with the same bounds. Default 65,536.
         *
         * @param capacity at least 1
         * @return this builder
         * @throws IllegalArgumentException if less than 1
         */
        public Builder listenerQueueCapacity(int capacity) {
            settings.listenerQueueCapacity(capacity);
            return this;
        }

        /**
         * Sets the most bytes of notifications that may wait for the listeners (counted as for
         * {@link #notificationQueueBytes(long)}); beyond it the oldest events are dropped and counted
         * ({@link McpClient#droppedEventCount()}). Each call's progress queue has the same budget. Default 32 MiB.
         *
         * @param bytes at least 1
         * @return this builder
         * @throws IllegalArgumentException if less than 1
         */
        public Builder listenerQueueBytes(long bytes) {
            settings.listenerQueueBytes(bytes);
            return this;
        }

        /**
         * Sets how many notifications {@link McpClient#drainNotifications()} keeps (when
         * {@linkplain #keepNotifications(boolean) keeping}); beyond it the oldest are dropped. Default 1024.
         *
         * @param capacity at least 1
         * @return this builder
         * @throws IllegalArgumentException if less than 1
         */
        public Builder notificationQueueCapacity(int capacity) {
            settings.notificationQueueCapacity(capacity);
            return this;
        }

        /**
         * Sets how many requests from the server ({@code roots/list}, {@code sampling/createMessage},
         * {@code elicitation/create}; also unknown methods, which a handler thread answers "method not found"; not
         * {@code ping}) may run their handler at the same time, each on its own virtual thread. A request beyond the
         * bound is answered at once with a JSON-RPC error {@code -32603} ("client busy") and no thread is started for
         * it; the refusals are logged at {@code WARNING} (the first at once, the rest of a burst when a handler ends or
         * at the latest every 10 s; the warnings together count every refusal). A transport that sends off the caller's
         * thread (Streamable HTTP) bounds the answers it sends at once from the reader side (pings and refusals) too; an
         * answer beyond its bound is dropped and logged the same way. {@link McpClient#close()}
         * interrupts running handlers and waits for them within its bound. Default
         * {@value McpClient#DEFAULT_MAX_CONCURRENT_SERVER_REQUESTS}.
         *
         * @param max at least 1
         * @return this builder
         * @throws IllegalArgumentException if less than 1
         */
        public Builder maxConcurrentServerRequests(int max) {
            settings.maxConcurrentServerRequests(max);
            return this;
        }

        /**
         * Sets how {@link McpClient#connect()} picks the protocol era. {@link ProtocolMode} tells what each mode does
         * and costs: {@link ProtocolMode#AUTO} probes with {@code server/discover} before the first connect to a
         * server, on the connection itself (against a silent legacy stdio server it waits up to
         * {@link #probeTimeout}), and keeps its verdict per server in memory, and in a file with
         * {@link #eraVerdictCache(Path, Duration)}; {@link ProtocolMode#LEGACY} and {@link ProtocolMode#MODERN} never
         * probe. Default {@link ProtocolMode#AUTO}.
         *
         * @param mode the mode
         * @return this builder
         * @throws NullPointerException if {@code mode} is {@code null}
         */
        public Builder protocolMode(ProtocolMode mode) {
            settings.protocolMode(mode);
            return this;
        }

        /**
         * Keeps the era verdicts of {@link ProtocolMode#AUTO} in {@code file} as well as in memory, so that a program
         * that runs in a new JVM for each connect (a command-line tool) probes each server once per {@code ttl}, not on
         * every run (MCP 2026-07-28 "Versioning": the verdict MAY be persisted). Only a digest (SHA-256) of the server's
         * identity is written (stdio: command line, arguments, working directory and environment; HTTP: the endpoint),
         * never the identity itself; the directory is created owner-only and the file written owner-only, replaced
         * whole on each update. A file that is unreadable, too large or corrupt is ignored (logged at DEBUG) and
         * rewritten; a failed write is logged at DEBUG and never fails a connect. A kept verdict that turns out wrong
         * is dropped and the server probed again, as in memory. Not used in the forced modes. Default: memory only.
         *
         * @param file the file, for example {@link #defaultEraVerdictCacheFile()}
         * @param ttl  how long a verdict is used (positive), for example 24 hours
         * @return this builder
         * @throws NullPointerException     if an argument is {@code null}
         * @throws IllegalArgumentException if {@code ttl} is not positive
         */
        public Builder eraVerdictCache(Path file, Duration ttl) {
            settings.eraVerdictCache(file, ttl);
            return this;
        }

        /**
         * Returns the usual file for {@link #eraVerdictCache(Path, Duration)}:
         * {@code $XDG_CACHE_HOME/loom-mcp/era-verdicts.json} when {@code XDG_CACHE_HOME} is set to an absolute path,
         * else {@code ~/.cache/loom-mcp/era-verdicts.json} (the {@code user.home} system property). Nothing is created.
         *
         * @return the file
         */
        public static Path defaultEraVerdictCacheFile() {
            return EraVerdictFile.defaultFile(System.getenv(),
                    Path.of(System.getProperty("user.home")));
        }

        /**
         * Sets how long the {@link ProtocolMode#AUTO} probe waits for the server's answer to {@code server/discover}
         * before it takes silence as a legacy server (stdio only: on HTTP silence is an outage and fails
         * {@code connect()}). It is part of, and bounded by, the connect deadline. Default 3 seconds.
         *
         * @param timeout positive
         * @return this builder
         * @throws NullPointerException     if {@code timeout} is {@code null}
         * @throws IllegalArgumentException if not positive
         */
        public Builder probeTimeout(Duration timeout) {
            settings.probeTimeout(timeout);
            return this;
        }

        /**
         * Sets the most rounds one multi round-trip request (MCP 2026-07-28 "Multi Round-Trip Requests") may take:
         * each {@code input_required} answer the client fulfils through its handlers and retries counts as one. A
         * request still answered {@code input_required} after that fails with {@link McpInputRequiredException}.
         * Default 10.
         *
         * @param rounds at least 1
         * @return this builder
         * @throws IllegalArgumentException if less than 1
         */
        public Builder maxInputRounds(int rounds) {
            settings.maxInputRounds(rounds);
            return this;
        }

        /**
         * Sets the bounds of the cache of the modern era's cacheable results (MCP 2026-07-28 "Caching": complete
         * listings and {@code resources/read} results with {@code ttlMs > 0}). Beyond either bound the oldest stored
         * results are dropped first; a result alone larger than {@code bytes} is not kept. Sizes are estimated as JSON
         * text (as for {@link #notificationQueueBytes(long)}). Expired results are swept while new ones are stored.
         * Defaults 1024 results and 32 MiB.
         *
         * @param entries the most results held, at least 1
         * @param bytes   the most bytes held, at least 1
         * @return this builder
         * @throws IllegalArgumentException if either is less than 1
         */
        public Builder resultCacheLimits(int entries, long bytes) {
            settings.resultCacheLimits(entries, bytes);
            return this;
        }

        /**
         * Installs a task driver, the core's one hook for tasks (the {@code mcp-tasks} module's
         * {@code McpTasks.support()} is the one the project ships). {@link TaskSupport} tells the two points of a
         * plain {@code callTool} where the client calls it, on the caller's thread, and what the client declares
         * with and without one (MODERN-ERA.md C.5, C.6; Rust seed {@code with_tasks}). Default none: the client never
         * declares the tasks extension nor augments a call, and a task answer is a protocol error.
         *
         * @param support the driver; it is bound to this builder's client by {@link #build()}
         * @return this builder
         * @throws NullPointerException if {@code support} is {@code null}
         */
        public Builder taskSupport(TaskSupport support) {
            settings.taskSupport(support);
            return this;
        }

        /**
         * Sets the client's resilience towards its server: a rate limit, a circuit breaker, a budget and a retry
         * policy, each optional ({@link ResiliencePolicy} tells which requests they guard, in what order, and its
         * defaults; docs/policies.md, "Resilience"). The client keeps the policy's state (tokens, failures, counts)
         * for its whole life; {@link McpClient#circuitState()} reads the breaker's state and
         * {@link McpClientListener#onCircuitStateChanged} hears its changes. A call refused by the policy fails with
         * {@link McpCircuitOpenException}, {@link McpBudgetExceededException}, or (no rate permit within its
         * deadline) {@link McpTimeoutException}. Default {@link ResiliencePolicy#NONE}: nothing limited, counted or
         * retried beyond the resend of an idempotent request after a session renewal, which is always on.
         *
         * @param policy the policy; {@link ResiliencePolicy#NONE} for none
         * @return this builder
         * @throws NullPointerException if {@code policy} is {@code null}
         */
        public Builder resilience(ResiliencePolicy policy) {
            settings.resilience(policy);
            return this;
        }

        /**
         * Adds an interceptor of the requests this client sends (see {@link McpInterceptor} for which requests, the
         * thread and scope it runs in, and what its exceptions do). Interceptors run in the order they were added:
         * the first added is the outermost (it sees the request first and the response last). Default none: then
         * calls take the direct path and cost nothing extra. The same instance may be added to several clients.
         *
         * @param interceptor the interceptor
         * @return this builder
         * @throws NullPointerException if {@code interceptor} is {@code null}
         */
        public Builder addInterceptor(McpInterceptor interceptor) {
            settings.addInterceptor(interceptor);
            return this;
        }

        /**
         * Adds an interceptor of the requests a server asks of this client ({@code sampling/createMessage},
         * {@code elicitation/create}, {@code roots/list}; the 2025 era's server requests and the 2026 era's
         * {@code inputRequests}), which runs before the handler set for the method (see
         * {@link ServerRequestInterceptor}). The first added is the outermost. It declares no capability: only
         * methods with a handler reach it. Default none.
         *
         * @param interceptor the interceptor
         * @return this builder
         * @throws NullPointerException if {@code interceptor} is {@code null}
         */
        public Builder addServerRequestInterceptor(ServerRequestInterceptor interceptor) {
            settings.addServerRequestInterceptor(interceptor);
            return this;
        }

        /**
         * Builds the client. Nothing is started until {@link McpClient#connect()}. An installed
         * {@link #taskSupport task support} is bound to the new client here.
         *
         * @return the client
         * @throws IllegalStateException if the transport was already given to another client (by this builder or
         *                               another: a transport serves one client, once; make a new transport for each
         *                               client), or if the installed task support is already bound to another client
         */
        public McpClient build() {
            TransportClaims.claim(settings.transport());
            try {
                return new McpClient(config(), settings.serverName());
            } catch (RuntimeException | Error e) {
                TransportClaims.release(settings.transport()); // no client got it
                throw e;
            }
        }

        /** The settings as the session takes them (package-private: the core's own tests build sessions with it). */
        SessionConfig config() {
            return settings.config();
        }
    }

    // ------------------------------------------------------------------------------------------------ life cycle

    /**
     * Connects with the {@linkplain Builder#connectTimeout connect timeout}: see {@link #connect(RequestOptions)}.
     *
     * @throws McpTransportException if the transport cannot start or the server exits (with exit code and stderr tail
     *                               for stdio)
     * @throws McpProtocolException  if the server answers with a protocol version this client does not support, or a
     *                               malformed result
     * @throws McpRpcException       if the server refuses {@code initialize} or {@code server/discover}
     * @throws McpTimeoutException   if the handshake does not complete in time
     * @throws McpClosedException    if the client was closed
     * @throws IllegalStateException if {@code connect} was already called
     * @throws InterruptedException  if the calling thread is interrupted
     */
    public void connect() throws InterruptedException {
        connect(RequestOptions.DEFAULT);
    }

    /**
     * Opens the transport and picks the protocol era as the {@linkplain Builder#protocolMode protocol mode} says
     * ({@link ProtocolMode} tells how each mode decides, and how {@code AUTO} probes; a verdict kept for the same
     * server skips the probe). The legacy era runs the MCP handshake (MCP 2025-11-25 "Lifecycle: initialization"):
     * it sends {@code initialize} offering {@value #LATEST_PROTOCOL_VERSION} (or the pinned version) with the
     * client's capabilities (declared only for the handlers that were set), checks the server's protocol version
     * against {@link #SUPPORTED_PROTOCOL_VERSIONS} (or the pinned one), then sends {@code notifications/initialized}.
     * The modern era sends {@code server/discover} and adopts a result that shares a modern version with this
     * client; nothing is negotiated or kept by the server.
     *
     * <p>Every wait of the handshake is bounded by the options' timeout or deadline (default: the connect timeout)
     * and token. MCP never cancels {@code initialize} on the wire; on any failure, timeout or cancellation the client
     * closes its transport (and any probe transport) before this method throws, and stays unconnected: later calls
     * fail with {@link McpClosedException}. That close runs the transport's shutdown in full (a stdio server is
     * given its {@code stdinCloseGrace}, then {@code terminateGrace}, then {@code killGrace} to end), so a failed
     * connect may return that much after its deadline, with the server's process tree gone.
     *
     * @param options the connect's deadline and token (other options are ignored)
     * @throws McpTransportException  if the transport cannot start or the server exits; in {@code AUTO} mode also an
     *                                HTTP 401/403 or 5xx, or a network failure, answering the probe (not era evidence)
     * @throws McpProtocolException   if the server's protocol version is not supported or its result is malformed; in
     *                                {@code MODERN} mode, if the server does not speak the modern era (the message
     *                                names what it answered)
     * @throws McpRpcException        if the server refuses {@code initialize} or {@code server/discover} (in
     *                                {@code AUTO} mode only with a recognized modern error, {@code -32020}); a
     *                                modern server that shares no protocol version with this client with
     *                                {@code -32022} ({@link McpRpcException#supportedVersions()}), one that needs a
     *                                capability with {@code -32021} ({@link McpRpcException#requiredCapabilities()})
     * @throws McpTimeoutException    if the handshake does not complete in time
     * @throws McpCancelledException  if the token fires
     * @throws McpClosedException     if the client was closed
     * @throws IllegalStateException  if {@code connect} was already called
     * @throws InterruptedException   if the calling thread is interrupted
     */
    public void connect(RequestOptions options) throws InterruptedException {
        session.connect(options);
    }

    /**
     * Closes the client: fails every call in flight with {@link McpClosedException}, revokes every {@link McpTool},
     * interrupts running handlers, closes the transport (bounded by the transport's shutdown bounds) and waits for
     * the client's threads (listener, handlers, helpers) up to 5 seconds in all; a handler or listener that ignores
     * its interrupt longer is left to finish on its own (its answer is not sent). Idempotent; safe from any thread,
     * including a listener or handler of this client. A close while another thread's close (or the release after the
     * transport's loss) is still running waits for it, so every close returns with the client released; from a
     * listener or handler of this client it returns at once (the release waits for that thread). Called from an
     * interrupted thread it still closes and waits in full, then returns with the interrupt status set again. A
     * {@link #connect()} or call running meanwhile fails with {@link McpClosedException}, whatever the transport
     * threw when it was closed under it.
     */
    @Override
    public void close() {
        session.close();
    }

    /**
     * Returns whether the client is closed (by {@link #close()}, a failed {@link #connect()}, or the loss of its
     * transport).
     *
     * @return whether it is closed
     */
    public boolean isClosed() {
        return session.isClosed();
    }

    /**
     * Returns whether {@link #connect()} completed and the client is not closed.
     *
     * @return whether calls can be made
     */
    public boolean isConnected() {
        return session.isConnected();
    }

    // ------------------------------------------------------------------------------------------------ session info

    /**
     * Returns the protocol era of this connection, as {@link ProtocolMode} picked it. Thread-safe.
     *
     * @return the era; empty before {@link #connect()} completed
     */
    public Optional<Era> era() {
        return Optional.ofNullable(session.era());
    }

    /**
     * Returns the {@code server/discover} result of a modern-era connection (MCP 2026-07-28 "server/discover"):
     * supported versions, capabilities, instructions and server info.
     *
     * @return the result; empty in the legacy era and before {@link #connect()} completed
     */
    public Optional<DiscoverResult> discoverResult() {
        return Optional.ofNullable(session.discoverResult());
    }

    /**
     * Opens a subscription (MCP 2026-07-28 "Subscriptions"): the server delivers what the filter asks for to the
     * listener until the subscription is closed. The same call serves both eras: in the modern era it sends
     * {@code subscriptions/listen} and waits for the server's acknowledgment; in the legacy era it subscribes each
     * resource URI with {@code resources/subscribe} (when the server's capabilities allow it) and delivers the
     * session's list-change notifications. What the server refused is {@link Subscription#refused()}. A lost stream
     * is re-established with backoff (the listener hears {@link SubscriptionListener#onInterrupted} and
     * {@link SubscriptionListener#onReestablished}); {@link #close()} ends every subscription. Thread-safe; any
     * number of subscriptions may run at once.
     *
     * <p>In the modern era each subscription is one {@code subscriptions/listen} request with no deadline, run on a
     * thread of the client, and its notifications are told apart by their {@code subscriptionId}; they also reach
     * {@link McpClientListener} and {@link #drainNotifications()} as before. A broken stream (the HTTP response
     * stream ended, a send failed, the server process was restarted) is re-opened with a new request id after 0.5 s,
     * doubling up to 10 s, at most 5 attempts in a row; then the listener hears
     * {@link SubscriptionListener#onEnded} with the last failure. In the legacy era a URI held by several
     * subscriptions is subscribed once and unsubscribed when the last of them closes; when the server starts a new
     * session (an expired HTTP session), the URIs are subscribed again.
     *
     * @param filter   what to deliver; not empty
     * @param listener where to deliver it
     * @param options  the deadline and token of opening it (until acknowledged; default: the client's request
     *                 timeout); the subscription itself has none. Its {@code _meta} goes with the listen request.
     * @return the running subscription
     * @throws NullPointerException     if an argument is {@code null}
     * @throws IllegalArgumentException if the filter is empty
     * @throws IllegalStateException    if the client is not connected
     * @throws McpTimeoutException      if the server did not acknowledge within the deadline (the listen request
     *                                  is cancelled; the listener hears nothing)
     * @throws McpCancelledException    if the options' token fired before the acknowledgment (likewise)
     * @throws McpClosedException       if the client is closed, or closes meanwhile
     * @throws McpException             if opening failed otherwise: the server answered the listen request with an
     *                                  error ({@link McpRpcException}) or ended it without acknowledging it, the
     *                                  transport failed; in the legacy era, a {@code resources/subscribe} failed
     *                                  other than with a JSON-RPC error (a URI the server refuses with an error is
     *                                  reported in {@link Subscription#refused()} instead)
     * @throws InterruptedException     if the calling thread is interrupted (the listen request is cancelled)
     */
    public Subscription listen(SubscriptionFilter filter, SubscriptionListener listener, RequestOptions options)
            throws InterruptedException {
        Objects.requireNonNull(filter, "filter");
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(options, "options (use RequestOptions.DEFAULT)");
        if (filter.isEmpty()) {
            throw new IllegalArgumentException("the subscription filter asks for nothing");
        }
        return session.listen(filter, listener, options);
    }

    /**
     * Opens a subscription with the default options: see {@link #listen(SubscriptionFilter, SubscriptionListener,
     * RequestOptions)}.
     *
     * @param filter   what to deliver; not empty
     * @param listener where to deliver it
     * @return the running subscription
     * @throws NullPointerException     if an argument is {@code null}
     * @throws IllegalArgumentException if the filter is empty
     * @throws IllegalStateException    if the client is not connected
     * @throws McpException             if the server refused the subscription or opening it failed
     * @throws InterruptedException     if the calling thread is interrupted
     */
    public Subscription listen(SubscriptionFilter filter, SubscriptionListener listener)
            throws InterruptedException {
        return listen(filter, listener, RequestOptions.DEFAULT);
    }

    /**
     * Returns the protocol version in use: the one the server chose in {@code initialize} (legacy era), or the one
     * every request carries (modern era, for example {@value ProtocolMode#MODERN_PROTOCOL_VERSION}; a {@code -32022}
     * corrective retry may change it). Thread-safe.
     *
     * @return the version; empty before {@link #connect()} completed
     */
    public Optional<String> protocolVersion() {
        return Optional.ofNullable(session.protocolVersion());
    }

    /**
     * Returns the server's capabilities: from {@code initialize} (legacy era) or {@code server/discover} (modern
     * era). Thread-safe.
     *
     * @return the capabilities; empty before {@link #connect()} completed
     */
    public Optional<ServerCapabilities> serverCapabilities() {
        return Optional.ofNullable(session.serverCapabilities());
    }

    /**
     * Returns the server's identity: from {@code initialize} (legacy era), or in the modern era from the latest
     * result's {@code _meta["io.modelcontextprotocol/serverInfo"]} ({@code server/discover}'s first; a top-level
     * {@code serverInfo} of the discover result is accepted too). Self-reported by the server: for display only.
     * Thread-safe.
     *
     * @return the server info; empty before {@link #connect()} completed or when a modern server never named
     *         itself
     */
    public Optional<Implementation> serverInfo() {
        return Optional.ofNullable(session.serverInfo());
    }

    /**
     * Returns the server's instructions from {@code initialize} (legacy era) or {@code server/discover} (modern
     * era). Thread-safe.
     *
     * @return the instructions; empty when none were sent or before {@link #connect()} completed
     */
    public Optional<String> instructions() {
        return Optional.ofNullable(session.instructions());
    }

    /**
     * Returns the whole {@code initialize} result of a legacy-era connection ({@link #discoverResult()} is the modern
     * era's counterpart).
     *
     * @return the result; empty before {@link #connect()} completed and in the modern era
     */
    public Optional<InitializeResult> initializeResult() {
        return Optional.ofNullable(session.initializeResult());
    }

    /**
     * Returns the capabilities this client declares: {@code elicitation}, {@code sampling} and {@code roots} only when
     * the matching handler was set on the builder.
     *
     * @return the capabilities
     */
    public ClientCapabilities clientCapabilities() {
        return config.clientCapabilities();
    }

    /**
     * Returns how many requests of this client are waiting for their response: a diagnostic (zero when idle).
     *
     * @return the number of pending requests
     */
    public int pendingRequestCount() {
        return session.pendingCount();
    }

    // ------------------------------------------------------------------------------------------------ utilities

    @Override // McpUtilities, like setLoggingLevel and complete (Javadoc inherited)
    public void ping(RequestOptions options) throws InterruptedException {
        session.call("ping", null, Objects.requireNonNull(options, "options"));
    }

    @Override
    public void setLoggingLevel(LoggingLevel level, RequestOptions options) throws InterruptedException {
        Objects.requireNonNull(level, "level");
        session.request("logging/setLevel", Map.of("level", level.wireName()), options);
    }

    /**
     * Sends any request and returns its raw result: the seeds' generic request, for methods the typed API lacks.
     * {@code options.meta()} is added to the params' {@code _meta}; in the modern era the per-request protocol
     * fields are added too (and win over the caller's keys of the same name), and the result must be complete.
     *
     * @param method  the JSON-RPC method
     * @param params  the params object (plain JSON values), or {@code null}
     * @param options timeout, token, progress listener, {@code _meta}
     * @return the result object as plain JSON values
     * @throws McpRpcException        if the server answers with an error
     * @throws McpUnsupportedInEraException if the modern era removed {@code method} (nothing is sent)
     * @throws McpProtocolException   if the result is not an object
     * @throws McpTimeoutException    if the deadline passes
     * @throws McpCancelledException  if the token fires
     * @throws McpClosedException     if the client is or gets closed
     * @throws McpTransportException  if the transport fails
     * @throws IllegalStateException  if the client is not connected yet
     * @throws IllegalArgumentException if {@code params} holds something that is not plain JSON (a cycle, a {@code
     *                                  null} key, an array, any object but the SDK's own records), naming its path
     * @throws InterruptedException   if the calling thread is interrupted
     */
    public Map<String, @Nullable Object> request(String method, @Nullable Map<String, @Nullable Object> params,
                                                 RequestOptions options)
            throws InterruptedException {
        return session.request(method, params, options);
    }

    /**
     * Sends any request on a new virtual thread; see {@link #request(String, Map, RequestOptions)}.
     *
     * @param method  the method
     * @param params  the params, or {@code null}
     * @param options the options
     * @return a future whose {@code cancel(true)} cancels the request on the wire
     */
    public CompletableFuture<Map<String, @Nullable Object>> requestAsync(String method,
                                                                         @Nullable Map<String, @Nullable Object> params,
                                                                         RequestOptions options) {
        Objects.requireNonNull(method, "method");
        return session.async(options, opts -> request(method, params, opts));
    }

    /**
     * Sends a notification to the server (for example {@code notifications/roots/list_changed}).
     *
     * @param method the method
     * @param params the params object, or {@code null}
     * @throws McpClosedException    if the client is closed
     * @throws McpTransportException if the transport fails
     * @throws IllegalStateException if the client is not connected yet
     * @throws InterruptedException  if the calling thread is interrupted
     */
    public void notify(String method, @Nullable Map<String, @Nullable Object> params) throws InterruptedException {
        notify(method, params, RequestOptions.DEFAULT);
    }

    /**
     * Sends a notification with per-call options: the send is bounded by the options' deadline (default: the
     * client's request timeout) and aborted when the token fires.
     *
     * @param method  the method
     * @param params  the params object, or {@code null}
     * @param options deadline and token ({@code _meta} and progress do not apply to a notification)
     * @throws McpUnsupportedInEraException if the modern era removed {@code method} (for example
     *                               {@code notifications/roots/list_changed}; nothing is sent)
     * @throws McpTimeoutException   if the deadline passes before the notification is sent
     * @throws McpCancelledException if the token fires before or while it is sent
     * @throws McpClosedException    if the client is closed
     * @throws McpTransportException if the transport fails
     * @throws IllegalStateException if the client is not connected yet
     * @throws InterruptedException  if the calling thread is interrupted
     */
    public void notify(String method, @Nullable Map<String, @Nullable Object> params,
                       RequestOptions options) throws InterruptedException {
        session.notify(Objects.requireNonNull(method, "method"), params, options);
    }

    /**
     * Tells the server the roots changed ({@code notifications/roots/list_changed}); it will call the roots handler.
     *
     * @throws McpClosedException    if the client is closed
     * @throws McpTransportException if the transport fails
     * @throws InterruptedException  if the calling thread is interrupted
     */
    public void notifyRootsListChanged() throws InterruptedException {
        notifyRootsListChanged(RequestOptions.DEFAULT);
    }

    /**
     * Tells the server the roots changed, with per-call options; see {@link #notify(String, Map, RequestOptions)}.
     * Legacy era only: a modern server asks for roots within each request that needs them.
     *
     * @param options deadline and token
     * @throws McpUnsupportedInEraException in the modern era (nothing is sent)
     * @throws McpTimeoutException   if the deadline passes before the notification is sent
     * @throws McpCancelledException if the token fires before or while it is sent
     * @throws McpClosedException    if the client is closed
     * @throws McpTransportException if the transport fails
     * @throws IllegalStateException if the client is not connected yet
     * @throws InterruptedException  if the calling thread is interrupted
     */
    public void notifyRootsListChanged(RequestOptions options) throws InterruptedException {
        notify("notifications/roots/list_changed", null, options);
    }

    /**
     * Removes and returns the notifications received since the last drain, oldest first (the Rust seed's
     * {@code drain_notifications}). Notifications are kept only when the client was built with
     * {@link Builder#keepNotifications(boolean) keepNotifications(true)}; otherwise this always returns an empty
     * list and nothing is held. Every server notification but progress and cancellation is queued; the queue holds at
     * most {@linkplain Builder#notificationQueueCapacity the capacity} and {@linkplain Builder#notificationQueueBytes
     * the byte budget}, dropping the oldest beyond either ({@link #droppedNotificationCount()} counts them).
     *
     * @return the notifications, possibly empty
     */
    public List<JsonRpcMessage.Notification> drainNotifications() {
        return session.drainNotifications();
    }

    /**
     * Returns how many notifications were dropped because the drain queue was full.
     *
     * @return the count since the client was built
     */
    public long droppedNotificationCount() {
        return session.droppedNotificationCount();
    }

    /**
     * Returns how many listener events were dropped because the listeners fell behind: the listener queue (and each
     * call's progress queue) exceeded {@linkplain Builder#listenerQueueCapacity its capacity} or
     * {@linkplain Builder#listenerQueueBytes its byte budget}, and the oldest events were dropped.
     *
     * @return the count since the client was built
     */
    public long droppedEventCount() {
        return session.droppedEventCount();
    }

    // ------------------------------------------------ McpToolCaller, McpSkillServer (Javadoc inherited)

    /**
     * Returns the state of the client's circuit breaker ({@link Builder#resilience}): {@link CircuitState#CLOSED}
     * until failures open it. An open breaker whose open duration has passed reads (and becomes)
     * {@link CircuitState#HALF_OPEN}. Safe from any thread, never waits for a call.
     *
     * @return the state, or empty when the client's policy has no circuit breaker
     */
    public Optional<CircuitState> circuitState() {
        return session.circuitState();
    }

    @Override
    public String serverName() {
        if (serverName != null) {
            return serverName;
        }
        Implementation info = session.serverInfo();
        return info != null && info.name() != null ? info.name() : "";
    }

    @Override
    public boolean supportsPrompts() {
        ServerCapabilities caps = session.serverCapabilities();
        return caps != null && caps.prompts() != null;
    }

    @Override
    public boolean supportsResources() {
        ServerCapabilities caps = session.serverCapabilities();
        return caps != null && caps.resources() != null;
    }

    // ------------------------------------------------ McpTools, McpResources, McpPrompts (Javadoc inherited)

    @Override
    public ListToolsResult listTools(@Nullable String cursor, RequestOptions options) throws InterruptedException {
        return paging.toolsPage(session.tools(), cursor, options);
    }

    @Override
    public List<McpTool> tools(RequestOptions options) throws InterruptedException {
        return paging.allTools(session.tools(), options, (tool, raw) -> new McpTool(this, tool, raw));
    }

    @Override
    public CallToolResult callTool(String name, @Nullable Map<String, @Nullable Object> arguments,
                                   RequestOptions options)
            throws InterruptedException {
        return session.callTool(name, arguments, options);
    }

    @Override
    public CompletableFuture<CallToolResult> callToolAsync(String name,
                                                           @Nullable Map<String, @Nullable Object> arguments,
                                                           RequestOptions options) {
        Objects.requireNonNull(name, "name");
        return session.async(options, opts -> callTool(name, arguments, opts));
    }

    @Override
    public void setToolMeta(@Nullable Map<String, @Nullable Object> meta) {
        session.setToolMeta(meta);
    }

    @Override
    public Map<String, @Nullable Object> toolMeta() {
        return session.toolMeta();
    }

    @Override
    public ListResourcesResult listResources(@Nullable String cursor,
                                             RequestOptions options) throws InterruptedException {
        return paging.onePage("resources/list", "resources", cursor, options, ListResourcesResult.class,
                Resource.class, (items, e) -> new ListResourcesResult(items, e.nextCursor(), e.meta()));
    }

    @Override
    public List<Resource> listAllResources(RequestOptions options) throws InterruptedException {
        return paging.all("resources/list", "resources", ListResourcesResult.class, Resource.class, options);
    }

    @Override
    public ListResourceTemplatesResult listResourceTemplates(@Nullable String cursor,
                                                             RequestOptions options) throws InterruptedException {
        return paging.onePage("resources/templates/list", "resourceTemplates", cursor, options,
                ListResourceTemplatesResult.class, ResourceTemplate.class,
                (items, e) -> new ListResourceTemplatesResult(items, e.nextCursor(), e.meta()));
    }

    @Override
    public List<ResourceTemplate> listAllResourceTemplates(RequestOptions options) throws InterruptedException {
        return paging.all("resources/templates/list", "resourceTemplates", ListResourceTemplatesResult.class,
                ResourceTemplate.class, options);
    }

    @Override
    public ReadResourceResult readResource(String uri, RequestOptions options) throws InterruptedException {
        Objects.requireNonNull(uri, "uri");
        return Json.convert(session.request("resources/read", Map.of("uri", uri), options), ReadResourceResult.class,
                "resources/read result");
    }

    @Override
    public void subscribe(String uri, RequestOptions options) throws InterruptedException {
        session.request("resources/subscribe", Map.of("uri", Objects.requireNonNull(uri, "uri")), options);
    }

    @Override
    public void unsubscribe(String uri, RequestOptions options) throws InterruptedException {
        session.request("resources/unsubscribe", Map.of("uri", Objects.requireNonNull(uri, "uri")), options);
    }

    @Override
    public ListPromptsResult listPrompts(@Nullable String cursor, RequestOptions options) throws InterruptedException {
        return paging.onePage("prompts/list", "prompts", cursor, options, ListPromptsResult.class, Prompt.class,
                (items, e) -> new ListPromptsResult(items, e.nextCursor(), e.meta()));
    }

    @Override
    public List<Prompt> listAllPrompts(RequestOptions options) throws InterruptedException {
        return paging.all("prompts/list", "prompts", ListPromptsResult.class, Prompt.class, options);
    }

    @Override
    public GetPromptResult getPrompt(String name, @Nullable Map<String, String> arguments, RequestOptions options)
            throws InterruptedException {
        Map<String, @Nullable Object> params = new LinkedHashMap<>();
        params.put("name", Objects.requireNonNull(name, "name"));
        if (arguments != null) {
            params.put("arguments", arguments);
        }
        return Json.convert(session.request("prompts/get", params, options), GetPromptResult.class, "prompts/get result");
    }

    @Override
    public CompleteResult complete(CompletionReference reference, String argumentName, String argumentValue,
                                   @Nullable Map<String, String> context, RequestOptions options)
            throws InterruptedException {
        Map<String, @Nullable Object> params = new LinkedHashMap<>();
        params.put("ref", Json.toPlain(Objects.requireNonNull(reference, "reference")));
        params.put("argument", Map.of("name", Objects.requireNonNull(argumentName, "argumentName"),
                "value", Objects.requireNonNull(argumentValue, "argumentValue")));
        if (context != null && !context.isEmpty()) {
            params.put("context", Map.of("arguments", context));
        }
        return Json.convert(session.request("completion/complete", params, options), CompleteResult.class,
                "completion/complete result");
    }

    @Override
    public String toString() {
        return "McpClient[" + session + "]";
    }
}
