package dev.loommcp.internal.session;

import dev.loommcp.internal.concurrent.McpThreads;
import dev.loommcp.internal.scope.Scope;
import dev.loommcp.spi.TransportThreads;

import java.util.Objects;

/**
 * The threads a client hands out ({@link dev.loommcp.spi.TransportContext#threads()} for the transport, the task
 * driver's), started as forks of one of the client's scopes, so that the client's close cancels and awaits them
 * and the JDK's thread dump lists them under the client. A thread started once that scope was cancelled (a close
 * path's own helper, such as the HTTP session's {@code DELETE}) is a plain tracked thread: it still runs. Unstarted
 * threads ({@link #newThread}) cannot belong to a scope (the scope cannot know when, or whether, they start): they
 * are plain tracked threads their creator joins. Thread-safe.
 */
final class ScopedThreads implements TransportThreads {

    /** The context a client opens its transport with: its sink, the open deadline, and the client's threads. */
    record Context(dev.loommcp.spi.TransportSink sink, dev.loommcp.Deadline openDeadline,
                   TransportThreads threads) implements dev.loommcp.spi.TransportContext {
        Context {
            Objects.requireNonNull(sink, "sink");
            Objects.requireNonNull(openDeadline, "openDeadline");
        }
    }

    private final Scope<?, ?> scope;

    ScopedThreads(Scope<?, ?> scope) {
        this.scope = Objects.requireNonNull(scope, "scope");
    }

    @Override
    public Thread newThread(String purpose, Runnable task) {
        return McpThreads.newThread(purpose, task);
    }

    @Override
    public Thread start(String purpose, Runnable task) {
        Objects.requireNonNull(purpose, "purpose");
        Thread t = started(purpose, task, false);
        return t != null ? t : McpThreads.start(purpose, task);
    }

    @Override
    public Thread startPlatform(String purpose, long stackSizeBytes, Runnable task) {
        Objects.requireNonNull(purpose, "purpose");
        Thread t = started(purpose, task, true);
        return t != null ? t : McpThreads.startPlatform(purpose, stackSizeBytes, task);
    }

    /** The thread as a fork of the scope, or {@code null} when the scope has ended (cancelled or closed). */
    private Thread started(String purpose, Runnable task, boolean platform) {
        if (scope.isCancelled()) {
            return null;
        }
        try {
            return scope.start(purpose, task, platform);
        } catch (IllegalStateException closedMeanwhile) {
            return null;
        }
    }
}
