package dev.loommcp.tasks;

import dev.loommcp.Era;
import java.time.Duration;
import java.time.Instant;

/**
 * What a {@link TaskStore} keeps of one open task, enough to re-attach to it after a restart. Immutable.
 *
 * @param taskId     the task's id
 * @param serverKey  the server's identity ({@code TaskChannel.serverKey()})
 * @param era        the era it was created in
 * @param toolName   the tool whose call created it
 * @param createdAt  when it was created (the server's time when it said, else the client's)
 * @param ttl        its time to live, or {@code null} for unlimited
 * @param lastStatus the status last learned
 */
public record TaskRecord(String taskId, String serverKey, Era era, String toolName, Instant createdAt, Duration ttl,
                         TaskStatus lastStatus) {

    /**
     * Checks the components.
     *
     * @throws NullPointerException if a component other than {@code ttl} is {@code null}
     */
    public TaskRecord {
        java.util.Objects.requireNonNull(taskId, "taskId");
        java.util.Objects.requireNonNull(serverKey, "serverKey");
        java.util.Objects.requireNonNull(era, "era");
        java.util.Objects.requireNonNull(toolName, "toolName");
        java.util.Objects.requireNonNull(createdAt, "createdAt");
        java.util.Objects.requireNonNull(lastStatus, "lastStatus");
    }
}
