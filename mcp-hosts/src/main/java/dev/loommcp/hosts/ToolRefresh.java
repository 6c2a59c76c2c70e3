package dev.loommcp.hosts;

import dev.loommcp.config.Era;
import dev.loommcp.McpClient;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.RequestOptions;
import dev.loommcp.event.SubscriptionFilter;
import dev.loommcp.event.SubscriptionListener;
import dev.loommcp.schema.ListChangedCapability;
import dev.loommcp.schema.ServerCapabilities;
import dev.loommcp.schema.Tool;
import dev.loommcp.Deadline;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * The tool list of one {@link HostedServer} and its refresh: the tools listed last (by a start, or by a re-list after
 * {@code notifications/tools/list_changed}), the numbering that keeps an older listing from replacing a newer one,
 * and the coalescing of re-lists (at most one running and one waiting per server, however many notifications
 * arrive); a notification heard while the server is still starting is kept until it is ready; in the modern era the
 * {@code subscriptions/listen} stream that brings those notifications. The registry's listener ({@link McpServersListener#onToolsListChanged}) is told
 * once per completed re-list that replaced the list.
 *
 * <p>Thread-safe. Its state is guarded by the server's own lock (passed in), which the methods marked "under the
 * lock" expect held and the others take; no lock is held while a listing runs or while the listener's tools method
 * runs. The server's generation, state and client are read through suppliers, under that lock.
 */
final class ToolRefresh {

    private static final System.Logger LOG = System.getLogger(HostedServer.class.getName());

    private final ReentrantLock lock;
    private final String serverName;
    private final HostSettings settings;
    /** The server's generation (one per start, restart or close), read under the lock. */
    private final IntSupplier generation;
    /** The server's state, read under the lock. */
    private final Supplier<ServerState> state;
    /** The server's client ({@code null} when it has none), read under the lock. */
    private final Supplier<McpClient> client;
    /** Publishes the server's status as it is now (its tool count among it), under the lock. */
    private final Runnable publish;
    /** Starts a worker thread of the server (a purpose and the task), tracked for the server's close. */
    private final BiConsumer<String, Runnable> spawn;

    // guarded by lock
    private List<Tool> tools;
    /** The generation that heard {@code tools/list_changed} before it was ready: it re-lists once ready, or -1. */
    private int relistWhenReady = -1;
    /** Numbers the tool listings of refreshes, so that an older listing never replaces a newer one. */
    private long listings;
    private long toolsListing;
    /** A re-list worker is running ({@link #relist}); another notification only sets {@link #refreshPending}. */
    private boolean refreshing;
    /** A notification came while a re-list was running: the worker lists once more. */
    private boolean refreshPending;

    /**
     * Creates the tool list of one server, empty.
     *
     * @param lock       the server's lock, which guards this state too
     * @param serverName the server's name, for the listing's check and the log
     * @param settings   the registry's settings (the startup timeout bounds a re-list; the listener's tools method)
     * @param generation the server's generation, read under the lock
     * @param state      the server's state, read under the lock
     * @param client     the server's client, read under the lock
     * @param publish    publishes the server's status, called under the lock
     * @param spawn      starts a worker thread of the server, called under the lock
     */
    ToolRefresh(ReentrantLock lock, String serverName, HostSettings settings, IntSupplier generation,
                Supplier<ServerState> state, Supplier<McpClient> client, Runnable publish,
                BiConsumer<String, Runnable> spawn) {
        this.lock = lock;
        this.serverName = serverName;
        this.settings = settings;
        this.generation = generation;
        this.state = state;
        this.client = client;
        this.publish = publish;
        this.spawn = spawn;
    }

    /** Under the lock: the tools listed last, or {@code null} when they were never listed. */
    List<Tool> tools() {
        return tools;
    }

    /**
     * Under the lock: the listing of a start of generation {@code gen} is the server's list now.
     *
     * @param gen    the generation that became ready
     * @param listed its tools
     * @return whether {@code tools/list_changed} came while it was starting, so that the caller re-lists once the
     *         lock is released ({@link #listChanged}): the listing may predate the change
     */
    boolean started(int gen, List<Tool> listed) {
        tools = listed;
        toolsListing = ++listings;
        boolean relist = relistWhenReady == gen;
        relistWhenReady = -1;
        return relist;
    }

