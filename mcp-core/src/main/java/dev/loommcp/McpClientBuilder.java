package dev.loommcp;

import dev.loommcp.internal.session.Session;
import dev.loommcp.internal.session.config.SessionConfig;
import dev.loommcp.schema.Implementation;
import dev.loommcp.schema.LoggingLevel;
import dev.loommcp.spi.McpTransport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Builds an {@link McpClient}. Not thread-safe; {@link #build()} may be called once per transport. Obtained from
 * {@link McpClient#newBuilder(McpTransport)}.
 */
public final class McpClientBuilder {
    private final SessionConfig.Builder config;
    private String serverName;

    /**
     * Sets the name {@link McpClient#serverName()} reports (a host's name for this server, such as its key in
     * an {@code mcpServers} file). Default none: the server's self-reported {@code serverInfo.name} is reported.
     * Nothing is sent to the server.
     *
     * @param name the name
     * @return this builder
     * @throws NullPointerException if {@code name} is {@code null}
     */
    public McpClientBuilder serverName(String name) {
        this.serverName = Objects.requireNonNull(name, "name");
        return this;
    }

    McpClientBuilder(McpTransport transport) {
        this.config = new SessionConfig.Builder(transport);
    }

    /**
     * Sets the client identity sent in {@code initialize} (legacy era) and in every request's
     * {@code _meta["io.modelcontextprotocol/clientInfo"]} (modern era). Default: name {@code loom-mcp}, version
     * {@code 0.1.0}.
     *
     * @param info the identity
     * @return this builder
     */
    public McpClientBuilder clientInfo(Implementation info) {
        config.clientInfo(info);
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
    public McpClientBuilder requestTimeout(Duration timeout) {
        config.requestTimeout(timeout);
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
    public McpClientBuilder connectTimeout(Duration timeout) {
        config.connectTimeout(timeout);
        return this;
    }

    /**
     * Answers {@code elicitation/create} with this handler and declares the {@code elicitation} capability with
     * form and URL modes.
     *
     * @param handler the handler
     * @return this builder
     */
    public McpClientBuilder elicitationHandler(ElicitationHandler handler) {
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
    public McpClientBuilder elicitationHandler(ElicitationHandler handler, boolean urlMode) {
        config.elicitationHandler(handler, urlMode);
        return this;
    }

    /**
     * When {@code true}, an accepted form-mode elicitation gets every schema property that has a {@code default}
     * and is missing from the handler's content filled in (MCP 2025-11-25, SEP-1034). Default {@code false}.
     *
     * @param apply whether to fill in defaults
     * @return this builder
     */
    public McpClientBuilder applyElicitationDefaults(boolean apply) {
        config.applyElicitationDefaults(apply);
        return this;
    }

    /**
     * Answers {@code sampling/createMessage} with this handler and declares the {@code sampling} capability.
     *
     * @param handler the handler
     * @return this builder
     */
    public McpClientBuilder samplingHandler(SamplingHandler handler) {
        config.samplingHandler(handler);
        return this;
    }

    /**
     * Answers {@code roots/list} with this handler and declares the {@code roots} capability with
     * {@code listChanged}.
     *
     * @param handler the handler
     * @return this builder
     */
    public McpClientBuilder rootsHandler(RootsHandler handler) {
        config.rootsHandler(handler);
        return this;
    }

    /**
     * Sets the listener for what the server sends on its own initiative: notifications, tool-list changes, log
     * messages (see {@link McpClient#setLoggingLevel}) and session restarts. Default none.
     *
     * @param listener the listener, or {@code null} for none
     * @return this builder
     */
    public McpClientBuilder listener(McpClientListener listener) {
        config.listener(listener);
        return this;
    }

    /**
     * Sets the listener that observes each request (start, end, failure, cancellation, with durations) and the
     * transport's close, for metrics. Default none (then observing costs a null check per request).
     *
     * @param listener the listener, or {@code null} for none
     * @return this builder
     */
    public McpClientBuilder eventListener(McpEventListener listener) {
        config.eventListener(listener);
        return this;
    }

    /**
     * Sets what happens when {@code structuredContent} fails the tool's {@code outputSchema}. Default
     * {@link OutputSchemaValidation#WARN}.
     *
     * @param mode the mode
     * @return this builder
     */
    public McpClientBuilder outputSchemaValidation(OutputSchemaValidation mode) {
        config.outputSchemaValidation(mode);
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
    public McpClientBuilder maxListPages(int pages) {
        config.maxListPages(pages);
        return this;
    }

    /**
     * Keeps server notifications for {@link McpClient#drainNotifications()}. Default {@code false}: nothing is
     * kept (listeners still get every notification).
     *
     * @param keep whether to keep them
     * @return this builder
     */
    public McpClientBuilder keepNotifications(boolean keep) {
        config.keepNotifications(keep);
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
    public McpClientBuilder notificationQueueBytes(long bytes) {
        config.notificationQueueBytes(bytes);
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
    public McpClientBuilder listenerQueueCapacity(int capacity) {
        config.listenerQueueCapacity(capacity);
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
    public McpClientBuilder listenerQueueBytes(long bytes) {
        config.listenerQueueBytes(bytes);
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
    public McpClientBuilder notificationQueueCapacity(int capacity) {
        config.notificationQueueCapacity(capacity);
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
    public McpClientBuilder maxConcurrentServerRequests(int max) {
        config.maxConcurrentServerRequests(max);
        return this;
    }

    /**
     * Sets how {@link McpClient#connect()} picks the protocol era: see {@link ProtocolMode} for what each mode
     * does. What {@link ProtocolMode#AUTO} costs: one {@code server/discover} before the first connect to a
     * server, on the connection itself. On stdio that is the session's own process: a legacy server answers it
     * with an error and then takes {@code initialize} on the same process (one process in all); only a server the
     * probe ended (it exited on the unknown request) is started a second time, after the first process is gone
     * (against a silent legacy server the probe waits up to {@link #probeTimeout}, then {@code initialize} follows
     * on the same process). On HTTP it is one extra POST (a legacy server's refusal, then {@code initialize}). The
     * verdict is kept per server (stdio command line, directory and environment; HTTP endpoint) in memory for the
     * life of the JVM, and in a file with {@link #eraVerdictCache(Path, Duration)}, so later connects to the same
     * server skip the probe; it is probed again when the kept verdict fails. {@link ProtocolMode#LEGACY} and
     * {@link ProtocolMode#MODERN} never probe (one process per connect). Default {@link ProtocolMode#AUTO}.
     *
     * @param mode the mode
     * @return this builder
     * @throws NullPointerException if {@code mode} is {@code null}
     */
    public McpClientBuilder protocolMode(ProtocolMode mode) {
        config.protocolMode(mode);
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
    public McpClientBuilder eraVerdictCache(Path file, Duration ttl) {
        config.eraVerdictFile(new dev.loommcp.internal.session.era.EraVerdictFile(file, ttl));
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
        return dev.loommcp.internal.session.era.EraVerdictFile.defaultFile(System.getenv(),
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
    public McpClientBuilder probeTimeout(Duration timeout) {
        config.probeTimeout(timeout);
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
    public McpClientBuilder maxInputRounds(int rounds) {
        config.maxInputRounds(rounds);
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
    public McpClientBuilder resultCacheLimits(int entries, long bytes) {
        config.resultCacheLimits(entries, bytes);
        return this;
    }

    /**
     * Installs a task driver (the {@code mcp-tasks} module's {@code McpTasks.support()}). With one, the client
     * declares the tasks extension {@code io.modelcontextprotocol/tasks} on every modern request, augments a
     * legacy {@code tools/call} of a tool that requires a task, and drives a task that {@code callTool}
     * gets back to its final result (MODERN-ERA.md C.5, C.6;
     * Rust seed {@code with_tasks}). Default none: a task result is then a protocol error.
     *
     * @param support the driver; it is bound to this builder's client by {@link #build()}
     * @return this builder
     * @throws NullPointerException if {@code support} is {@code null}
     */
    public McpClientBuilder taskSupport(dev.loommcp.spi.TaskSupport support) {
        config.taskSupport(java.util.Objects.requireNonNull(support, "support"));
        return this;
    }

    /**
     * Builds the client. Nothing is started until {@link McpClient#connect()}. An installed
     * {@link #taskSupport task support} is bound to the new client here.
     *
     * @return the client
     * @throws IllegalStateException if the installed task support is already bound to another client
     */
    public McpClient build() {
        return new McpClient(config.build(), serverName);
    }

}
