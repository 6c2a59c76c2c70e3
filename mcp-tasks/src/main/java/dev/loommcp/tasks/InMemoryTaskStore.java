package dev.loommcp.tasks;

import java.util.List;

/**
 * A {@link TaskStore} in memory: tasks survive a reconnect of the same client, not a restart of the JVM. The default
 * of {@link McpTasks}. Thread-safe.
 */
public final class InMemoryTaskStore implements TaskStore {

    /** Creates an empty store. */
    public InMemoryTaskStore() {
    }

    @Override
    public void put(TaskRecord record) {
        throw new UnsupportedOperationException("not built yet");
    }

    @Override
    public void remove(String serverKey, String taskId) {
        throw new UnsupportedOperationException("not built yet");
    }

    @Override
    public List<TaskRecord> list(String serverKey) {
        throw new UnsupportedOperationException("not built yet");
    }
}
