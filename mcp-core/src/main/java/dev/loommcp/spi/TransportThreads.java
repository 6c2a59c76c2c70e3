package dev.loommcp.spi;

import dev.loommcp.internal.concurrent.McpThreads;
import java.util.concurrent.ThreadFactory;

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
