package dev.loommcp.hosts;

import dev.loommcp.policy.CircuitState;
import dev.loommcp.policy.CircuitStateChange;
import dev.loommcp.CancellationToken;
import dev.loommcp.config.Era;
import dev.loommcp.McpClient;
import dev.loommcp.event.McpClientListener;
import dev.loommcp.McpClosedException;
import dev.loommcp.McpTransportException;
import dev.loommcp.event.McpEventListener;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.RequestOptions;
import dev.loommcp.internal.concurrent.SerialDelivery;
import dev.loommcp.schema.ServerCapabilities;
import dev.loommcp.schema.Tool;
import dev.loommcp.Deadline;
import dev.loommcp.transport.stdio.McpProcessExitedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import dev.loommcp.Registration;
import org.jspecify.annotations.Nullable;

/**
 * The life of one {@link HostedServer}: its state machine (start on first use, restart after a crash with the
 * policy's backoff, background retries of a failed start, a manual restart, close), its current client and the
 * status it publishes, and the delivery of its state and circuit breaker changes to the registry's listener. The
 * server's calls reach it only to wait for the ready client ({@link #client(RequestOptions)}) and to report a call
 * that failed because that client closed under it ({@link #callFailedOnClosed}).
 *
 * <p>Thread-safe: state lives under a {@link ReentrantLock}; no lock is held while a call waits for the server, nor
 * while the registry's {@link McpServersListener} or tools-changed listener runs: state changes are queued under the
 * lock in the order they happen and delivered after it is released, by one thread at a time
 * ({@link #deliverChanges()}). The tool list and its refresh on {@code list_changed} are a {@link ToolRefresh},
 * guarded by the same lock. {@link #status()} reads a snapshot published at each change, without a lock.
 */
final class ServerLifecycle {

    private static final System.Logger LOG = System.getLogger(HostedServer.class.getName());

    private final ServerConfig config;
    private final HostSettings settings;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** The registry's worker threads of this server (start, restart, refresh), for close. */
    private final Set<Thread> workers = ConcurrentHashMap.newKeySet();
    /** State changes not yet told to the listener, queued under the lock in the order they happened. */
    private final SerialDelivery<ServerStateChange> undelivered = new SerialDelivery<>();
    /** Circuit breaker changes not yet told to the listener, queued under the lock in the order they happened. */
    private final SerialDelivery<CircuitStateChange> undeliveredCircuit = new SerialDelivery<>();
    /** The status as of the last change: read without a lock, so that a listener may read any server's. */
    private volatile Published published;

    /**
     * A published status and the client whose breaker it shows, or {@code null} (no breaker, or not READY):
     * {@link #status()} reads that breaker's state now rather than as its last change event delivered it. One
     * object, so that a reader never pairs a status with another generation's client.
     */
    private record Published(ServerStatus status, @Nullable McpClient breaker) {
    }

    // guarded by lock
    private ServerState state = ServerState.IDLE;
    private McpClient client;
    private int generation;
    private Era era;
    private int restarts;
    private int consecutiveRestarts;
    private long readySinceNanos;
    private Throwable lastError;
    /**
     * The state of the current client's circuit breaker as of its last change, or {@code null} (no breaker); whether
     * there is one ({@link #status()} reads the breaker's state now).
     */
    private CircuitState circuit;
    /** The worker waiting out a backoff before the next start, or {@code null}: a manual restart wakes it. */
    private Thread backoffWorker;
    /** The failure the client of generation {@link #transportCauseGeneration} reported when its transport closed. */
    private Throwable transportCause;
    private int transportCauseGeneration = -1;

    /** The tools listed last and their refresh on {@code list_changed}; its state is guarded by {@link #lock}. */
    private final ToolRefresh toolList;

    ServerLifecycle(ServerConfig config, HostSettings settings) {
        this.config = config;
        this.settings = settings;
        this.toolList = new ToolRefresh(lock, config.name(), settings, () -> generation, () -> state, () -> client,
                this::publish, this::spawn);
        publish();
    }

    /** The state as published at the last change, without a lock. */
    ServerState state() {
        return published.status().state();
    }

    /** The status as published at the last change, with the circuit breaker's state now (see HostedServer). */
    ServerStatus status() {
        Published p = published;
        ServerStatus s = p.status();
        McpClient c = p.breaker();
        if (c == null || s.circuit() == null) {
            return s;
        }
        CircuitState now = c.circuitState().orElse(null); // the breaker as calls see it now (its own short lock)
        return now == null || now == s.circuit() ? s : new ServerStatus(s.name(), s.transport(), s.state(),
                s.toolCount(), s.era(), s.restarts(), s.lastError(), s.lastExit(), now);
    }

