package dev.loommcp.tasks;

import dev.loommcp.config.Era;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link TaskStore} keeps of one open task, enough to re-attach to it after a restart. Immutable.
 *
 * @param taskId     the task's id
 * @param serverKey  the server's identity ({@code TaskChannel.server().key()})
 * @param era        the era it was created in
 * @param toolName   the tool whose call created it
 * @param createdAt  when it was created (the server's time when it said, else the client's)
 * @param ttl        its time to live, or {@code null} for unlimited
 * @param lastStatus the status last learned
 * @param owner      the {@link McpTasks} that drives the task (its instance id, the process id and the process's start
 *                   time), or {@code null} when unknown (a record written by an older version): a record whose owner
 *                   is a live process (or a live {@code McpTasks} of this JVM) other than the reader is not taken by
 *                   {@link McpTasks#resumeTasks()}; one whose owner is gone or unknown is taken over
 * @param learnedAt  when the owner learned of the task, on its machine's clock, or {@code null} when unknown: the
 *                   stores count the TTL from it to prune records the server has surely forgotten
 */
public record TaskRecord(String taskId, String serverKey, Era era, String toolName, Instant createdAt,
                         @Nullable Duration ttl, TaskStatus lastStatus, @Nullable String owner,
                         @Nullable Instant learnedAt) {

    /**
     * A record with no owner and no local time (as an older version wrote them): any
     * {@link McpTasks#resumeTasks()} may take it over, and only its owner's end removes it.
     *
     * @param taskId     the task's id
     * @param serverKey  the server's identity
     * @param era        the era it was created in
     * @param toolName   the tool whose call created it
     * @param createdAt  when it was created
     * @param ttl        its time to live, or {@code null} for unlimited
     * @param lastStatus the status last learned
     * @throws NullPointerException if a component other than {@code ttl} is {@code null}
     */
    public TaskRecord(String taskId, String serverKey, Era era, String toolName, Instant createdAt,
                      @Nullable Duration ttl, TaskStatus lastStatus) {
        this(taskId, serverKey, era, toolName, createdAt, ttl, lastStatus, null, null);
    }

    /**
     * Checks the components.
     *
     * @throws NullPointerException if a component other than {@code ttl}, {@code owner} and {@code learnedAt} is
     *                              {@code null}
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
