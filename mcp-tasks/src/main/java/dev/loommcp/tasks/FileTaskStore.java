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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link TaskStore} in one JSON file: tasks survive a restart of the JVM. Every change rewrites the file atomically
 * (a temporary file in the same directory, forced to disk, then moved over the old one), so a crash mid-write leaves
 * the previous content whole. A file that cannot be parsed is not overwritten: the store fails with a message that
 * names it.
 *
 * <p>Several stores and several processes may share one file (for example one {@link McpTasks} per server, all on
 * {@code tasks.json}): each change holds an exclusive lock on the sibling file {@code <file>.lock} (and, within one
 * JVM, a lock per path), reads the file's current content, applies the change and rewrites it, so no change of
 * another store is lost; {@link #list} reads the file's current content too. A change costs one read and one
 * rewrite of the whole file. The lock file is created on first use and left in place (deleting it while another
 * process holds it would break the exclusion). Thread-safe.
 *
 * <p>The temporary file is {@code <file>.tmp}; one left behind by a crash is ignored and replaced by the next
 * write. File I/O runs on the calling thread (a carrier-pinning native call on a virtual thread, short).
 */
public final class FileTaskStore implements TaskStore {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.tasks");

    /** One lock per store file in this JVM: two FileChannel locks of one JVM on one file would overlap. */
    private static final ConcurrentHashMap<Path, ReentrantLock> PATH_LOCKS = new ConcurrentHashMap<>();

    private final Path file;
    private final Path temp;
    private final Path lockFile;
    private final ReentrantLock lock;

    /**
     * Creates a store on a file, which need not exist yet (its directory must). An existing file is read at once: an
     * empty (0-byte) file is an empty store.
     *
     * @param file the file
     * @throws NullPointerException if {@code file} is {@code null}
     * @throws UncheckedIOException naming the file and what is wrong, if its directory does not exist or is not a
     *                              directory, or the file exists but cannot be read or is corrupt (it is left as is)
     */
    public FileTaskStore(Path file) {
        Path abs = Objects.requireNonNull(file, "file").toAbsolutePath().normalize();
        Path dir = abs.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new UncheckedIOException("cannot use the task store " + abs + ": its directory " + dir
                    + (dir != null && Files.exists(dir) ? " is not a directory" : " does not exist"),
                    new NoSuchFileException(String.valueOf(dir)));
        }
        this.file = abs;
        this.temp = abs.resolveSibling(abs.getFileName() + ".tmp");
        this.lockFile = abs.resolveSibling(abs.getFileName() + ".lock");
        this.lock = PATH_LOCKS.computeIfAbsent(canonical(abs), k -> new ReentrantLock());
        read(); // fail now, not at the first resumeTasks(), when the file is unreadable or corrupt
    }

    /** The key of the per-path lock: the real directory and the file name (two spellings of one file share it). */
    private static Path canonical(Path abs) {
        try {
            return abs.getParent().toRealPath().resolve(abs.getFileName());
        } catch (IOException e) {
            return abs;
        }
    }

    /**
     * Returns the file.
     *
     * @return the path
     */
    public Path file() {
        return file;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Holds the file's lock while it reads, changes and rewrites the file.
     *
     * @throws UncheckedIOException naming the file, if it cannot be locked, read (or is corrupt) or written; the file
     *                              is then unchanged
     */
    @Override
    public void put(TaskRecord record) {
        Objects.requireNonNull(record, "record");
        change(m -> {
            m.put(TaskRecords.key(record.serverKey(), record.taskId()), record);
            return true;
        });
    }

    /**
     * {@inheritDoc}
     *
     * @throws UncheckedIOException naming the file, if it cannot be locked, read (or is corrupt) or written; the file
     *                              is then unchanged
     */
    @Override
    public void remove(String serverKey, String taskId) {
        Objects.requireNonNull(serverKey, "serverKey");
        Objects.requireNonNull(taskId, "taskId");
        change(m -> m.remove(TaskRecords.key(serverKey, taskId)) != null);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Reads the file's current content (changes of other stores on the same file included).
     *
     * @throws UncheckedIOException naming the file, if it cannot be read or is corrupt
     */
    @Override
    public List<TaskRecord> list(String serverKey) {
        Objects.requireNonNull(serverKey, "serverKey");
        // a whole file is always there to read: writers replace it by an atomic move
        return TaskRecords.ofServer(read().values(), serverKey);
    }

    /** Reads, changes and (when {@code change} says it changed) rewrites the file, under both locks. */
    private void change(java.util.function.Predicate<Map<String, TaskRecord>> change) {
        lock.lock();
        try (FileChannel lockChannel = FileChannel.open(lockFile, StandardOpenOption.CREATE,
                StandardOpenOption.WRITE)) {
            lockChannel.lock(); // released when the channel closes
            Map<String, TaskRecord> m = read();
            if (change.test(m)) {
                save(m);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock the task store " + file + " (lock file " + lockFile + "): "
                    + e.getMessage(), e);
        } finally {
            lock.unlock();
        }
    }

    /** The records in the file now (none when it does not exist or is empty). */
    private Map<String, TaskRecord> read() {
        Map<String, TaskRecord> m = new LinkedHashMap<>();
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return m;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the task store " + file + ": " + e.getMessage(), e);
        }
        if (bytes.length == 0) {
            return m; // made by touch: an empty store
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
