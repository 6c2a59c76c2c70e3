package dev.loommcp;

/**
 * The handle of a registered listener or callback: {@link #close()} removes it. Every registration loom-mcp returns
 * has this type: {@link CancellationToken#onCancel(Runnable)}, a server {@link dev.loommcp.event.Subscription}, and
 * those of the extensions.
 *
 * <p>{@link #close()} is idempotent, safe from any thread (including the listener itself) and throws nothing, so a
 * registration fits a try-with-resources block without a {@code catch}. After it returns the listener is not called
 * again, except for a call already running on another thread.
 */
@FunctionalInterface
public interface Registration extends AutoCloseable {

    /** Removes the listener or callback; does nothing when it was removed already. Never throws. */
    @Override
    void close();
}
