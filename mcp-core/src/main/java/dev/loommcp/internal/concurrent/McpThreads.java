package dev.loommcp.internal.concurrent;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Creates every thread loom-mcp starts: virtual threads named {@code mcp-<purpose>-<n>}. Each live one is tracked
 * so that tests can prove none outlives its owner (virtual threads are not listed by
 * {@link Thread#getAllStackTraces()}).
 */
public final class McpThreads {

    private static final Set<Thread> LIVE = ConcurrentHashMap.newKeySet();
    private static final AtomicLong COUNTER = new AtomicLong();

    private McpThreads() {
    }

    /**
     * Starts a virtual thread named {@code mcp-<purpose>-<n>}.
     *
     * @param purpose what the thread does, for its name
     * @param task    the work
     * @return the started thread
     */
    public static Thread start(String purpose, Runnable task) {
        Thread t = newThread(purpose, task);
        t.start();
        return t;
    }

    /**
     * Creates (without starting) a virtual thread named {@code mcp-<purpose>-<n>}.
     *
     * @param purpose what the thread does, for its name
     * @param task    the work
     * @return the thread
     */
    public static Thread newThread(String purpose, Runnable task) {
        Thread[] self = new Thread[1];
        Thread t = Thread.ofVirtual().name("mcp-" + purpose + "-" + COUNTER.incrementAndGet()).unstarted(() -> {
            try {
                task.run();
            } finally {
                LIVE.remove(self[0]);
            }
        });
        self[0] = t;
        LIVE.add(t);
        return t;
    }

    /**
     * Returns a factory of tracked virtual threads named {@code mcp-<purpose>-<n>}.
     *
     * @param purpose what the threads do
     * @return the factory
     */
    public static ThreadFactory factory(String purpose) {
        return r -> newThread(purpose, r);
    }

    /**
     * Returns the tracked threads that have not finished (created ones that never started count too).
     *
     * @return a snapshot
     */
    public static List<Thread> live() {
        return LIVE.stream().filter(t -> t.getState() != Thread.State.TERMINATED).toList();
    }
}
