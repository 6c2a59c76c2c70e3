package dev.loommcp.tasks;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * A {@link TaskStore} in memory: tasks survive a reconnect of the same client, not a restart of the JVM. The default
 * of {@link McpTasks}. Each change drops the records past their TTL and those of ended stdio clients, as
 * {@link FileTaskStore} does. Thread-safe.
 */
public final class InMemoryTaskStore implements TaskStore {

    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, TaskRecord> records = new LinkedHashMap<>(); // guarded by lock; key: TaskRecords.key

    /** Creates an empty store. */
    public InMemoryTaskStore() {
    }

    @Override
    public void put(TaskRecord record) {
        TaskStore.checkStorable(record);
        lock.lock();
        try {
            records.put(TaskRecords.key(record.serverKey(), record.taskId()), record);
            prune();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void remove(String serverKey, String taskId) {
        lock.lock();
        try {
            records.remove(TaskRecords.key(serverKey, taskId));
            prune();
        } finally {
            lock.unlock();
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>Under the store's lock, in one step.
     */
    @Override
    public List<TaskRecord> claim(String serverKey, java.util.function.Function<TaskRecord, @Nullable TaskRecord> claim,
                                  dev.loommcp.Deadline deadline) {
        Objects.requireNonNull(serverKey, "serverKey");
        Objects.requireNonNull(claim, "claim");
        List<TaskRecord> taken = new java.util.ArrayList<>();
        lock.lock();
        try {
            prune();
            TaskRecords.claim(records, serverKey, claim, taken);
        } finally {
            lock.unlock();
        }
        return taken;
    }

    /** Drops the records {@link TaskRecords#prunable} names; under the lock. */
    private void prune() {
        java.time.Instant now = java.time.Instant.now();
        Map<String, Boolean> ownersAlive = new java.util.HashMap<>();
        records.values().removeIf(r -> TaskRecords.prunable(r, now, ownersAlive));
    }

    @Override
    public List<TaskRecord> list(String serverKey) {
        Objects.requireNonNull(serverKey, "serverKey");
        lock.lock();
        try {
            return TaskRecords.ofServer(records.values(), serverKey);
        } finally {
            lock.unlock();
        }
    }
}
