package dev.loommcp.tasks;

import dev.loommcp.Deadline;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/** The default task leases of {@link TaskStore}, on its atomic record claim. Stateless. */
final class TaskLeases {

    /** The longest lease (renewed while its owner lives: a year is far beyond any use), as the JDBC store's. */
    static final Duration MAX_LEASE = Duration.ofDays(366);

    private TaskLeases() {
    }

    /**
     * Whether a record's task may be claimed by {@code owner} at {@code now}: not ended, and no owner, {@code owner}
     * itself, a lease that ended, or an owner process of this host that is gone (with or without a lease end:
     * a default owner id names its process and host, {@link TaskOwner}). Another host's owner (or one whose process
     * cannot be looked up) is never judged by a pid: its lease must pass, and without a lease end it keeps its task.
     */
    static boolean free(TaskRecord r, String owner, Instant now, Map<String, Boolean> ownersAlive) {
        if (r.retainUntil() != null) {
            return false; // ended and delivered: nothing to drive
        }
        if (r.owner() == null || r.owner().equals(owner)) {
            return true;
        }
        if (r.leaseUntil() != null) {
            // a lease that passed, or one held by a process of this machine that is gone (no need to wait it out)
            return !r.leaseUntil().isAfter(now)
                    || TaskOwner.isLocalProcessId(r.owner())
                    && !ownersAlive.computeIfAbsent(r.owner(), TaskOwner::alive);
        }
        return !ownersAlive.computeIfAbsent(r.owner(), TaskOwner::alive);
    }

    /**
     * Whether the stored record still carries {@code lease}: the same owner, not ended, and the lease end the last
     * grant or heartbeat wrote (the default leases' fence: every grant and heartbeat writes a new end).
     */
    static boolean holds(TaskRecord r, TaskLease lease) {
        return r.taskId().equals(lease.taskId()) && lease.owner().equals(r.owner()) && r.retainUntil() == null
                && lease.until().equals(r.leaseUntil());
    }

    /** {@code record}'s task state with {@code stored}'s owner and lease end. */
    static TaskRecord merged(TaskRecord record, TaskRecord stored) {
        return new TaskRecord(stored.taskId(), stored.serverKey(), record.era(), record.toolName(),
                record.createdAt(), record.ttl(), record.lastStatus(), stored.owner(),
                record.learnedAt() != null ? record.learnedAt() : stored.learnedAt(), stored.leaseUntil(),
                record.inputRequests(), record.result(), null);
    }

    /** Checks that {@code record} is the task {@code lease} is on. */
    static void sameTask(TaskLease lease, TaskRecord record) {
        java.util.Objects.requireNonNull(lease, "lease");
        java.util.Objects.requireNonNull(record, "record");
        if (!lease.taskId().equals(record.taskId()) || !lease.serverKey().equals(record.serverKey())) {
            throw new IllegalArgumentException("the record is of task " + TaskWire.shown(record.taskId())
                    + " of another server or id than the lease's task " + TaskWire.shown(lease.taskId()));
        }
    }

    /** Checks that {@code ended} is the lease's task, ended, with a retention end. */
    static void checkEnded(TaskLease lease, TaskRecord ended) {
        sameTask(lease, ended);
        if (!ended.lastStatus().isTerminal()) {
            throw new IllegalArgumentException("a completed task's status must be terminal, was "
                    + ended.lastStatus().wireName());
        }
        if (ended.retainUntil() == null) {
            throw new IllegalArgumentException("a completed task's record needs a retention end (retainUntil)");
        }
    }

    /** Whether a record is due for {@link TaskStore#claimDue}: free, and not already {@code owner}'s running lease. */
    static boolean due(TaskRecord r, String owner, Instant now, Map<String, Boolean> ownersAlive) {
        if (r.retainUntil() != null) {
            return false;
        }
        if (owner.equals(r.owner())) {
            return r.leaseUntil() != null && !r.leaseUntil().isAfter(now);
        }
        return free(r, owner, now, ownersAlive);
    }

    /** Claims up to {@code limit} records matching {@code which} that are free for {@code owner}, oldest first. */
    static List<TaskLease> claim(TaskStore store, String serverKey, String owner, Duration length, int limit,
                                 Predicate<TaskRecord> which) {
        return claim(store, serverKey, owner, length, limit, which, TaskLeases::free);
    }

    /** The test deciding whether a record may be claimed by an owner at a time. */
    interface Claimable {
        boolean test(TaskRecord r, String owner, Instant now, Map<String, Boolean> ownersAlive);
    }

    /** Claims up to {@code limit} records matching {@code which} that {@code claimable} allows, oldest first. */
    static List<TaskLease> claim(TaskStore store, String serverKey, String owner, Duration length, int limit,
                                 Predicate<TaskRecord> which, Claimable claimable) {
        Objects.requireNonNull(serverKey, "serverKey");
        Objects.requireNonNull(owner, "owner");
        if (owner.isBlank()) {
            throw new IllegalArgumentException("the owner must not be blank");
        }
        Objects.requireNonNull(length, "length");
        if (length.isNegative() || length.isZero()) {
            throw new IllegalArgumentException("the lease length must be positive, was " + length);
        }
        if (length.compareTo(MAX_LEASE) > 0) {
            throw new IllegalArgumentException("the lease length must be at most " + MAX_LEASE + ", was " + length);
        }
        if (limit <= 0) {
            throw new IllegalArgumentException("the limit must be positive, was " + limit);
        }
        Instant now = Instant.now();
        Instant until = now.plus(length);
        Map<String, Boolean> ownersAlive = new HashMap<>();
        // the oldest free records first: pick them on a listing, then claim each again atomically
        List<String> picked = new ArrayList<>();
        store.list(serverKey).stream().filter(which).filter(r -> claimable.test(r, owner, now, ownersAlive))
                .sorted(Comparator.comparing(TaskRecord::createdAt)).limit(limit)
                .forEach(r -> picked.add(r.taskId()));
        if (picked.isEmpty()) {
            return List.of();
        }
        List<TaskRecord> taken = store.claim(serverKey, r -> picked.contains(r.taskId()) && which.test(r)
                && claimable.test(r, owner, Instant.now(), ownersAlive) ? r.withOwner(owner, until) : null, Deadline.NONE);
        List<TaskLease> leases = new ArrayList<>();
        for (TaskRecord r : taken) {
            leases.add(new TaskLease(serverKey, r.taskId(), owner, 0, until));
        }
        return leases;
    }
}
