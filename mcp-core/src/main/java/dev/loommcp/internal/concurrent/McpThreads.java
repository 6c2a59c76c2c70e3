package dev.loommcp.internal.concurrent;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Creates every thread loom-mcp starts: virtual threads named {@code mcp-<purpose>-<n>}. Each live one is tracked
 * so that tests can prove none outlives its owner (virtual threads are not listed by
 * {@link Thread#getAllStackTraces()}).
 *
 * <p>Work that blocks in native code for as long as a connection lives (a read or write on a process pipe) must not
 * run on a virtual thread: it would hold a carrier thread of the virtual-thread scheduler for all that time. Such
 * work gets a platform daemon thread from {@link #startPlatform}; platform threads are listed by
 * {@link Thread#getAllStackTraces()}, so they are not tracked here.
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
        Objects.requireNonNull(purpose, "purpose");
        Objects.requireNonNull(task, "task");
        Thread t = Thread.ofVirtual().name("mcp-" + purpose + "-" + COUNTER.incrementAndGet()).unstarted(() -> {
            try {
                task.run();
            } finally {
                LIVE.remove(Thread.currentThread()); // added before it started
            }
        });
        LIVE.add(t);
        return t;
    }

    /**
     * Stops tracking a thread that was created here but will never start (an executor that refused to start it
     * after its factory made it), so that {@link #live()} does not report it as left behind. A thread that started
     * is not affected: it stops being tracked when it ends.
     *
     * @param t the thread
     */
    public static void forgetUnstarted(Thread t) {
        if (t != null && t.getState() == Thread.State.NEW) {
            LIVE.remove(t);
        }
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

    /**
     * Starts a platform daemon thread named {@code mcp-<purpose>-<n>} with the given stack size, for work that blocks
     * in native code for long (a pipe read or write), which must not hold a carrier of the virtual-thread scheduler.
     * Such a thread costs one OS thread while it lives. It is not tracked by {@link #live()} (platform threads are
     * listed by {@link Thread#getAllStackTraces()}).
     *
     * @param purpose         what the thread does, for its name
     * @param stackSizeBytes  the requested stack size in bytes (a hint to the JVM, see {@link Thread.Builder.OfPlatform#stackSize})
     * @param task            the work
     * @return the started thread
     */
    public static Thread startPlatform(String purpose, long stackSizeBytes, Runnable task) {
        Thread t = newPlatform(purpose, stackSizeBytes, task);
        t.start();
        return t;
    }

    /**
     * Creates (without starting) a platform daemon thread named {@code mcp-<purpose>-<n>}: see
     * {@link #startPlatform}.
     *
     * @param purpose        what the thread does, for its name
     * @param stackSizeBytes the requested stack size in bytes
     * @param task           the work
     * @return the unstarted thread
     */
    public static Thread newPlatform(String purpose, long stackSizeBytes, Runnable task) {
        Objects.requireNonNull(purpose, "purpose");
        Objects.requireNonNull(task, "task");
        return Thread.ofPlatform().daemon().stackSize(stackSizeBytes)
                .name("mcp-" + purpose + "-" + COUNTER.incrementAndGet()).unstarted(task);
    }
}