    /** Under the lock: publishes the status as it is now. */
    private void publish() {
        List<Tool> tools = toolList.tools();
        ServerStatus status = new ServerStatus(config.name(), config.transport(), state,
                state == ServerState.READY && tools != null ? tools.size() : -1, era, restarts,
                lastError == null ? null : HostedServer.describe(lastError), ProcessExit.of(lastError),
                state == ServerState.READY ? circuit : null);
        published = new Published(status, status.circuit() != null ? client : null);
    }

    /** The tools listed last, or empty. */
    List<Tool> listedTools() {
        lock.lock();
        try {
            List<Tool> tools = toolList.tools();
            return tools == null ? List.of() : tools;
        } finally {
            lock.unlock();
        }
    }

    /** Waits for the ready client within the options' deadline (or the ready timeout) and token. */
    McpClient client(RequestOptions options) throws InterruptedException {
        return awaitReady(waitDeadline(options), options.token().orElse(null));
    }

    /**
     * A call on {@code c} failed and {@code c} is closed (the server died under it): when it is still the ready
     * client, the crash is handled now, before the caller hears of the failure, so that {@link #status()} no longer
     * says READY by then (the transport's own closing event may still be on its way).
     */
    void callFailedOnClosed(McpClient c) throws InterruptedException {
        int gen;
        lock.lock();
        try {
            gen = client == c && state == ServerState.READY ? generation : -1;
        } finally {
            lock.unlock();
        }
        if (gen >= 0) {
            crashed(gen, transportCause(gen, "closed its connection"));
        }
    }

    /**
     * A failure as the registry shows it: itself, or without the process's stderr tail when the registry's
     * {@link McpServers.Builder#stderrInStatus(boolean)} is off.
     */
    Throwable shown(Throwable failure) {
        McpProcessExitedException exited = settings.stderrInStatus() ? null : ProcessExit.find(failure);
        if (exited == null || exited.stderrTail().isEmpty()) {
            return failure;
        }
        return new McpProcessExitedException(exited.command(), exited.exitCode(), exited.signal(),
                HostedServer.WITHHELD);
    }

    /** Starts the server when it is idle (on a worker thread); returns at once. */
    void startAsync() {
        lock.lock();
        try {
            if (state != ServerState.IDLE) {
                return;
            }
            int gen = ++generation;
            transition(ServerState.CONNECTING, null);
            spawn("hosts-start", () -> connect(gen));
        } finally {
            lock.unlock();
        }
        deliverChanges();
    }

    /** See {@link HostedServer#restart()}. */
    void restart() {
        McpClient old;
        Thread sleeping;
        lock.lock();
        try {
            if (state == ServerState.CLOSED) {
                throw new McpClosedException("the server registry is closed (server '" + config.name() + "')", null);
            }
            int gen = ++generation;
            consecutiveRestarts = 0;
            old = client;
            client = null;
            sleeping = backoffWorker;
            backoffWorker = null;
            transition(state == ServerState.IDLE ? ServerState.CONNECTING : ServerState.RESTARTING, null);
            spawn("hosts-restart", () -> connect(gen));
        } finally {
            lock.unlock();
        }
        deliverChanges();
        if (sleeping != null) {
            sleeping.interrupt(); // its generation is stale: it ends without starting anything
        }
        if (old != null) {
            old.close();
        }
    }

