package dev.loommcp.internal.scope;

/** A cancel action's registration ({@link Scope#onCancel}): {@link #close()} removes the action. */
@FunctionalInterface
public interface Registration extends AutoCloseable {
    /** Removes the action; idempotent. */
    @Override
    void close();
}
