package dev.loommcp.tasks;

/**
 * Hears the end of each task an {@link McpTasks} drives (those it started and those it claimed from a replica that
 * died), once across every {@code McpTasks} sharing the store ({@link McpTasks.Builder#resultListener}).
 *
 * <p>What "once" means: the end is first recorded in the store by a fenced write ({@link TaskStore#complete}) under
 * the driving replica's lease; of all replicas that drive the task at some point (one paused past its lease, the one
 * that took over), only the one whose write wins calls its listener, after the write. A replica that dies between
 * that write and the call never calls it, and no other replica will: the listener is called <em>at most once</em>
 * across the fleet, and the ended record, with its result, stays readable by anyone through
 * {@link TaskStore#list} for the {@link McpTasks.Builder#resultRetention retention time}. An application that must
 * act on every result exactly once reads the ended records after a replica's death (their
 * {@link TaskRecord#retainUntil()} is set) and reconciles with what its listener did, keyed by
 * {@link TaskRecord#taskId()} and {@link TaskRecord#serverKey()}.
 */
@FunctionalInterface
public interface TaskResultListener {

    /**
     * A task ended and this replica won the right to deliver it. Called on the thread that learned of the end (a
     * poll's, a push's or a caller's), with no lock of the client held; it should return quickly. What it throws is
     * logged as a WARNING and ignored (the end stays recorded).
     *
     * @param ended the ended task as stored: its terminal {@link TaskRecord#lastStatus()}, its
     *              {@link TaskRecord#result()} (the {@code CallToolResult} as plain JSON for a completed task, or
     *              {@code {"error": {"code", "message"}}} for a failed one; {@code null} for a cancelled task, and for
     *              a 2025-11-25 task, whose result is fetched by the caller's {@code tasks/result}), and
     *              {@link TaskRecord#retainUntil()}
     */
    void onResult(TaskRecord ended);
}
