package dev.loommcp.tasks;

import dev.loommcp.Deadline;
import dev.loommcp.spi.TransportThreads;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The leases an {@link McpTasks} holds on the tasks it drives, and its one scheduler: a single thread per bound
 * client that heartbeats every held lease each third of the lease length and, every {@code claimEvery}, claims what
 * is due ({@link McpTasks#claimDue()}). Each task's store writes ({@link #record}, {@link #complete}, the heartbeat)
 * run one at a time under that task's own lock, so a heartbeat and a fenced write never race on one lease; no user
 * code runs under it. A lease the store refuses (another owner was granted the task) is lost: nothing more is
 * written for the task and {@code onLost} hears its id (after the lock). Thread-safe.
 */
final class TaskLeaseKeeper {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.tasks");

    /** What {@link #complete} did. */
    enum Completion {
        /** This owner's fenced write recorded the end: it delivers the result. */
        WON,
        /** Another owner holds the task now, or it ended already: nothing to deliver here. */
        LOST,
        /** No lease was ever held on the task here (a handle from an id): the caller forgets it as before. */
        NOT_HELD
    }

    /** One task's lease, under its own lock. */
    private static final class Held {
        final ReentrantLock lock = new ReentrantLock();
        @Nullable TaskLease lease; // guarded by lock
        boolean lost; // guarded by lock
    }

    private final TaskStore store;
    private final String owner;
    private final Duration length;
    private final @Nullable Duration claimEvery;
    private final Runnable claimDue;
    private final Consumer<String> onLost;
    private final ConcurrentHashMap<String, Held> held = new ConcurrentHashMap<>();

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition stopping = lock.newCondition();
    private long generation; // guarded by lock: which start the running thread belongs to
    private boolean running; // guarded by lock

    /**
     * @param claimEvery how often to claim due tasks, or {@code null} for never (on demand only)
     * @param claimDue   claims due tasks (called on the scheduler's thread, no lock held; must not throw)
     * @param onLost     hears the id of a task whose lease was lost (no lock held)
     */
    TaskLeaseKeeper(TaskStore store, String owner, Duration length, @Nullable Duration claimEvery, Runnable claimDue,
                    Consumer<String> onLost) {
        this.store = store;
        this.owner = owner;
        this.length = length;
        this.claimEvery = claimEvery;
        this.claimDue = claimDue;
        this.onLost = onLost;
    }

    String owner() {
        return owner;
    }

    Duration length() {
        return length;
    }

    /**
     * Writes the task's current state under its lease: the first write records it with this owner and a lease end,
     * then claims it (a fenced lease); later writes are fenced ({@link TaskStore#update}).
     *
     * @return {@code false} when the lease is lost (nothing written)
     */
    boolean record(TaskRecord r, Deadline deadline) {
        Held h = held.computeIfAbsent(TaskRecords.key(r.serverKey(), r.taskId()), k -> new Held());
        boolean lostNow = false;
        h.lock.lock();
        try {
            if (h.lost) {
                return false;
            }
            TaskLease lease = h.lease;
            if (lease == null) {
                store.put(r.withOwner(owner, Instant.now().plus(length)), deadline);
                Optional<TaskLease> granted = store.claim(r.serverKey(), r.taskId(), owner, length);
                if (granted.isPresent()) {
                    h.lease = granted.get();
                    return true;
                }
                h.lost = lostNow = true;
            } else if (store.update(lease, r)) {
                return true;
            } else {
                h.lease = null;
                h.lost = lostNow = true;
            }
        } finally {
            h.lock.unlock();
        }
        if (lostNow) {
            lost(r.taskId());
        }
        return false;
    }

    /** Holds a lease granted elsewhere ({@link TaskStore#claimDue}): this owner drives the task from now on. */
    void adopt(TaskLease lease) {
        Held h = held.computeIfAbsent(TaskRecords.key(lease.serverKey(), lease.taskId()), k -> new Held());
        h.lock.lock();
        try {
            h.lease = lease;
            h.lost = false;
        } finally {
            h.lock.unlock();
        }
    }

    /** Records the end under the lease ({@link TaskStore#complete}) and lets the task go. */
    Completion complete(TaskRecord ended) {
        Held h = held.remove(TaskRecords.key(ended.serverKey(), ended.taskId()));
        if (h == null) {
            return Completion.NOT_HELD;
        }
        h.lock.lock();
        try {
            TaskLease lease = h.lease;
            h.lease = null;
            if (lease == null) {
                return h.lost ? Completion.LOST : Completion.NOT_HELD;
            }
            return store.complete(lease, ended) ? Completion.WON : Completion.LOST;
        } finally {
            h.lock.unlock();
        }
    }

    /**
     * Lets a task go without recording an end (the server no longer knows it): whether it was lost to another
     * owner (then the caller leaves the record alone).
     */
    boolean drop(String serverKey, String taskId) {
        Held h = held.remove(TaskRecords.key(serverKey, taskId));
        if (h == null) {
            return false;
        }
        h.lock.lock();
        try {
            return h.lost;
        } finally {
            h.lock.unlock();
        }
    }

    /** Starts the scheduler on the client's threads. */
    void start(TransportThreads threads) {
        long mine;
        lock.lock();
        try {
            mine = ++generation;
            running = true;
        } finally {
            lock.unlock();
        }
        threads.start("task-leases", () -> run(mine));
    }

    /**
     * Stops the scheduler and takes every held lease; returns what releases them in the store (for a clean close:
     * another replica may claim the tasks at once), to run with no lock held.
     */
    Runnable stop() {
        lock.lock();
        try {
            running = false;
            generation++;
            stopping.signalAll();
        } finally {
            lock.unlock();
        }
        List<TaskLease> release = new ArrayList<>();
        for (Map.Entry<String, Held> e : held.entrySet()) {
            Held h = e.getValue();
            h.lock.lock();
            try {
                if (h.lease != null) {
                    release.add(h.lease);
                    h.lease = null;
                }
            } finally {
                h.lock.unlock();
            }
        }
        held.clear();
        return () -> {
            for (TaskLease l : release) {
                try {
                    store.release(l);
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "could not release the lease on task {0}: {1} (it ends by"
                            + " itself within {2} ms)", TaskWire.shown(l.taskId()), e.toString(), length.toMillis());
                }
            }
        };
    }

    private void run(long mine) {
        long beatNanos = Math.max(1, length.toNanos() / 3);
        long claimNanos = claimEvery == null ? Long.MAX_VALUE : claimEvery.toNanos();
        long nextBeat = System.nanoTime() + beatNanos;
        long nextClaim = claimEvery == null ? Long.MAX_VALUE : System.nanoTime() + claimNanos;
        while (true) {
            lock.lock();
            try {
                while (true) {
                    if (!running || generation != mine) {
                        return;
                    }
                    long wait = Math.min(nextBeat, nextClaim) - System.nanoTime();
                    if (wait <= 0) {
                        break;
                    }
                    stopping.awaitNanos(wait);
                }
            } catch (InterruptedException e) {
                return;
            } finally {
                lock.unlock();
            }
            long now = System.nanoTime();
            if (now - nextBeat >= 0) {
                heartbeat();
                nextBeat = System.nanoTime() + beatNanos;
            }
            if (now - nextClaim >= 0) {
                claimDue.run();
                nextClaim = System.nanoTime() + claimNanos;
            }
        }
    }

    /** Extends every held lease once; a refused one is lost; a failing store is logged once per round. */
    void heartbeat() {
        RuntimeException failed = null;
        for (Held h : held.values()) {
            String lostId = null;
            h.lock.lock();
            try {
                TaskLease lease = h.lease;
                if (lease == null) {
                    continue;
                }
                Optional<TaskLease> next = store.heartbeat(lease, length);
                if (next.isPresent()) {
                    h.lease = next.get();
                } else {
                    h.lease = null;
                    h.lost = true;
                    lostId = lease.taskId();
                }
            } catch (RuntimeException e) {
                failed = e; // the lease may still hold: its fence decides at the next write
            } finally {
                h.lock.unlock();
            }
            if (lostId != null) {
                lost(lostId);
            }
        }
        if (failed != null) {
            LOG.log(System.Logger.Level.WARNING, "could not extend the task leases of {0}: {1}", owner,
                    failed.toString());
        }
    }

    private void lost(String taskId) {
        LOG.log(System.Logger.Level.INFO, "the lease on task {0} was granted to another owner: {1} stops driving it",
                TaskWire.shown(taskId), owner);
        onLost.accept(taskId);
    }

    /** The lease on a task, for tests. */
    Optional<TaskLease> lease(String serverKey, String taskId) {
        Held h = held.get(TaskRecords.key(serverKey, taskId));
        if (h == null) {
            return Optional.empty();
        }
        h.lock.lock();
        try {
            return Optional.ofNullable(h.lease);
        } finally {
            h.lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "TaskLeaseKeeper[" + owner + ", " + held.size() + " tasks, lease " + length.toMillis() + " ms, "
                + TimeUnit.NANOSECONDS.toMillis(length.toNanos() / 3) + " ms heartbeat]";
    }
}
