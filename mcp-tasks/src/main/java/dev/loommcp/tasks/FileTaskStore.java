package dev.loommcp.tasks;

import dev.loommcp.Deadline;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.AclEntry;
import java.nio.file.attribute.AclEntryPermission;
import java.nio.file.attribute.AclEntryType;
import java.nio.file.attribute.AclFileAttributeView;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

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
 * <p>Waiting: a change waits for the two locks at most until the earlier of its deadline
 * ({@link #put(TaskRecord, Deadline)}, {@link #remove(String, String, Deadline)}: {@link McpTasks} passes the deadline
 * of the call it writes for) and the store's lock timeout (default {@value #DEFAULT_LOCK_TIMEOUT_SECONDS} s), then
 * fails with {@link TaskStoreBusyException} naming the file and leaves it unchanged: a process that holds the lock
 * file (one stopped mid-write, say) never hangs this one. The file lock is polled with
 * {@link FileChannel#tryLock()} and short pauses, so a waiting virtual thread holds no carrier.
 *
 * <p>Permissions: a task's id is often enough to fetch its result, so the store file, its temporary file and its
 * lock file are created owner-only: {@code rw-------} on POSIX file systems (whatever the umask), an ACL granting
 * the owner alone full access on file systems with ACLs (Windows). The store file is always the moved temporary file,
 * so a store file an older version left readable to others becomes owner-only at the first change. On file systems
 * with neither, the platform's defaults apply: choose a directory only you can read.
 *
 * <p>Links: the temporary file {@code <file>.tmp} is created exclusively ({@code CREATE_NEW}) after removing one
 * left behind by a crash (a symbolic link planted there is removed, never written through), and the lock file is
 * opened without following links (one planted there is refused, naming it). A store path given as a symbolic link is
 * followed once, in the constructor: the files then live beside its target.
 *
 * <p>Pruning: each change also drops the records {@code resumeTasks()} could no longer use: past their TTL (plus a
 * minute) counted on this machine's clock from {@link TaskRecord#learnedAt()}, and stdio servers' tasks whose owner
 * ({@link TaskRecord#owner()}) has ended. A file of a newer format version is refused (saying so) and left as is.
 *
 * <p>The temporary file is {@code <file>.tmp}; one left behind by a crash is deleted and recreated by the next
 * write. File I/O runs on the calling thread (a carrier-pinning native call on a virtual thread, short).
 */
public final class FileTaskStore implements TaskStore {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.tasks");

    /** How long a change waits for the locks at most, unless told otherwise: {@value} seconds. */
    public static final int DEFAULT_LOCK_TIMEOUT_SECONDS = 30;

    /** One lock per store file in this JVM: two FileChannel locks of one JVM on one file would overlap. */
    private static final ConcurrentHashMap<Path, ReentrantLock> PATH_LOCKS = new ConcurrentHashMap<>();
    /** The longest pause between two tries of the file lock. */
    private static final long MAX_LOCK_PAUSE_MILLIS = 20;
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private final Path file;
    private final Path temp;
    private final Path lockFile;
    private final ReentrantLock lock;
    private final Duration lockTimeout;
    private final boolean posix;

    /**
     * Creates a store on a file, which need not exist yet (its directory must), with the default lock timeout
     * ({@value #DEFAULT_LOCK_TIMEOUT_SECONDS} s). An existing file is read at once: an empty (0-byte) file is an
     * empty store.
     *
     * @param file the file
     * @throws NullPointerException if {@code file} is {@code null}
     * @throws UncheckedIOException naming the file and what is wrong, if its directory does not exist or is not a
     *                              directory, or the file exists but cannot be read or is corrupt (it is left as is)
     */
    public FileTaskStore(Path file) {
        this(file, Duration.ofSeconds(DEFAULT_LOCK_TIMEOUT_SECONDS));
    }

    /**
     * Creates a store on a file, which need not exist yet (its directory must), whose changes wait for the locks at
     * most {@code lockTimeout} (less when their deadline comes first). An existing file is read at once: an empty
     * (0-byte) file is an empty store.
     *
     * @param file        the file
     * @param lockTimeout the longest wait for the locks of one change, positive
     * @throws NullPointerException     if an argument is {@code null}
     * @throws IllegalArgumentException if {@code lockTimeout} is not positive
     * @throws UncheckedIOException     naming the file and what is wrong, if its directory does not exist or is not a
     *                                  directory, or the file exists but cannot be read or is corrupt (it is left as
     *                                  is)
     */
    public FileTaskStore(Path file, Duration lockTimeout) {
        Objects.requireNonNull(lockTimeout, "lockTimeout");
        if (lockTimeout.isNegative() || lockTimeout.isZero()) {
            throw new IllegalArgumentException("lockTimeout must be positive, not " + lockTimeout);
        }
        this.lockTimeout = lockTimeout;
        Path abs = followGivenLink(Objects.requireNonNull(file, "file").toAbsolutePath().normalize());
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
        this.posix = supportsPosix(dir);
        read(new ArrayList<>()); // fail now, not at the first resumeTasks(), when the file is unreadable or corrupt
    }

    /**
     * The path the caller gave, with its symbolic links followed (they are the caller's to point anywhere; the target
     * need not exist yet): the store, its temporary file and its lock file then live beside the target. Links found
     * later, planted at the temporary or lock file, are never followed ({@link #openOwnerOnly}).
     */
    private static Path followGivenLink(Path abs) {
        Path p = abs;
        for (int hops = 0; Files.isSymbolicLink(p); hops++) {
            if (hops == 40) {
                throw new UncheckedIOException("cannot use the task store " + abs + ": too many symbolic links",
                        new java.nio.file.FileSystemException(abs.toString()));
            }
            try {
                Path parent = p.getParent();
                p = (parent == null ? p : parent).resolve(Files.readSymbolicLink(p)).toAbsolutePath().normalize();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot use the task store " + abs + ": cannot read its symbolic link ("
                        + e.getMessage() + ")", e);
            }
        }
        return p;
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
     * <p>Holds the file's lock while it reads, changes and rewrites the file; waits for it at most the lock timeout.
     *
     * @throws TaskStoreBusyException if the locks stay held for the lock timeout; the file is then unchanged
     * @throws UncheckedIOException   naming the file, if it cannot be locked, read (or is corrupt) or written, or the
     *                                thread is interrupted while it waits (its interrupt status is kept); the file is
     *                                then unchanged
     */
    @Override
    public void put(TaskRecord record) {
        put(record, Deadline.NONE);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Waits for the locks at most until the earlier of {@code deadline} and the lock timeout.
     *
     * @throws TaskStoreBusyException if the locks stay held until then; the file is then unchanged
     * @throws UncheckedIOException   naming the file, if it cannot be locked, read (or is corrupt) or written, or the
     *                                thread is interrupted while it waits (its interrupt status is kept); the file is
     *                                then unchanged
     */
    @Override
    public void put(TaskRecord record, Deadline deadline) {
        TaskStore.checkStorable(record);
        change(m -> {
            m.put(TaskRecords.key(record.serverKey(), record.taskId()), record);
            return true;
        }, deadline);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Waits for the locks at most the lock timeout.
     *
     * @throws TaskStoreBusyException if the locks stay held for the lock timeout; the file is then unchanged
     * @throws UncheckedIOException   naming the file, if it cannot be locked, read (or is corrupt) or written, or the
     *                                thread is interrupted while it waits; the file is then unchanged
     */
    @Override
    public void remove(String serverKey, String taskId) {
        remove(serverKey, taskId, Deadline.NONE);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Waits for the locks at most until the earlier of {@code deadline} and the lock timeout.
     *
     * @throws TaskStoreBusyException if the locks stay held until then; the file is then unchanged
     * @throws UncheckedIOException   naming the file, if it cannot be locked, read (or is corrupt) or written, or the
     *                                thread is interrupted while it waits; the file is then unchanged
     */
    @Override
    public void remove(String serverKey, String taskId, Deadline deadline) {
        Objects.requireNonNull(serverKey, "serverKey");
        Objects.requireNonNull(taskId, "taskId");
        change(m -> m.remove(TaskRecords.key(serverKey, taskId)) != null, deadline);
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
        return TaskRecords.ofServer(read(new ArrayList<>()).values(), serverKey);
    }

    /**
     * {@inheritDoc}
     *
     * <p>In one change of the file, under its locks: no other store or process changes the records between the
     * check and the take-over. Waits for the locks at most until the earlier of {@code deadline} and the lock
     * timeout.
     *
     * @throws TaskStoreBusyException if the locks stay held until then; the file is then unchanged
     * @throws UncheckedIOException   naming the file, if it cannot be locked, read (or is corrupt) or written
     */
    @Override
    public List<TaskRecord> claim(String serverKey, java.util.function.Function<TaskRecord, @Nullable TaskRecord> claim,
                                  Deadline deadline) {
        Objects.requireNonNull(serverKey, "serverKey");
        Objects.requireNonNull(claim, "claim");
        List<TaskRecord> taken = new java.util.ArrayList<>();
        change(m -> TaskRecords.claim(m, serverKey, claim, taken), deadline);
        return taken;
    }

    /**
     * Reads, prunes ({@link TaskRecords#prunable}), changes and (when either changed something) rewrites the file,
     * under both locks, waited for at most until the earlier of {@code deadline} and the lock timeout.
     */
    private void change(java.util.function.Predicate<Map<String, TaskRecord>> change, Deadline deadline) {
        Objects.requireNonNull(deadline, "deadline");
        Deadline bound = Deadline.after(lockTimeout).earliest(deadline);
        String why = bound == deadline ? "; gave up at the deadline of the call"
                : " for more than " + lockTimeout.toMillis() + " ms (the store's lock timeout)";
        try {
            if (!lock.tryLock(bound.remainingNanos(), TimeUnit.NANOSECONDS)) {
                throw new TaskStoreBusyException("the task store " + file + " is busy: another thread of this process"
                        + " holds it" + why);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException("cannot change the task store " + file + ": the thread was interrupted"
                    + " while waiting for its lock", new InterruptedIOException("interrupted"));
        }
        try (FileChannel lockChannel = openOwnerOnly(lockFile, StandardOpenOption.CREATE,
                StandardOpenOption.WRITE)) {
            lockFile(lockChannel, bound, why); // released when the channel closes
            List<Object> unreadable = new ArrayList<>();
            Map<String, TaskRecord> m = read(unreadable);
            java.time.Instant now = java.time.Instant.now();
            Map<String, Boolean> ownersAlive = new java.util.HashMap<>();
            boolean pruned = m.values().removeIf(r -> TaskRecords.prunable(r, now, ownersAlive));
            if (change.test(m) | pruned) {
                save(m, unreadable);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock the task store " + file + " (lock file " + lockFile + "): "
                    + e.getMessage(), e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes the exclusive lock of the lock file by polling {@link FileChannel#tryLock()} with short pauses (a blocking
     * {@link FileChannel#lock()} would hold a virtual thread's carrier, unbounded) until {@code bound}.
     */
    private void lockFile(FileChannel ch, Deadline bound, String why) throws IOException {
        long pause = 1;
        while (ch.tryLock() == null) {
            if (bound.isExpired()) {
                throw new TaskStoreBusyException("the task store " + file + " is busy: another process holds its lock"
                        + " file " + lockFile + why);
            }
            try {
                Thread.sleep(Math.max(1, Math.min(pause, TimeUnit.NANOSECONDS.toMillis(bound.remainingNanos()))));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("the thread was interrupted while waiting for the lock file");
            }
            pause = Math.min(pause * 2, MAX_LOCK_PAUSE_MILLIS);
        }
    }

    /**
     * The records in the file now (none when it does not exist or is empty); the entries this version cannot read
     * are skipped into {@code unreadable} (with a WARNING naming the task and field) instead of failing the file, and
     * written back unchanged.
     */
    private Map<String, TaskRecord> read(List<Object> unreadable) {
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
            for (TaskRecord r : TaskRecords.read(text, unreadable)) {
                m.put(TaskRecords.key(r.serverKey(), r.taskId()), r);
            }
        } catch (TaskRecords.NewerVersion e) {
            throw new UncheckedIOException("the task store " + file + " " + e.getMessage() + "; it is left as is:"
                    + " use that version, or move the file away", new IOException(e.getMessage(), e));
        } catch (IllegalArgumentException e) {
            throw corrupt(e.getMessage(), e);
        }
        return m;
    }

    private UncheckedIOException corrupt(String why, Exception cause) {
        return new UncheckedIOException("the task store " + file + " is corrupt (" + why + "); it is left as is:"
                + " repair or remove it", new IOException(why, cause));
    }

    private void save(Map<String, TaskRecord> m, List<Object> unreadable) {
        byte[] bytes = TaskRecords.write(List.copyOf(m.values()), unreadable).getBytes(StandardCharsets.UTF_8);
        try {
            if (!Files.isDirectory(temp, LinkOption.NOFOLLOW_LINKS)) {
                Files.deleteIfExists(temp); // left by a crash: recreated, so that its permissions are ours
            }
            try (FileChannel ch = openOwnerOnly(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
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

    /** Opens a file, creating it owner-only ({@code rw-------}, or an owner-only ACL) when it is missing. */
    private FileChannel openOwnerOnly(Path p, StandardOpenOption... options) throws IOException {
        Set<java.nio.file.OpenOption> opts = new java.util.HashSet<>(List.of(options));
        opts.add(LinkOption.NOFOLLOW_LINKS); // a link planted in a shared directory is never written through
        if (Files.isSymbolicLink(p)) {
            throw new IOException(p + " is a symbolic link; the task store never follows one there (it may have"
                    + " been planted to make the store write elsewhere): remove it");
        }
        if (posix) {
            try {
                return FileChannel.open(p, opts, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            } catch (java.nio.file.FileSystemException e) {
                if (Files.isSymbolicLink(p)) { // planted between the check and the open
                    throw new IOException(p + " is a symbolic link; the task store never follows one there: remove"
                            + " it", e);
                }
                throw e;
            }
        }
        boolean existed = Files.exists(p, LinkOption.NOFOLLOW_LINKS);
        FileChannel ch = FileChannel.open(p, opts);
        if (!existed) {
            try {
                AclFileAttributeView acl = Files.getFileAttributeView(p, AclFileAttributeView.class);
                if (acl != null) {
                    acl.setAcl(List.of(AclEntry.newBuilder().setType(AclEntryType.ALLOW).setPrincipal(acl.getOwner())
                            .setPermissions(EnumSet.allOf(AclEntryPermission.class)).build()));
                }
            } catch (IOException e) {
                ch.close();
                throw e;
            }
        }
        return ch;
    }

    private static boolean supportsPosix(Path dir) {
        try {
            return Files.getFileStore(dir).supportsFileAttributeView(PosixFileAttributeView.class);
        } catch (IOException e) {
            return dir.getFileSystem().supportedFileAttributeViews().contains("posix");
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
