package dev.loommcp.tasks;

import dev.loommcp.config.Era;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
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
 * @param leaseUntil when the owner's lease on the task ends ({@link TaskStore#claim(String, String, String,
 *                   java.time.Duration)}), on the store's clock, or {@code null} when the owner holds it for as long
 *                   as its process lives (what an older {@link McpTasks} wrote; this one holds a heartbeated lease on
 *                   every task it drives): a record whose lease has ended may be claimed by anyone, whatever its
 *                   owner
 * @param inputRequests the outstanding input requests of a modern {@code input_required} task by key, as plain
 *                   JSON (what a replica resuming the task must answer); empty when none
 * @param result     the terminal result as plain JSON once the task ended, or {@code null}: kept until
 *                   {@code retainUntil} so that a replica that did not drive the task can still deliver it
 * @param retainUntil until when an ended task's record is kept, or {@code null} (an open task: its TTL applies);
 *                   the stores drop the record after it
 */
public record TaskRecord(String taskId, String serverKey, Era era, String toolName, Instant createdAt,
                         @Nullable Duration ttl, TaskStatus lastStatus, @Nullable String owner,
                         @Nullable Instant learnedAt, @Nullable Instant leaseUntil,
                         Map<String, @Nullable Object> inputRequests, @Nullable Map<String, @Nullable Object> result,
                         @Nullable Instant retainUntil) {

    /**
     * A record with an owner and no lease, input requests or result (what an older {@link McpTasks} wrote for an
     * open task it drove).
     *
     * @param taskId     the task's id
     * @param serverKey  the server's identity
     * @param era        the era it was created in
     * @param toolName   the tool whose call created it
     * @param createdAt  when it was created
     * @param ttl        its time to live, or {@code null} for unlimited
     * @param lastStatus the status last learned
     * @param owner      the owner, or {@code null}
     * @param learnedAt  when the owner learned of the task, or {@code null}
     * @throws NullPointerException if a component other than {@code ttl}, {@code owner} and {@code learnedAt} is
     *                              {@code null}
     */
    public TaskRecord(String taskId, String serverKey, Era era, String toolName, Instant createdAt,
                      @Nullable Duration ttl, TaskStatus lastStatus, @Nullable String owner,
                      @Nullable Instant learnedAt) {
        this(taskId, serverKey, era, toolName, createdAt, ttl, lastStatus, owner, learnedAt, null, Map.of(), null,
                null);
    }

    /**
     * This record with another owner and lease end.
     *
     * @param newOwner      the owner, or {@code null}
     * @param newLeaseUntil the lease's end, or {@code null} (held while the owner's process lives)
     * @return the record
     */
    public TaskRecord withOwner(@Nullable String newOwner, @Nullable Instant newLeaseUntil) {
        return new TaskRecord(taskId, serverKey, era, toolName, createdAt, ttl, lastStatus, newOwner, learnedAt,
                newLeaseUntil, inputRequests, result, retainUntil);
    }

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
     * @throws NullPointerException if {@code taskId}, {@code serverKey}, {@code era}, {@code toolName},
     *                              {@code createdAt}, {@code lastStatus} or {@code inputRequests} is {@code null}
     */
    public TaskRecord {
        java.util.Objects.requireNonNull(taskId, "taskId");
        java.util.Objects.requireNonNull(serverKey, "serverKey");
        java.util.Objects.requireNonNull(era, "era");
        java.util.Objects.requireNonNull(toolName, "toolName");
        java.util.Objects.requireNonNull(createdAt, "createdAt");
        java.util.Objects.requireNonNull(lastStatus, "lastStatus");
        java.util.Objects.requireNonNull(inputRequests, "inputRequests");
        inputRequests = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(inputRequests));
        result = result == null ? null : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(result));
    }
}
