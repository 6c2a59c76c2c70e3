package dev.loommcp.tasks;

import dev.loommcp.Deadline;
import java.io.UncheckedIOException;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Where a client remembers its open tasks, so that {@link McpTasks#resumeTasks()} can re-attach to them after a
 * restart. A task is recorded when it is created, updated on each status change, and removed when it ends (or the
 * server no longer knows it); {@link McpTasks} tells the store one task's changes in the order it learned them, and
 * once it removed a task (it ended) it records nothing more of it. Implementations must be thread-safe; they are
 * called with no lock of {@link McpTasks} held. Shipped: {@link InMemoryTaskStore} (the default)
 * and {@link FileTaskStore}; {@code JdbcTaskStore} of {@code mcp-store-jdbc} for replicas on several machines. A store
 * shared by replicas also grants task leases ({@link #claim(String, String, String, java.time.Duration)},
 * {@link #claimDue}, {@link #heartbeat}, {@link #release}) and takes the writes fenced by them ({@link #update},
 * {@link #complete}): the defaults do so on {@link #claim(String, java.util.function.Function, Deadline)}.
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
     * @throws IllegalArgumentException if the record cannot be stored ({@link #checkStorable}); nothing is written
     * @throws UncheckedIOException if a store on disk cannot write
     */
    void put(TaskRecord record);

    /**
     * Checks that a record may be stored, as every shipped store does before it writes one: its status is a server's
     * ({@link TaskStatus#UNKNOWN} is the client's own and never stored), and its input requests and result are plain
     * JSON values ({@code Map} with {@code String} keys, {@code List}, {@code String}, finite {@code Number},
     * {@code Boolean}, {@code null}; the SDK's records). A store of another kind should call it too, so that what one
     * replica writes every other can read. Stateless; thread-safe.
     *
     * @param record the record
     * @throws NullPointerException     if {@code record} is {@code null}
     * @throws IllegalArgumentException naming the task and what is wrong (the status, or where in the input requests
     *                                  or result a value is not JSON: an object of another class, NaN or infinity,
     *                                  a cycle), never quoting a value
     */
    static void checkStorable(TaskRecord record) {
        java.util.Objects.requireNonNull(record, "record");
        if (record.lastStatus() == TaskStatus.UNKNOWN) {
            throw new IllegalArgumentException("task " + TaskWire.shown(record.taskId()) + " has the status unknown"
                    + " (the client's own, before the server described the task): such a record is never stored");
        }
        try {
            if (!record.inputRequests().isEmpty()) {
                dev.loommcp.internal.json.JsonRpcCodec.writeText(record.inputRequests());
            }
            if (record.result() != null) {
                dev.loommcp.internal.json.JsonRpcCodec.writeText(record.result());
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("task " + TaskWire.shown(record.taskId()) + " cannot be stored: its"
                    + (record.result() == null ? " input requests" : " input requests or result") + " are not plain"
                    + " JSON: " + e.getMessage(), null);
        }
    }

    /**
     * Forgets a task; nothing happens when it is not recorded.
     *
     * @param serverKey the server's identity
     * @param taskId    the task's id
     * @throws UncheckedIOException if a store on disk cannot write
     */
    void remove(String serverKey, String taskId);

    /**
     * Records a task as {@link #put(TaskRecord)} does, waiting for the store (a lock that another thread or process
     * holds) no longer than {@code deadline}. {@link McpTasks} calls this form, with the deadline of the call on whose
     * behalf it writes ({@link Deadline#NONE} for the driver's own updates: the store's own bound applies then), so
     * that a busy store never holds a call past its deadline. The default ignores the deadline and calls
     * {@link #put(TaskRecord)}: a store that may wait should override it.
     *
     * @param record   the record
     * @param deadline the latest time to wait for the store until, or {@link Deadline#NONE}
     * @throws TaskStoreBusyException if the store stays busy until the deadline (nothing is written)
     * @throws UncheckedIOException   if a store on disk cannot write
     */
    default void put(TaskRecord record, Deadline deadline) {
        put(record);
    }

    /**
     * Forgets a task as {@link #remove(String, String)} does, waiting for the store no longer than {@code deadline}
     * (see {@link #put(TaskRecord, Deadline)}). The default ignores the deadline.
     *
     * @param serverKey the server's identity
     * @param taskId    the task's id
     * @param deadline  the latest time to wait for the store until, or {@link Deadline#NONE}
     * @throws TaskStoreBusyException if the store stays busy until the deadline (nothing is removed)
     * @throws UncheckedIOException   if a store on disk cannot write
     */
    default void remove(String serverKey, String taskId, Deadline deadline) {
        remove(serverKey, taskId);
    }

    /**
     * Takes over records of one server for {@link McpTasks#resumeTasks()}: calls {@code claim} with each record of
     * {@code serverKey}; a non-null answer replaces the record and is returned (a {@code null} answer leaves it
     * as it is: another live client drives that task). {@link FileTaskStore} and {@link InMemoryTaskStore} do this
     * in one change under their lock, so two clients resuming at once never both take one record; this default
     * lists and then puts each answer, which a store shared between processes should override.
     *
     * @param serverKey the server's identity
     * @param claim     the take-over: the record to write instead, or {@code null} to leave it
     * @param deadline  the latest time to wait for the store until, or {@link Deadline#NONE}
     * @return the records written, in creation order
     * @throws TaskStoreBusyException if the store stays busy until the deadline (nothing is changed)
     * @throws UncheckedIOException   if a store on disk cannot read or write
     */
    default List<TaskRecord> claim(String serverKey, java.util.function.Function<TaskRecord, @Nullable TaskRecord> claim,
                                   Deadline deadline) {
        java.util.Objects.requireNonNull(claim, "claim");
        List<TaskRecord> taken = new java.util.ArrayList<>();
        for (TaskRecord r : list(serverKey)) {
            TaskRecord n = claim.apply(r);
            if (n != null) {
                if (!n.equals(r)) {
                    put(n, deadline);
                }
                taken.add(n);
            }
        }
        return taken;
    }

    /**
     * Claims one recorded task for {@code owner} for {@code length}: granted when the record has not ended
     * ({@link TaskRecord#retainUntil()} is {@code null}) and has no owner, is
     * {@code owner}'s already (then the lease is extended), or its owner's lease has ended
     * ({@link TaskRecord#leaseUntil()} passed, or, without a lease end, its owner's process is gone). The record's
     * owner and lease end become the lease's, in the same atomic step. Does not wait for other owners.
     *
     * <p>The default runs {@link #claim(String, java.util.function.Function, Deadline)} (atomic in the shipped stores)
     * and grants fence {@code 0}; the lease end is on this machine's clock. A store shared between machines (the
     * JDBC store) overrides it with the database's clock and counted fences.
     *
     * @param serverKey the server's identity
     * @param taskId    the task's id
     * @param owner     the claiming owner's id
     * @param length    how long the lease runs, positive
     * @return the lease, or empty when the task is not recorded or another owner's lease runs
     * @throws IllegalArgumentException if {@code length} is not positive
     * @throws UncheckedIOException     if a persistent store cannot read or write
     */
    default java.util.Optional<TaskLease> claim(String serverKey, String taskId, String owner,
                                                java.time.Duration length) {
        java.util.Objects.requireNonNull(taskId, "taskId");
        return TaskLeases.claim(this, serverKey, owner, length, 1, r -> r.taskId().equals(taskId)).stream()
                .findFirst();
    }

    /**
     * Claims up to {@code limit} recorded tasks of one server that nobody drives (no owner, or the owner's lease
     * ended, as {@link #claim(String, String, String, java.time.Duration)} decides; a task {@code owner} holds a
     * running lease on is not claimed again), oldest first, for
     * {@code owner}: what a replica calls to take over the tasks of one that died. Two owners claiming at once never
     * get the same task. Ended tasks ({@link TaskRecord#retainUntil()} set by {@link #complete}: their outcome was
     * delivered) are never claimed.
     *
     * <p>The default runs {@link #claim(String, java.util.function.Function, Deadline)}; the JDBC store uses
     * {@code SELECT ... FOR UPDATE SKIP LOCKED}.
     *
     * @param serverKey the server's identity
     * @param owner     the claiming owner's id
     * @param length    how long each lease runs, positive
     * @param limit     the most tasks to claim, positive
     * @return the leases, possibly empty
     * @throws IllegalArgumentException if {@code length} or {@code limit} is not positive
     * @throws UncheckedIOException     if a persistent store cannot read or write
     */
    default List<TaskLease> claimDue(String serverKey, String owner, java.time.Duration length, int limit) {
        return TaskLeases.claim(this, serverKey, owner, length, limit, r -> true, TaskLeases::due);
    }

    /**
     * Extends a lease (its owner still drives the task): the record's lease end becomes now plus {@code length}.
     *
     * @param lease  the owner's lease
     * @param length the new length from now, positive
     * @return the extended lease, or empty when the lease was granted to another owner since (or the record is
     *         gone): the owner must stop driving the task
     * @throws IllegalArgumentException if {@code length} is not positive
     * @throws UncheckedIOException     if a persistent store cannot read or write
     */
    default java.util.Optional<TaskLease> heartbeat(TaskLease lease, java.time.Duration length) {
        java.util.Objects.requireNonNull(lease, "lease");
        return TaskLeases.claim(this, lease.serverKey(), lease.owner(), length, 1,
                r -> r.taskId().equals(lease.taskId()) && lease.owner().equals(r.owner())).stream().findFirst();
    }

    /**
     * Ends a lease early (its owner stops driving the task without ending it): the record keeps no owner, so
     * another owner may claim it at once; nothing happens when the lease was granted to another owner since.
     *
     * @param lease the owner's lease
     * @return whether the lease was ended
     * @throws UncheckedIOException if a persistent store cannot read or write
     */
    default boolean release(TaskLease lease) {
        java.util.Objects.requireNonNull(lease, "lease");
        return !claim(lease.serverKey(), r -> r.taskId().equals(lease.taskId()) && lease.owner().equals(r.owner())
                ? r.withOwner(null, null) : null, Deadline.NONE).isEmpty();
    }

    /**
     * Rewrites the record of a task its owner drives, fenced by the owner's lease: written only while the stored
     * record still carries the lease (its owner, and its fence; a store whose default lease does not count grants
     * compares the lease end the last grant or heartbeat wrote instead) and has not ended
     * ({@link TaskRecord#retainUntil()} is {@code null}). The stored owner and lease end are kept, whatever
     * {@code record} says. A refusal means another owner was granted the task since (or it ended, or is gone): the
     * caller must stop driving it.
     *
     * <p>The default runs {@link #claim(String, java.util.function.Function, Deadline)} (atomic in the shipped
     * stores); the JDBC store is one {@code UPDATE ... WHERE owner = ? AND fence = ?}.
     *
     * @param lease  the owner's lease, as the last grant or {@link #heartbeat} returned it
     * @param record the task as it is now (same server and task id as the lease)
     * @return whether it was written
     * @throws IllegalArgumentException if the record is of another task than the lease
     * @throws UncheckedIOException     if a persistent store cannot read or write
     */
    default boolean update(TaskLease lease, TaskRecord record) {
        TaskLeases.sameTask(lease, record);
        return !claim(lease.serverKey(), r -> TaskLeases.holds(r, lease)
                ? TaskLeases.merged(record, r) : null, Deadline.NONE).isEmpty();
    }

    /**
     * Records that a task ended and its outcome was delivered: the fenced transition that lets exactly one owner
     * across the stores' users deliver it. Written, as {@link #update}, only while the stored record carries
     * {@code lease} and has not ended; the stored record becomes {@code ended} with no owner and no lease end
     * (so nobody claims it again) and is kept until {@code ended.retainUntil()} for anyone to read
     * ({@link #list}), then dropped. Of several owners completing one task (a paused owner whose lease was taken
     * over, a replica racing the one that took over), at most one gets {@code true}: only that one may tell its
     * listeners.
     *
     * <p>The default runs {@link #claim(String, java.util.function.Function, Deadline)}; the JDBC store is one
     * fenced {@code UPDATE}.
     *
     * @param lease the owner's lease, as the last grant or {@link #heartbeat} returned it
     * @param ended the ended task: a terminal {@link TaskRecord#lastStatus()} and a non-null
     *              {@link TaskRecord#retainUntil()}
     * @return whether this call recorded the end (the caller delivers it); {@code false} when another owner holds
     *         the task now, or it ended already, or it is gone
     * @throws IllegalArgumentException if the record is of another task than the lease, its status is not terminal
     *                                  or it has no retention end
     * @throws UncheckedIOException     if a persistent store cannot read or write
     */
    default boolean complete(TaskLease lease, TaskRecord ended) {
        TaskLeases.checkEnded(lease, ended);
        return !claim(lease.serverKey(), r -> TaskLeases.holds(r, lease)
                ? ended.withOwner(null, null) : null, Deadline.NONE).isEmpty();
    }

    /**
     * Lists the recorded tasks of one server.
     *
     * @param serverKey the server's identity
     * @return the records, in creation order
     * @throws UncheckedIOException if a store on disk cannot read
     */
    List<TaskRecord> list(String serverKey);
}
