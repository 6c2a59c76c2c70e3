package dev.loommcp.spi;

import dev.loommcp.internal.concurrent.Joins;
import dev.loommcp.internal.concurrent.McpThreads;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import dev.loommcp.Deadline;
import org.jspecify.annotations.Nullable;

/**
 * Where a transport gets its threads, named {@code mcp-<purpose>-<n>} like the core's own, so that thread dumps
 * and leak checks see every thread of a client. Implemented by the core; thread-safe.
 *
 * <p>Waiting work (an HTTP exchange, a timer, a process-exit watch) runs on virtual threads. Work that blocks in
 * native code for long (a pipe read or write) must not hold a carrier of the virtual-thread scheduler: it runs on a
 * platform daemon thread with a small stack ({@link #startPlatform}).
 */
public interface TransportThreads {

    /**
     * Creates, without starting, a virtual thread named {@code mcp-<purpose>-<n>}.
     *
     * @param purpose what the thread does, for its name
     * @param task    the work
     * @return the unstarted thread
     * @throws NullPointerException if an argument is {@code null}
     */
    Thread newThread(String purpose, Runnable task);

    /**
     * Starts a virtual thread named {@code mcp-<purpose>-<n>}.
     *
     * @param purpose what the thread does, for its name
     * @param task    the work
     * @return the started thread
     * @throws NullPointerException if an argument is {@code null}
     */
    default Thread start(String purpose, Runnable task) {
        Thread t = newThread(purpose, task);
        t.start();
        return t;
    }

    /**
     * Returns a factory of virtual threads named {@code mcp-<purpose>-<n>} (for an executor, an HTTP client).
     *
     * @param purpose what the threads do
     * @return the factory
     */
    default ThreadFactory factory(String purpose) {
        return r -> newThread(purpose, r);
    }

    /**
     * Starts a platform daemon thread named {@code mcp-<purpose>-<n>} with the given stack size, for work that blocks
     * in native code for long. It costs one OS thread while it lives.
     *
     * @param purpose        what the thread does, for its name
     * @param stackSizeBytes the requested stack size in bytes (a hint to the JVM)
     * @param task           the work
     * @return the started thread
     * @throws NullPointerException if {@code purpose} or {@code task} is {@code null}
     */
    Thread startPlatform(String purpose, long stackSizeBytes, Runnable task);

    /**
     * Waits for threads to end, in a close path: joins each in turn until all have ended or the deadline passed. An
     * interrupt of the calling thread (pending on entry or arriving while waiting) does not cut the wait short; it is
     * cleared and reported, for the caller to re-assert once its own close path is done. The calling thread itself,
     * {@code null} entries and threads never started are skipped. The same bounded join the core uses for its own
     * threads.
     *
     * @param threads  the threads to wait for
     * @param deadline when to stop waiting; not {@link Deadline#NONE}
     * @return whether the calling thread was interrupted
     * @throws IllegalArgumentException if {@code deadline} is {@link Deadline#NONE}
     * @throws NullPointerException     if an argument is {@code null}
     */
    default boolean joinAll(Collection<? extends @Nullable Thread> threads, Deadline deadline) {
        Objects.requireNonNull(threads, "threads");
        if (deadline.isNone()) {
            throw new IllegalArgumentException("a bounded join needs a deadline");
        }
        return Joins.joinAll(List.copyOf(threads.stream().filter(Objects::nonNull).toList()), deadline.nanoTime());
    }

    /**
     * Returns the core's threads (the ones {@link TransportContext#threads()} gives a transport).
     *
     * @return the thread source
     */
    static TransportThreads standard() {
        return CoreThreads.INSTANCE;
    }
}

/** The core's threads: {@link McpThreads}, tracked for leak checks. */
enum CoreThreads implements TransportThreads {
    INSTANCE;

    @Override
    public Thread newThread(String purpose, Runnable task) {
        return McpThreads.newThread(purpose, task);
    }

    @Override
    public Thread start(String purpose, Runnable task) {
        return McpThreads.start(purpose, task);
    }

    @Override
    public Thread startPlatform(String purpose, long stackSizeBytes, Runnable task) {
        return McpThreads.startPlatform(purpose, stackSizeBytes, task);
    }
}
