package dev.loommcp.tasks;

import java.io.UncheckedIOException;
import java.util.List;

/**
 * Where a client remembers its open tasks, so that {@link McpTasks#resumeTasks()} can re-attach to them after a
 * restart. A task is recorded when it is created, updated on each status change, and removed when it ends (or the
 * server no longer knows it). Implementations must be thread-safe. Shipped: {@link InMemoryTaskStore} (the default)
 * and {@link FileTaskStore}.
 */
public interface TaskStore {

    /**
     * Records a task, replacing an earlier record of the same {@code serverKey} and {@code taskId}.
     *
     * <p>{@link McpTasks} calls this (and {@link #remove}) while it drives tasks; when it throws there, the failure
     * is logged as a WARNING and the task goes on (the task on the server is not lost to the caller; only a later
     * {@link McpTasks#resumeTasks()} may miss it or see a stale status).
     *
     * @param record the record
     * @throws UncheckedIOException if a store on disk cannot write
     */
    void put(TaskRecord record);

    /**
     * Forgets a task; nothing happens when it is not recorded.
     *
     * @param serverKey the server's identity
     * @param taskId    the task's id
     * @throws UncheckedIOException if a store on disk cannot write
     */
    void remove(String serverKey, String taskId);

    /**
     * Lists the recorded tasks of one server.
     *
     * @param serverKey the server's identity
     * @return the records, in creation order
     * @throws UncheckedIOException if a store on disk cannot read
     */
    List<TaskRecord> list(String serverKey);
}
