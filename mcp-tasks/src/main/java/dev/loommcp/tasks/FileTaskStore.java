package dev.loommcp.tasks;

import java.nio.file.Path;
import java.util.List;

/**
 * A {@link TaskStore} in one JSON file: tasks survive a restart of the JVM. Every change rewrites the file atomically
 * (a temporary file in the same directory, forced to disk, then moved over the old one), so a crash mid-write leaves
 * the previous content whole. A file that cannot be parsed is not overwritten: the store fails with a message that
 * names it. Thread-safe within one JVM; two JVMs must not share one file.
 */
public final class FileTaskStore implements TaskStore {

    private final Path file;

    /**
     * Creates a store on a file, which need not exist yet (its directory must).
     *
     * @param file the file
     * @throws NullPointerException if {@code file} is {@code null}
     */
    public FileTaskStore(Path file) {
        this.file = java.util.Objects.requireNonNull(file, "file");
    }

    /**
     * Returns the file.
     *
     * @return the path
     */
    public Path file() {
        return file;
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
