package dev.loommcp.tasks;

/**
 * Hears a task's status changes ({@link McpTask#addListener}). Called on a driver thread, once per change the client
 * learns of (by poll or by push), in order; keep it short. An exception it throws is logged and ignored.
 */
@FunctionalInterface
public interface TaskListener {

    /**
     * A task's status or status message changed.
     *
     * @param task     the handle
     * @param snapshot what the server said now
     */
    void onStatus(McpTask task, TaskSnapshot snapshot);
}
