package dev.loommcp.tasks;

/**
 * A task's status (MCP tasks extension §Task Status; MCP 2025-11-25 tasks §Task Status). {@code working →
 * input_required ⇄ working → completed | failed | cancelled}; a terminal status never changes.
 * {@link #UNKNOWN} is the client's own: a handle made from an id before the server has described the task.
 *
 * <p>The eras differ in one point: a tool result with {@code isError: true} ends a task {@code completed} in the
 * extension and {@code failed} in 2025-11-25.
 */
public enum TaskStatus {
    /** The server is working on it. */
    WORKING("working"),
    /** The server waits for input (modern: the task's {@code inputRequests}; legacy: requests on the result stream). */
    INPUT_REQUIRED("input_required"),
    /** Done with a result. */
    COMPLETED("completed"),
    /** Done with an error. */
    FAILED("failed"),
    /** Cancelled (by the client or the server). */
    CANCELLED("cancelled"),
    /**
     * Not known yet: the client has not heard from the server about this task (a handle made by
     * {@link McpTasks#task(String)} with no stored record, until its first {@code get} or poll). Never sent by a
     * server ({@link #parse} refuses it) and never stored; not terminal.
     */
    UNKNOWN("unknown");

    private final String wireName;

    TaskStatus(String wireName) {
        this.wireName = wireName;
    }

    /**
     * Returns the status as the protocol spells it ({@code "unknown"} for {@link #UNKNOWN}, which the protocol does
     * not have).
     *
     * @return for example {@code "input_required"}
     */
    public String wireName() {
        return wireName;
    }

    /**
     * Returns whether the status is final.
     *
     * @return {@code true} for completed, failed and cancelled
     */
    public boolean isTerminal() {
        return this == COMPLETED || this == FAILED || this == CANCELLED;
    }

    /**
     * Parses the protocol's spelling.
     *
     * @param wireName the status as sent
     * @return the status
     * @throws IllegalArgumentException if it is not one of the protocol's five (the message names it;
     *                                  {@code "unknown"} is refused too)
     */
    public static TaskStatus parse(String wireName) {
        for (TaskStatus s : values()) {
            if (s != UNKNOWN && s.wireName.equals(wireName)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown task status: " + wireName);
    }
}
