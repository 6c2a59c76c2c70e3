package dev.loommcp.hosts;

import dev.loommcp.Deadline;
import dev.loommcp.McpClient;
import dev.loommcp.McpClosedException;
import dev.loommcp.McpSkillServer;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpToolCaller;
import dev.loommcp.RequestOptions;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.GetPromptResult;
import dev.loommcp.schema.ListPromptsResult;
import dev.loommcp.schema.ListResourceTemplatesResult;
import dev.loommcp.schema.ListResourcesResult;
import dev.loommcp.schema.Prompt;
import dev.loommcp.schema.ReadResourceResult;
import dev.loommcp.schema.Resource;
import dev.loommcp.schema.ResourceTemplate;
import dev.loommcp.schema.Tool;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * One server of a registry ({@link McpServers#server(String)}): its state, its tools, and the host interfaces
 * {@link McpToolCaller} and {@link McpSkillServer} with the server's own (not namespaced) tool names. Every call
 * starts the server if it is {@link ServerState#IDLE}, waits while it is {@link ServerState#CONNECTING} or
 * {@link ServerState#RESTARTING} (within the call's deadline, or the registry's
 * {@linkplain McpServers.Builder#readyTimeout ready timeout} when the call sets none), then goes to its current
 * client; a {@link ServerState#FAILED} server fails the call at once with {@link McpServerUnavailableException}, a
 * closed registry with {@link McpClosedException}. A call in flight when the server crashes fails with the client's
 * exception ({@link dev.loommcp.McpTransportException} or {@link McpClosedException}); it is not repeated, since a
 * tool call need not be idempotent.
 *
 * <p>Thread-safe: calls from many (virtual) threads run at once. State lives under a {@link ReentrantLock}; no lock
 * is held while a call waits for the server, nor while the registry's {@link McpServersListener} or tools-changed
 * listener runs: state changes are queued under the lock in the order they happen and delivered after it is released,
 * by one thread at a time. The state machine (starts, restarts, close, the listener's deliveries) is the server's
 * {@link ServerLifecycle}; this class delegates the calls to its ready client. {@link #state()} and {@link #status()}
 * read a snapshot published at each change, without a lock.
 */
public final class HostedServer implements McpSkillServer {

    /** The stderr tail shown when {@link HostSettings#stderrInStatus()} is off. */
    static final String WITHHELD = "<withheld>";

    private final ServerConfig config;
    /** The state, the current client and every change of them. */
    private final ServerLifecycle life;

    HostedServer(ServerConfig config, HostSettings settings) {
        this.config = config;
        this.life = new ServerLifecycle(config, settings);
    }

    /**
     * Returns the server's configured name.
     *
     * @return the name
     */
    @Override
    public String serverName() {
        return config.name();
    }

    /**
     * Returns the server's configuration.
     *
     * @return the configuration
     */
    public ServerConfig config() {
        return config;
    }

    /**
     * Returns the server's state now.
     *
     * @return the state
     */
    public ServerState state() {
        return life.state();
    }

    /**
     * Returns a snapshot of the server: state, tool count, era, restarts and last failure, as published at the
     * server's last change, and the state of its circuit breaker now (read from its client's breaker, not as the
     * last change event delivered it: a call refused with {@code McpCircuitOpenException} shows {@code OPEN} at
     * once). Takes no lock of the registry (only the breaker's own, briefly), so a {@link McpServersListener} may
     * call it, and {@link McpServers#statuses()}, for any server at any time.
     *
     * @return the status
     */
    public ServerStatus status() {
        return life.status();
    }

    /**
     * Returns the tools the server listed last (refreshed when it announces a change), without waiting.
     *
     * @return the tools in server order; empty when they were never listed
     */
    public List<Tool> listedTools() {
        return life.listedTools();
    }

    /**
     * Returns the server's current connected client, starting the server or waiting for it as a call does. The
     * client belongs to the registry: do not close it; after a restart it is closed and replaced.
     *
     * @param options the wait's deadline and token (other options are ignored)
     * @return the client, connected
     * @throws McpServerUnavailableException if the server failed
     * @throws McpClosedException            if the registry is closed
     * @throws McpTimeoutException           if the server is not ready in time
     * @throws dev.loommcp.McpCancelledException if the token fires
     * @throws InterruptedException          if the calling thread is interrupted
     */
    public McpClient client(RequestOptions options) throws InterruptedException {
        return life.client(options);
    }

    // ------------------------------------------------------------------------------------------------ host interfaces

    @Override
    public CallToolResult callTool(String name, Map<String, @Nullable Object> arguments, RequestOptions options)
            throws InterruptedException {
        Objects.requireNonNull(name, "name");
        return onClient(options, (c, bounded) -> c.callTool(name, arguments, bounded));
    }

    /** One call on the server's client, with the bounded options made of the caller's. */
    @FunctionalInterface
    private interface ClientCall<T> {
        T on(McpClient client, RequestOptions bounded) throws InterruptedException;
    }

    /**
     * Runs {@code call} on the ready client, with the caller's options bounded: one deadline for the wait
     * and the call. When it fails because the client closed (the server died under it), the crash is handled before
     * the caller hears of it, so that {@link #status()} no longer says READY by then (the transport's own closing
     * event may still be on its way).
     */
    private <T> T onClient(RequestOptions options, ClientCall<T> call) throws InterruptedException {
        RequestOptions bounded = bounded(options);
        McpClient c = client(bounded);
        try {
            return call.on(c, bounded);
        } catch (RuntimeException e) {
            if (c.isClosed()) {
                life.callFailedOnClosed(c);
            }
            throw life.shown(e) instanceof RuntimeException r ? r : e;
        }
    }

    /**
     * Tells whether the server declared {@code prompts}; {@code false} while it is not ready.
     *
     * @return whether it did
     */
    @Override
    public boolean supportsPrompts() {
        McpClient c = life.currentClient();
        return c != null && c.supportsPrompts();
    }

    /**
     * Tells whether the server declared {@code resources}; {@code false} while it is not ready.
     *
     * @return whether it did
     */
    @Override
    public boolean supportsResources() {
        McpClient c = life.currentClient();
        return c != null && c.supportsResources();
    }

    @Override
    public List<Prompt> listAllPrompts(RequestOptions options) throws InterruptedException {
        return onClient(options, McpClient::listAllPrompts);
    }

    @Override
    public ListPromptsResult listPrompts(String cursor, RequestOptions options) throws InterruptedException {
        return onClient(options, (c, bounded) -> c.listPrompts(cursor, bounded));
    }

    @Override
    public GetPromptResult getPrompt(String name, Map<String, String> arguments, RequestOptions options)
            throws InterruptedException {
        return onClient(options, (c, bounded) -> c.getPrompt(name, arguments, bounded));
    }

    @Override
    public List<Resource> listAllResources(RequestOptions options) throws InterruptedException {
        return onClient(options, McpClient::listAllResources);
    }

    @Override
    public ReadResourceResult readResource(String uri, RequestOptions options) throws InterruptedException {
        return onClient(options, (c, bounded) -> c.readResource(uri, bounded));
    }

    @Override
    public ListResourcesResult listResources(String cursor, RequestOptions options) throws InterruptedException {
        return onClient(options, (c, bounded) -> c.listResources(cursor, bounded));
    }

    @Override
    public ListResourceTemplatesResult listResourceTemplates(String cursor, RequestOptions options)
            throws InterruptedException {
        return onClient(options, (c, bounded) -> c.listResourceTemplates(cursor, bounded));
    }

    @Override
    public List<ResourceTemplate> listAllResourceTemplates(RequestOptions options) throws InterruptedException {
        return onClient(options, McpClient::listAllResourceTemplates);
    }

    @Override
    public void subscribe(String uri, RequestOptions options) throws InterruptedException {
        onClient(options, (c, bounded) -> {
            c.subscribe(uri, bounded);
            return null;
        });
    }

    @Override
    public void unsubscribe(String uri, RequestOptions options) throws InterruptedException {
        onClient(options, (c, bounded) -> {
            c.unsubscribe(uri, bounded);
            return null;
        });
    }

    @Override
    public String toString() {
        return "HostedServer[" + config.name() + ", " + state() + "]";
    }

    // ------------------------------------------------------------------------------------------------ life cycle

    /** Starts the server when it is idle (on a worker thread); returns at once. */
    void startAsync() {
        life.startAsync();
    }

    /**
     * Starts the server again now, whatever its state: a {@link ServerState#FAILED} or idle server starts, a ready
     * one has its client closed (its process tree ended, its HTTP session deleted) and a new one started, one waiting
     * out a restart backoff starts at once, one that is connecting starts over. The count of consecutive restarts is
     * reset (the restart policy applies afresh). Returns at once; the server goes to
     * {@link ServerState#RESTARTING} (or {@link ServerState#CONNECTING} from idle) and the listener hears each change.
     * Calls wait for it as for any start.
     *
     * @throws McpClosedException if the registry is closed
     */
    public void restart() {
        life.restart();
    }

    /**
     * Waits until the server is ready, failed or closed, or the deadline passes; never throws for the server's
     * failure.
     */
    void awaitSettled(Deadline deadline) throws InterruptedException {
        life.awaitSettled(deadline);
    }

    /** Closes the server: state CLOSED, workers interrupted, its client closed (bounded by the client's graces). */
    void close() {
        life.close();
    }

    /** The worker threads alive now. */
    List<Thread> workers() {
        return life.workers();
    }

    /**
     * The options with their timeout turned into a deadline from now, so that waiting for the server and the call
     * share one bound.
     */
    static RequestOptions bounded(RequestOptions options) {
        Objects.requireNonNull(options, "options");
        if (options.timeout().isEmpty() || options.resetTimeoutOnProgress()) {
            return options;
        }
        Instant end = Instant.now().plus(options.timeout().get());
        Instant deadline = options.deadline().filter(d -> d.isBefore(end)).orElse(end);
        return options.toBuilder().deadline(deadline).build();
    }

    /** What is left of {@code deadline}, at least one nanosecond (for a request's timeout). */
    static Duration remaining(Deadline deadline) {
        long left = deadline.remainingNanos();
        return Duration.ofNanos(Math.max(1, left));
    }

    /**
     * A failure as it may be shown: class and message (the SDK's messages never hold payloads or secrets); a failure
     * caused by a stdio process's exit is shown as that exit (exit code or signal, stderr tail).
     */
    static String describe(Throwable failure) {
        Throwable exited = ProcessExit.find(failure);
        Throwable t = exited != null ? exited : failure;
        String m = t.getMessage();
        return t.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }
}
