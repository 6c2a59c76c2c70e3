package dev.loommcp.tasks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link TaskStore} in one JSON file: tasks survive a restart of the JVM. Every change rewrites the file atomically
 * (a temporary file in the same directory, forced to disk, then moved over the old one), so a crash mid-write leaves
 * the previous content whole. A file that cannot be parsed is not overwritten: the store fails with a message that
 * names it. Thread-safe within one JVM; two JVMs must not share one file.
 *
 * <p>The temporary file is {@code <file>.tmp}; one left behind by a crash is ignored and replaced by the next
 * write. File I/O runs on the calling thread (a carrier-pinning native call on a virtual thread, short).
 */
public final class FileTaskStore implements TaskStore {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.tasks");

    private final Path file;
    private final Path temp;
    private final ReentrantLock lock = new ReentrantLock();
    private Map<String, TaskRecord> records; // guarded by lock; null until read

    /**
     * Creates a store on a file, which need not exist yet (its directory must).
     *
     * @param file the file
     * @throws NullPointerException if {@code file} is {@code null}
     */
    public FileTaskStore(Path file) {
        this.file = java.util.Objects.requireNonNull(file, "file").toAbsolutePath();
        this.temp = this.file.resolveSibling(this.file.getFileName() + ".tmp");
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
        Objects.requireNonNull(record, "record");
        lock.lock();
        try {
            Map<String, TaskRecord> m = loaded();
            TaskRecord old = m.put(TaskRecords.key(record.serverKey(), record.taskId()), record);
            try {
                save(m);
            } catch (UncheckedIOException e) {
                undo(m, record, old);
                throw e;
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void remove(String serverKey, String taskId) {
        lock.lock();
        try {
            Map<String, TaskRecord> m = loaded();
            String key = TaskRecords.key(serverKey, taskId);
            TaskRecord old = m.remove(key);
            if (old == null) {
                return;
            }
            try {
                save(m);
            } catch (UncheckedIOException e) {
                records = null; // read again next time: the file still has it
                throw e;
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public List<TaskRecord> list(String serverKey) {
        Objects.requireNonNull(serverKey, "serverKey");
        lock.lock();
        try {
            return TaskRecords.ofServer(loaded().values(), serverKey);
        } finally {
            lock.unlock();
        }
    }

    private void undo(Map<String, TaskRecord> m, TaskRecord record, TaskRecord old) {
        String key = TaskRecords.key(record.serverKey(), record.taskId());
        if (old == null) {
            m.remove(key);
        } else {
            m.put(key, old);
        }
    }

    /** The records, read from the file on first use (again after a failed read). */
    private Map<String, TaskRecord> loaded() {
        if (records != null) {
            return records;
        }
        Map<String, TaskRecord> m = new LinkedHashMap<>();
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            records = m;
            return m;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the task store " + file + ": " + e.getMessage(), e);
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw corrupt("it is not UTF-8", e);
        }
        try {
            for (TaskRecord r : TaskRecords.read(text)) {
                m.put(TaskRecords.key(r.serverKey(), r.taskId()), r);
            }
        } catch (IllegalArgumentException e) {
            throw corrupt(e.getMessage(), e);
        }
        records = m;
        return m;
    }

    private UncheckedIOException corrupt(String why, Exception cause) {
        return new UncheckedIOException("the task store " + file + " is corrupt (" + why + "); it is left as is:"
                + " repair or remove it", new IOException(why, cause));
    }

    private void save(Map<String, TaskRecord> m) {
        byte[] bytes = TaskRecords.write(List.copyOf(m.values())).getBytes(StandardCharsets.UTF_8);
        try {
            try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer buf = ByteBuffer.wrap(bytes);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
            }
            try {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException("the file system of " + file + " cannot replace a file atomically", e);
            }
            forceDirectory();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the task store " + file + ": " + e.getMessage(), e);
        }
    }

    /** Makes the rename durable where the platform allows opening a directory (Linux, macOS). */
    private void forceDirectory() {
        Path dir = file.getParent();
        if (dir == null) {
            return;
        }
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            LOG.log(System.Logger.Level.TRACE, "cannot force directory {0}: {1}", dir, e.toString());
        }
    }

    @Override
    public String toString() {
        return "FileTaskStore[" + file + "]";
    }
}
