package dev.loommcp.tasks;

/**
 * Hears a task's status changes ({@link McpTask#addListener}). Called once per change the client learns of (by poll,
 * push or a caller's {@code get}), one at a time and in the order the client learned them, even when two answers
 * arrive at once; after a terminal status nothing more. Called with no lock of the client held, on the thread that
 * learned the change, or on a thread that is delivering an earlier change of the same task (it then delivers this
 * one after it): keep it short, since the task's later changes, and a waiter's return, wait for it. An exception it
 * throws is logged and ignored.
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