    /**
     * Waits until the server is ready, failed or closed, or the deadline passes; never throws for the server's
     * failure.
     */
    void awaitSettled(Deadline deadline) throws InterruptedException {
        lock.lock();
        try {
            while (state == ServerState.IDLE || state == ServerState.CONNECTING || state == ServerState.RESTARTING) {
                long left = deadline.remainingNanos();
                if (left <= 0) {
                    return;
                }
                changed.awaitNanos(left);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Closes the server: state CLOSED, workers interrupted, its client closed (bounded by the client's graces). */
    void close() {
        McpClient c;
        lock.lock();
        try {
            if (state == ServerState.CLOSED) {
                return;
            }
            generation++;
            c = client;
            client = null;
            transition(ServerState.CLOSED, null);
        } finally {
            lock.unlock();
        }
        deliverChanges();
        for (Thread t : workers) {
            if (t != Thread.currentThread()) {
                t.interrupt();
            }
        }
        if (c != null) {
            c.close();
        }
    }

    /** The worker threads alive now. */
    List<Thread> workers() {
        return new ArrayList<>(workers);
    }

    McpClient currentClient() {
        lock.lock();
        try {
            return state == ServerState.READY ? client : null;
        } finally {
            lock.unlock();
        }
    }

    /**
     * One start: build a client, connect, list tools; READY, or on failure the next restart after the policy's
     * backoff, or FAILED when the policy gives up (or the transport refuses the configuration).
     */
    private void connect(int gen) {
        McpClient c = null;
        boolean relist = false;
        boolean closedWhileStarting = false;
        try {
            lock.lock();
            try {
                if (gen != generation) {
                    return; // a newer start or a close came first
                }
            } finally {
                lock.unlock();
            }
            c = newClient(gen);
            lock.lock();
            try {
                if (gen != generation) {
                    return; // closed meanwhile (the finally below closes c)
                }
                client = c;
            } finally {
                lock.unlock();
            }
            Deadline deadline = Deadline.after(settings.startupTimeout());
            c.connect(RequestOptions.ofTimeout(settings.startupTimeout()));
            boolean hasTools = c.serverCapabilities().map(ServerCapabilities::hasTools).orElse(false);
            List<Tool> listed = ToolNames.offerable(config.name(), hasTools
                    ? c.listAllTools(RequestOptions.ofTimeout(HostedServer.remaining(deadline))) : List.of());
            toolList.listen(c, deadline);
            lock.lock();
            try {
                if (gen != generation) {
                    return;
                }
                closedWhileStarting = c.isClosed();
                if (!closedWhileStarting) {
                    relist = toolList.started(gen, listed);
                    era = c.era().orElseThrow(); // connected
                    circuit = c.circuitState().orElse(null); // a new client's breaker
                    readySinceNanos = System.nanoTime();
                    c = null; // kept: it is the server's client now
                    transition(ServerState.READY, null);
                }
            } finally {
                lock.unlock();
            }
            if (closedWhileStarting) {
                // it failed after its tool listing: its transport-closed event found it not ready yet, so the
                // failure is handled here, with the cause that event carries (the process's exit, say)
                failed(gen, transportCause(gen, "closed its connection while starting"));
                return;
            }
            deliverChanges();
            if (relist) {
                // tools/list_changed came while it was starting: the listing above may predate the change
                toolList.listChanged(gen);
            }
        } catch (InterruptedException e) {
            failed(gen, e); // closing or restarted: stale, nothing happens
        } catch (RuntimeException e) {
            failed(gen, e);
        } finally {
            if (c != null) {
                lock.lock();
                try {
                    if (client == c) {
                        client = null;
                    }
                } finally {
                    lock.unlock();
                }
                c.close();
            }
        }
    }

    /**
     * A start of generation {@code gen} failed. A restart after a crash (RESTARTING) goes on to the next restart, or
     * FAILED when the policy gives up. A first start (CONNECTING) or a retry of a failed server (FAILED) leaves the
     * server FAILED, so that calls fail at once, and tries again in the background after the policy's backoff
     * (a server that was down may come back; see {@link #retryFailed}). A configuration the transport refused
     * ({@link IllegalArgumentException}) is FAILED for good: a retry would fail the same way.
     */
    private void failed(int gen, Throwable failure) {
        Throwable cause = shown(failure);
        lock.lock();
        try {
            if (gen != generation) {
                return; // closed or restarted meanwhile
            }
            lastError = cause;
            if (cause instanceof IllegalArgumentException) {
                generation++;
                transition(ServerState.FAILED, cause);
            } else if (state == ServerState.RESTARTING) {
                scheduleRestart(cause);
            } else {
                retryFailed(cause);
            }
            LOG.log(System.Logger.Level.WARNING, "MCP server ''{0}'' could not be started: {1}", config.name(),
                    HostedServer.describe(cause));
        } finally {
            lock.unlock();
        }
        deliverChanges();
    }

    /** The client of generation {@code gen} lost its transport: a crash, when it is still the current client. */
    private void crashed(int gen, Throwable failure) {
        Throwable cause = shown(failure);
        lock.lock();
        try {
            if (gen != generation || state != ServerState.READY) {
                return;
            }
            lastError = cause;
            client = null;
            long ready = System.nanoTime() - readySinceNanos;
            if (ready >= settings.restartPolicy().stableAfter().toNanos()) {
                consecutiveRestarts = 0;
            }
            LOG.log(System.Logger.Level.WARNING, "MCP server ''{0}'' lost its connection: {1}", config.name(),
                    HostedServer.describe(cause));
            scheduleRestart(cause);
        } finally {
            lock.unlock();
        }
        deliverChanges();
    }

    /**
     * Under the lock: FAILED, and unless the policy's consecutive restarts are used up, a worker that waits out the
     * backoff and starts the server again while it stays FAILED (calls keep failing at once; the listener hears of
     * the retry only when it succeeds: FAILED to READY).
     */
    private void retryFailed(Throwable cause) {
        RestartPolicy policy = settings.restartPolicy();
        int gen = ++generation;
        transition(ServerState.FAILED, cause);
        if (consecutiveRestarts >= policy.maxRestarts()) {
            return;
        }
        consecutiveRestarts++;
        restarts++;
        publish();
        backoffWorker = waitThenConnect(policy.backoff(consecutiveRestarts), gen);
    }

    /** Under the lock: RESTARTING and a worker that waits out the backoff and starts again, or FAILED. */
    private void scheduleRestart(Throwable cause) {
        RestartPolicy policy = settings.restartPolicy();
        int gen = ++generation;
        if (consecutiveRestarts >= policy.maxRestarts()) {
            transition(ServerState.FAILED, cause);
            return;
        }
        consecutiveRestarts++;
        restarts++;
        Duration wait = policy.backoff(consecutiveRestarts);
        transition(ServerState.RESTARTING, cause);
        backoffWorker = waitThenConnect(wait, gen);
    }

    /** Under the lock: a worker that sleeps {@code wait}, then starts generation {@code gen} (if still current). */
    private Thread waitThenConnect(Duration wait, int gen) {
        return spawn("hosts-restart", () -> {
            try {
                Thread.sleep(wait);
            } catch (InterruptedException e) {
                return; // the registry is closing, or restart() started the server already
            }
            lock.lock();
            try {
                if (backoffWorker == Thread.currentThread()) {
                    backoffWorker = null;
                }
            } finally {
                lock.unlock();
            }
            connect(gen);
        });
    }

    private McpClient newClient(int gen) {
        McpClient.Builder b = McpClient.newBuilder(settings.newTransport(config)).serverName(config.name())
                .resilience(settings.resilienceFor(config.name()));
        settings.customizer().accept(config, b);
        b.listener(new McpClientListener() {
            @Override
            public void onToolsListChanged() {
                toolList.listChanged(gen);
            }

            @Override
            public void onCircuitStateChanged(CircuitStateChange change) {
                circuitChanged(gen, change);
            }
        });
        b.addEventListener(new McpEventListener() { // beside the customizer's own (telemetry's)
            @Override
            public void transportClosed(@Nullable Throwable cause) {
                if (cause != null) {
                    lock.lock();
                    try {
                        transportCause = cause;
                        transportCauseGeneration = gen;
                        changed.signalAll();
                    } finally {
                        lock.unlock();
                    }
                    crashed(gen, cause);
                }
            }
        });
        return b.build();
    }

    /** Waits for READY and returns the client, or throws for FAILED, CLOSED, the deadline and the token. */
    private McpClient awaitReady(Deadline deadline, CancellationToken token) throws InterruptedException {
        startAsync();
        Registration reg = token == null ? null : token.onCancel(this::wakeUp);
        try {
            while (true) {
                int crashedGeneration;
                lock.lock();
                try {
                    crashedGeneration = readyOrWait(deadline, token);
                    if (crashedGeneration < 0) {
                        return client;
                    }
                } finally {
                    lock.unlock();
                }
                if (crashedGeneration > 0) {
                    // the client closed before its transport-closed event reached this server: the crash is seen
                    // here first (and handled outside the lock, so that the listener hears of it), with the cause
                    // that event carries, and the call waits for the restart like any later one
                    crashed(crashedGeneration, transportCause(crashedGeneration, "closed its connection"));
                }
            }
        } finally {
            if (reg != null) {
                reg.close();
            }
        }
    }

    /**
     * Under the lock: one step of {@link #awaitReady}. Returns -1 when the server is ready with an open client, the
     * generation whose client turned out closed (a crash to handle), or 0 after a wait (look again).
     */
    private int readyOrWait(Deadline deadline, CancellationToken token) throws InterruptedException {
        switch (state) {
            case READY -> {
                return client.isClosed() ? generation : -1;
            }
            case FAILED -> throw new McpServerUnavailableException(config.name(), "MCP server '"
                    + config.name() + "' is not available: it failed"
                    + (lastError == null ? "" : " (" + HostedServer.describe(lastError) + ")"), lastError);
            case CLOSED -> throw new McpClosedException("the server registry is closed (server '"
                    + config.name() + "')", null);
            default -> {
            }
        }
        if (token != null && token.isCancelled()) {
            throw new dev.loommcp.McpCancelledException("cancelled while waiting for MCP server '"
                    + config.name() + "' (" + token.reason().orElse("cancelled") + ")");
        }
        long left = deadline.remainingNanos();
        if (left <= 0) {
            throw new McpTimeoutException("MCP server '" + config.name() + "' is not ready in time (it is "
                    + state.name().toLowerCase(java.util.Locale.ROOT) + ")");
        }
        changed.awaitNanos(Math.min(left, TimeUnit.SECONDS.toNanos(1)));
        return 0;
    }

    private void wakeUp() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The failure the client of generation {@code gen} reported when its transport closed (the process's exit, say):
     * its transport-closed event follows the client's closing, so it is waited for, up to 2 s; after that (or for a
     * client closed without a failure) a transport exception saying {@code what}.
     */
    private Throwable transportCause(int gen, String what) throws InterruptedException {
        Deadline bound = Deadline.after(Duration.ofSeconds(2));
        lock.lock();
        try {
            while (transportCauseGeneration != gen && bound.remainingNanos() > 0 && gen == generation) {
                changed.awaitNanos(bound.remainingNanos());
            }
            if (transportCauseGeneration == gen) {
                return transportCause;
            }
        } finally {
            lock.unlock();
        }
        return new McpTransportException("MCP server '" + config.name() + "' " + what);
    }

    /** The deadline of a wait for the server: the call's own, or the ready timeout. */
    private Deadline waitDeadline(RequestOptions options) {
        Deadline d = options.timeout().map(Deadline::after).orElse(Deadline.NONE);
        if (options.deadline().isPresent()) {
            d = d.earliest(Deadline.at(options.deadline().get()));
        }
        return d.isNone() ? Deadline.after(settings.readyTimeout()) : d;
    }

    /**
     * Under the lock: changes state, publishes the status, wakes waiters and queues the change for the listener
     * (told by {@link #deliverChanges()} once the lock is released: every method that changes state calls it after
     * its locked section).
     */
    private void transition(ServerState next, Throwable cause) {
        ServerState previous = state;
        state = next;
        publish();
        changed.signalAll();
        if (previous != next) {
            undelivered.add(new ServerStateChange(config.name(), previous, next, restarts, cause));
        }
    }

    /**
     * A change of the circuit breaker of generation {@code gen}'s client (on that client's event thread): published
     * in the status and told to the listener, in order, under no lock. A change of an older client is dropped.
     */
    private void circuitChanged(int gen, CircuitStateChange change) {
        lock.lock();
        try {
            if (gen != generation) {
                return;
            }
            circuit = change.state();
            publish();
            undeliveredCircuit.add(change);
        } finally {
            lock.unlock();
        }
        undeliveredCircuit.deliver(c -> {
            try {
                settings.listener().onCircuitStateChanged(config.name(), c);
            } catch (RuntimeException | Error e) {
                LOG.log(System.Logger.Level.WARNING, "the circuit breaker listener failed: {0}",
                        e.getClass().getName());
            }
        });
    }

    /**
     * Tells the listener the queued changes, in order, holding no lock while it runs ({@link SerialDelivery}: one
     * thread at a time; a thread that finds another delivering leaves its change to it), so no thread waits for a
     * listener on another's behalf, and a listener that changes the state itself (closing, starting a server)
     * neither deadlocks nor reorders.
     */
    private void deliverChanges() {
        if (lock.isHeldByCurrentThread()) {
            return; // a caller up the stack holds the lock: it delivers once it has released it
        }
        undelivered.deliver(change -> {
            try {
                settings.listener().onStateChanged(change);
            } catch (RuntimeException | Error e) {
                LOG.log(System.Logger.Level.WARNING, "the server state listener failed: {0}", e.getClass().getName());
            }
        });
    }

    private Thread spawn(String purpose, Runnable task) {
        Thread t = settings.threads().newThread(purpose, () -> {
            try {
                task.run();
            } finally {
                workers.remove(Thread.currentThread()); // added before it started
            }
        });
        workers.add(t);
        t.start();
        return t;
    }

}
