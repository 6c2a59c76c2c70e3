package dev.loommcp.tasks;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link TaskStore} in memory: tasks survive a reconnect of the same client, not a restart of the JVM. The default
 * of {@link McpTasks}. Thread-safe.
 */
public final class InMemoryTaskStore implements TaskStore {

    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, TaskRecord> records = new LinkedHashMap<>(); // guarded by lock; key: TaskRecords.key

    /** Creates an empty store. */
    public InMemoryTaskStore() {
    }

    @Override
    public void put(TaskRecord record) {
        Objects.requireNonNull(record, "record");
        lock.lock();
        try {
            records.put(TaskRecords.key(record.serverKey(), record.taskId()), record);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void remove(String serverKey, String taskId) {
        lock.lock();
        try {
            records.remove(TaskRecords.key(serverKey, taskId));
        } finally {
            lock.unlock();
        }
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
