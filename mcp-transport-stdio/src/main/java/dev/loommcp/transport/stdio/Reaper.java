package dev.loommcp.transport.stdio;

import java.lang.System.Logger.Level;
import java.lang.ref.Cleaner;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The safety nets that reap the process tree of a transport nobody closed: one JVM shutdown hook shared by every
 * live connection (installed on first use), and a {@link Cleaner} that closes the connection of a transport that
 * became unreachable while open.
 *
 * <p>The cleaner runs on the JDK's own cleaner daemon thread (one per JVM, not an {@code mcp-} thread: it lives as
 * long as the JVM and is not a leak); the work of a clean-up runs on a fresh {@code mcp-stdio-cleaner} thread.
 */
final class Reaper {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.transport.stdio");

    /** Bound of the shutdown hook's wait after SIGTERM, so JVM exit is never held up for long. */
    private static final long HOOK_TERM_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final long HOOK_KILL_NANOS = TimeUnit.SECONDS.toNanos(1);

    private static final Set<StdioConnection> LIVE = ConcurrentHashMap.newKeySet();
    private static final ReentrantLock HOOK_LOCK = new ReentrantLock();
    private static boolean hookInstalled;

    private Reaper() {
    }

    /** Holder: the cleaner thread is created only when the first transport opens. */
    private static final class CleanerHolder {
        static final Cleaner CLEANER = Cleaner.create();
    }

    /**
     * Registers a live connection with the shutdown hook, installing the hook on first use.
     *
     * @param c the connection
     * @throws IllegalStateException if the JVM is already shutting down
     */
    static void register(StdioConnection c) {
        HOOK_LOCK.lock();
        try {
            if (!hookInstalled) {
                // a plain platform thread: it never runs before JVM exit, so it is not tracked as the client's threads are
                Runtime.getRuntime().addShutdownHook(
                        Thread.ofPlatform().name("mcp-stdio-shutdown-hook").unstarted(Reaper::runHook));
                hookInstalled = true;
            }
        } finally {
            HOOK_LOCK.unlock();
        }
        LIVE.add(c);
    }

    /**
     * Removes a connection whose shutdown finished.
     *
     * @param c the connection
     */
    static void unregister(StdioConnection c) {
        LIVE.remove(c);
    }

    /**
     * Registers the cleaner safety net for a transport object. The action refers to the connection only, never to
     * the transport, so that the transport can become unreachable.
     *
     * @param owner the transport
     * @param c     its connection
     * @return the cleanable; {@code clean()} it on close
     */
    static Cleaner.Cleanable watch(Object owner, StdioConnection c) {
        return CleanerHolder.CLEANER.register(owner, cleanerAction(c));
    }

    private static Runnable cleanerAction(StdioConnection c) {
        return () -> {
            if (!c.shutdownStarted()) {
                LOG.log(Level.WARNING, () -> "a stdio transport for " + c.programName()
                        + " was never closed and became unreachable; ending its process tree");
                c.threads().start("stdio-cleaner", c::close);
            }
        };
    }

    private static void runHook() {
        List<StdioConnection> all = new ArrayList<>(LIVE);
        if (all.isEmpty()) {
            return;
        }
        for (StdioConnection c : all) {
            c.hookTerminate();
        }
        long deadline = System.nanoTime() + HOOK_TERM_NANOS;
        List<StdioConnection> left = new ArrayList<>();
        for (StdioConnection c : all) {
            if (!c.hookAwaitGone(deadline)) {
                left.add(c);
            }
        }
        if (left.isEmpty()) {
            return;
        }
        for (StdioConnection c : left) {
            c.hookKill();
        }
        long killDeadline = System.nanoTime() + HOOK_KILL_NANOS;
        for (StdioConnection c : left) {
            c.hookAwaitGone(killDeadline);
        }
    }
}