    /**
     * In the modern era a server announces a changed tool list only on a {@code subscriptions/listen} stream: opens
     * one for tool-list changes when the server declares {@code tools.listChanged} (its notifications then reach the
     * client's listener like the legacy era's). A server that refuses it keeps the list it gave at start.
     *
     * @param c        the client of the start, connected
     * @param deadline the start's deadline
     */
    void listen(McpClient c, Deadline deadline) throws InterruptedException {
        if (c.era().orElse(null) != Era.MODERN || !c.serverCapabilities().map(ServerCapabilities::tools)
                .map(ListChangedCapability::sendsListChanged).orElse(false)) {
            return;
        }
        try {
            c.listen(new SubscriptionFilter(true, false, false, List.of()), new SubscriptionListener() { },
                    RequestOptions.ofTimeout(HostedServer.remaining(deadline)));
        } catch (dev.loommcp.McpRpcException | McpTimeoutException e) {
            LOG.log(System.Logger.Level.DEBUG, "MCP server ''{0}'' refused to announce tool changes: {1}",
                    serverName, HostedServer.describe(e));
        }
    }

    /**
     * Re-lists the tools after {@code notifications/tools/list_changed} of generation {@code gen}, coalesced: at most
     * one re-list runs per server and at most one more is pending, however many notifications arrive (a server that
     * floods them gets a few {@code tools/list} requests, not one each). The tools-changed listener is told once per
     * completed re-list whose list differs from the one before. Heard while that generation is still starting (its
     * client may not be connected yet), the re-list is deferred until it is ready ({@link #started}), so that no
     * change is lost. Called without the lock held.
     *
     * @param gen the generation of the client that heard it
     */
    void listChanged(int gen) {
        lock.lock();
        try {
            if (gen != generation.getAsInt() || state.get() == ServerState.CLOSED) {
                return;
            }
            if (state.get() != ServerState.READY) {
                relistWhenReady = gen;
                return;
            }
            if (refreshing) {
                refreshPending = true; // the running re-list lists again when it is done
                return;
            }
            refreshing = true;
            spawn.accept("hosts-refresh", this::relist);
        } finally {
            lock.unlock();
        }
    }

    /** The refresh worker: re-lists while a re-list is pending and the server stays ready. */
    private void relist() {
        try {
            while (true) {
                McpClient c;
                int gen;
                long listing;
                lock.lock();
                try {
                    refreshPending = false;
                    if (state.get() != ServerState.READY) {
                        return; // a start or a restart lists the tools anyway
                    }
                    c = client.get();
                    gen = generation.getAsInt();
                    listing = ++listings;
                } finally {
                    lock.unlock();
                }
                boolean relisted = false;
                try {
                    List<Tool> checked = ToolNames.offerable(serverName,
                            c.listAllTools(RequestOptions.ofTimeout(settings.startupTimeout())));
                    lock.lock();
                    try {
                        if (gen == generation.getAsInt() && listing >= toolsListing) {
                            relisted = true;
                            tools = checked;
                            toolsListing = listing;
                            publish.run();
                        }
                    } finally {
                        lock.unlock();
                    }
                } catch (InterruptedException e) {
                    return; // closing
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "MCP server ''{0}'': re-listing its tools failed: {1}",
                            serverName, HostedServer.describe(e));
                }
                if (relisted) {
                    try {
                        settings.listener().onToolsListChanged(serverName);
                    } catch (RuntimeException | Error e) {
                        LOG.log(System.Logger.Level.WARNING, "the servers listener failed on a tool re-list: {0}",
                                e.getClass().getName());
                    }
                }
                lock.lock();
                try {
                    if (!refreshPending) {
                        refreshing = false;
                        return;
                    }
                } finally {
                    lock.unlock();
                }
            }
        } finally {
            lock.lock();
            try {
                refreshing = false;
            } finally {
                lock.unlock();
            }
        }
    }
}
