package dev.loommcp.auth.internal;

import dev.loommcp.auth.ClientRegistration;
import dev.loommcp.auth.RefreshLease;
import dev.loommcp.auth.TokenSet;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.AclEntry;
import java.nio.file.attribute.AclEntryPermission;
import java.nio.file.attribute.AclEntryType;
import java.nio.file.attribute.AclFileAttributeView;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * The file token store behind {@code FileTokenStore}: one JSON file ({@value #FILE_NAME}, format {@link StoreFile})
 * in a directory, shared by the threads of this JVM and by other processes.
 *
 * <p>Every operation, reads included, takes a lock per file within this JVM (a {@link ReentrantLock}: two file locks
 * of one JVM on one file would overlap) and then an exclusive file lock on the sibling {@value #LOCK_NAME} (across
 * processes; taken with {@link FileChannel#tryLock()} and short pauses, so that no thread blocks in native code
 * for it), re-reads the file, applies the operation and, when the
 * content changed, writes {@value #TEMP_NAME} in the same directory, forces it to disk and moves it over the file
 * atomically ({@link StandardCopyOption#ATOMIC_MOVE}): a reader, or a crash, never sees half a file. The lock file is
 * created on first use and left in place (deleting it while another process holds it would break the exclusion).
 * The wait for both locks together is bounded ({@value #LOCK_TIMEOUT_SECONDS} s): a process that holds the lock
 * file longer (a stopped one) fails the operation instead of hanging it.
 *
 * <p>Permissions: on POSIX file systems a directory this store creates is {@code rwx------} (an existing one is used
 * as it is: the store never changes the permissions of a directory it did not create), and the store file, its
 * temporary file and the lock file are created {@code rw-------}. On file systems with ACLs instead (Windows), each
 * of them gets an ACL granting its owner alone full access. On file systems with neither, the platform's defaults
 * apply.
 *
 * <p>Failures: {@link #open} throws an {@link IOException} when the directory cannot be created or the file cannot
 * be read or is not a token store; every later operation throws {@link UncheckedIOException} (for a file another
 * process corrupted too). Messages name the file and what is wrong, never its content. The file is never
 * overwritten when it cannot be read. An interrupted thread's operation fails (the message says so; interrupt
 * status kept).
 *
 * <p>Thread-safe. File I/O runs on the calling thread (a virtual thread holds its carrier during a read or write,
 * briefly; waiting for a lock, it holds none).
 */
public final class FileStore {

    /** The store file's name: {@value}. */
    public static final String FILE_NAME = "tokens.json";
    /** The lock file's name: {@value}. */
    public static final String LOCK_NAME = "tokens.json.lock";
    /** The temporary file's name: {@value}. */
    public static final String TEMP_NAME = "tokens.json.tmp";

    /** How long an operation waits for the locks at most: {@value #LOCK_TIMEOUT_SECONDS} seconds. */
    public static final int LOCK_TIMEOUT_SECONDS = 30;
    private static final Duration LOCK_TIMEOUT = Duration.ofSeconds(LOCK_TIMEOUT_SECONDS);
    /** The longest pause between two attempts to take the file lock, in milliseconds. */
    private static final long MAX_LOCK_PAUSE_MILLIS = 20;

    private static final System.Logger LOG = System.getLogger("dev.loommcp.auth");
    private static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OWNER_DIR = PosixFilePermissions.fromString("rwx------");
    /** One lock per store file in this JVM. */
    private static final ConcurrentHashMap<Path, ReentrantLock> PATH_LOCKS = new ConcurrentHashMap<>();

    private final Path dir;
    private final Path file;
    private final Path lockFile;
    private final Path temp;
    private final boolean posix;
    private final Duration lockTimeout;
    private final ReentrantLock lock;

    private FileStore(Path dir, boolean posix, Duration lockTimeout) {
        this.dir = dir;
        this.lockTimeout = lockTimeout;
        this.file = dir.resolve(FILE_NAME);
        this.lockFile = dir.resolve(LOCK_NAME);
        this.temp = dir.resolve(TEMP_NAME);
        this.posix = posix;
        Path key;
        try {
            key = dir.toRealPath().resolve(FILE_NAME);
        } catch (IOException e) {
            key = file;
        }
        this.lock = PATH_LOCKS.computeIfAbsent(key, k -> new ReentrantLock());
    }

    /**
     * Opens (creating when missing) the store in a directory and reads its file once.
     *
     * @param directory the directory (created owner-only when missing, with its missing parents)
     * @return the store
     * @throws NullPointerException if {@code directory} is {@code null}
     * @throws IOException          naming the directory or file, if the directory cannot be created or is not a
     *                              directory, or the file cannot be locked or read or is not a token store
     */
    public static FileStore open(Path directory) throws IOException {
        return open(directory, LOCK_TIMEOUT);
    }

    /** {@link #open(Path)} with another bound of the wait for the locks (tests). */
    static FileStore open(Path directory, Duration lockTimeout) throws IOException {
        Path dir = Objects.requireNonNull(directory, "directory").toAbsolutePath().normalize();
        boolean posix = dir.getFileSystem().supportedFileAttributeViews().contains("posix");
        if (!Files.isDirectory(dir)) {
            createDirectory(dir, posix);
        }
        FileStore store = new FileStore(dir, posix, lockTimeout);
        store.locked(s -> null);
        return store;
    }

    private static void createDirectory(Path dir, boolean posix) throws IOException {
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("cannot use " + dir + " as a token store directory: it is not a directory");
        }
        Path parent = dir.getParent();
        try {
            if (parent != null) {
                Files.createDirectories(parent);
            }
            if (posix) {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_DIR));
                Files.setPosixFilePermissions(dir, OWNER_DIR); // whatever the umask
            } else {
                Files.createDirectory(dir);
                ownerOnlyAcl(dir);
            }
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(dir)) {
                throw new IOException("cannot use " + dir + " as a token store directory: it is not a directory", e);
            }
            // another thread or process created it meanwhile: used as it is
        } catch (IOException e) {
            throw new IOException("cannot create the token store directory " + dir + " ("
                    + e.getClass().getSimpleName() + ")", e);
        }
    }

    /**
     * Returns the store file (which exists once something was saved).
     *
     * @return its absolute path
     */
    public Path file() {
        return file;
    }

    /**
     * Returns the tokens of one resource from one issuer, as the file holds them now.
     *
     * @param resource the resource
     * @param issuer   the issuer
     * @return the tokens, or empty
     * @throws UncheckedIOException naming the file, if it cannot be locked or read or is not a token store
     */
    public Optional<TokenSet> tokens(String resource, String issuer) {
        return call(s -> s.tokens(resource, issuer));
    }

    /**
     * Returns the issuers holding tokens for a resource, the most recently saved first.
     *
     * @param resource the resource
     * @return the issuers
     * @throws UncheckedIOException naming the file, if it cannot be locked or read or is not a token store
     */
    public List<String> issuers(String resource) {
        return call(s -> s.issuers(resource));
    }

    /**
     * Stores the tokens of a resource.
     *
     * @param resource the resource
     * @param tokens   the tokens
     * @throws UncheckedIOException naming the file, if it cannot be locked, read or written (then it is unchanged)
     */
    public void saveTokens(String resource, TokenSet tokens) {
        call(s -> {
            s.saveTokens(resource, tokens);
            return null;
        });
    }

    /**
     * Removes the tokens of a resource from {@code expected.issuer()} if the file still holds exactly them.
     *
     * @param resource the resource
     * @param expected the tokens
     * @return whether they were removed
     * @throws UncheckedIOException naming the file, if it cannot be locked, read or written (then it is unchanged)
     */
    public boolean removeTokens(String resource, TokenSet expected) {
        return call(s -> s.removeTokens(resource, expected));
    }

    /**
     * Removes every token set of a resource.
     *
     * @param resource the resource
     * @return how many were removed
     * @throws UncheckedIOException naming the file, if it cannot be locked, read or written (then it is unchanged)
     */
    public int removeAllTokens(String resource) {
        return call(s -> s.removeAllTokens(resource));
    }

    /**
     * Returns the client registration at an issuer.
     *
     * @param issuer the issuer
     * @return the registration, or empty
     * @throws UncheckedIOException naming the file, if it cannot be locked or read or is not a token store
     */
    public Optional<ClientRegistration> registration(String issuer) {
        return call(s -> s.registration(issuer));
    }

    /**
     * Stores the registration at its issuer.
     *
     * @param registration the registration
     * @throws UncheckedIOException naming the file, if it cannot be locked, read or written (then it is unchanged)
     */
    public void saveRegistration(ClientRegistration registration) {
        call(s -> {
            s.saveRegistration(registration);
            return null;
        });
    }

    /**
     * Removes the registration at {@code expected.issuer()} if the file still holds exactly it.
     *
     * @param expected the registration
     * @return whether it was removed
     * @throws UncheckedIOException naming the file, if it cannot be locked, read or written (then it is unchanged)
     */
    public boolean removeRegistration(ClientRegistration expected) {
        return call(s -> s.removeRegistration(expected));
    }

    /**
     * Replaces the tokens of a resource from {@code expected.issuer()} with {@code fresh} if the file still holds
     * exactly {@code expected} (compare-and-set, under the file lock).
     *
     * @param resource the resource
     * @param expected the tokens the caller holds
     * @param fresh    the tokens to store instead
     * @return whether they were replaced
     * @throws IllegalArgumentException if {@code fresh} is from another issuer
     * @throws UncheckedIOException     naming the file, if it cannot be locked, read or written (then it is unchanged)
     */
    public boolean replaceTokens(String resource, TokenSet expected, TokenSet fresh) {
        if (!expected.issuer().equals(fresh.issuer())) { // a caller's mistake, not the file's
            throw new IllegalArgumentException("the fresh tokens are from another issuer than the expected ones");
        }
        return call(s -> s.replaceTokens(resource, expected, fresh));
    }

    /**
     * Stores a registration unless the file holds one at its issuer (under the file lock); returns the one held.
     *
     * @param registration the registration
     * @return the registration the file holds at that issuer afterwards
     * @throws UncheckedIOException naming the file, if it cannot be locked, read or written (then it is unchanged)
     */
    public ClientRegistration registerIfAbsent(ClientRegistration registration) {
        return call(s -> s.registerIfAbsent(registration));
    }

    /**
     * Grants the refresh lease of a resource and issuer unless another holder's runs (under the file lock; kept in
     * the file, so the processes sharing it exclude each other; times on this machine's clock).
     *
     * @param resource the resource
     * @param issuer   the issuer
     * @param holder   the holder
     * @param length   the length, positive
     * @return the lease, or empty
     * @throws IllegalArgumentException if {@code holder} is blank or {@code length} is not positive or over a year
     * @throws UncheckedIOException     naming the file, if it cannot be locked, read or written
     */
    public Optional<RefreshLease> leaseRefresh(String resource, String issuer, String holder, Duration length) {
        StoreState.checkLeaseRequest(holder, length); // a caller's mistake, not the file's
        return call(s -> s.leaseRefresh(resource, issuer, holder, length));
    }

    /**
     * Ends a lease if it is the latest grant of its key (under the file lock).
     *
     * @param lease the lease
     * @return whether it was ended
     * @throws UncheckedIOException naming the file, if it cannot be locked, read or written
     */
    public boolean releaseRefresh(RefreshLease lease) {
        return call(s -> s.releaseRefresh(lease));
    }

    /**
     * Replaces tokens while {@code lease} is the latest grant of its key (under the file lock).
     *
     * @param lease    the caller's lease
     * @param expected the tokens the caller holds
     * @param fresh    the tokens to store instead
     * @return whether they were replaced
     * @throws IllegalArgumentException if a token set is from another issuer than the lease's
     * @throws UncheckedIOException     naming the file, if it cannot be locked, read or written
     */
    public boolean replaceTokens(RefreshLease lease, TokenSet expected, TokenSet fresh) {
        if (!lease.issuer().equals(expected.issuer()) || !expected.issuer().equals(fresh.issuer())) {
            throw new IllegalArgumentException("the tokens are from another issuer than the lease's");
        }
        return call(s -> s.replaceTokens(lease, expected, fresh));
    }

    private <T> T call(Function<StoreState, T> op) {
        try {
            return locked(op);
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        }
    }

    /** Locks, reads, applies {@code op} and writes the file when its content changed. */
    private <T> T locked(Function<StoreState, T> op) throws IOException {
        long deadline = System.nanoTime() + lockTimeout.toNanos();
        try {
            if (!lock.tryLock(lockTimeout.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new IOException("the token store " + file + " is busy in this process for more than "
                        + lockTimeout.toMillis() + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("the token store " + file + " cannot be used: the thread was interrupted", e);
        }
        try (FileChannel lockChannel = openOwnerOnly(lockFile, EnumSet.of(StandardOpenOption.CREATE,
                StandardOpenOption.WRITE))) {
            fileLock(lockChannel, deadline); // released when the channel closes
            byte[] before = read();
            StoreState state = StoreFile.read(before); // IllegalArgumentException: not a token store
            T result = op.apply(state);
            byte[] after = StoreFile.write(state);
            if (!Arrays.equals(before, after)) {
                write(after);
            }
            return result;
        } catch (IllegalArgumentException e) {
            // the message names what is wrong, never content; the parser's exception is not kept as the cause
            throw new IOException("the token store " + file + " cannot be used: " + e.getMessage()
                    + "; it is left as is (remove it to start afresh)");
        } catch (IOException e) {
            throw new IOException("the token store " + file + " cannot be used: " + describe(e), e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes the exclusive lock of the lock file, polling ({@link FileChannel#tryLock()} never blocks in native code,
     * so a virtual thread waits without holding its carrier), until {@code deadline}.
     */
    private void fileLock(FileChannel ch, long deadline) throws IOException {
        long pause = 1;
        while (ch.tryLock() == null) {
            if (System.nanoTime() - deadline >= 0) {
                throw new IOException("another process holds the lock file " + lockFile + " for more than "
                        + lockTimeout.toMillis() + " ms");
            }
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for the lock");
            }
            pause = Math.min(pause * 2, MAX_LOCK_PAUSE_MILLIS);
        }
    }

    private byte[] read() throws IOException {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return new byte[0];
        }
    }

    private void write(byte[] bytes) throws IOException {
        Files.deleteIfExists(temp); // left by a crash: recreated so that its permissions are ours
        try (FileChannel ch = openOwnerOnly(temp, EnumSet.of(StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE))) {
            ByteBuffer buf = ByteBuffer.wrap(bytes);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ch.force(true);
        }
        try {
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.deleteIfExists(temp);
            throw new IOException("its file system cannot replace a file atomically", e);
        }
        forceDirectory();
    }

    /** Opens a file, creating it owner-only when missing. */
    private FileChannel openOwnerOnly(Path p, Set<? extends OpenOption> options) throws IOException {
        if (posix) {
            return FileChannel.open(p, options, PosixFilePermissions.asFileAttribute(OWNER_FILE));
        }
        boolean existed = Files.exists(p);
        FileChannel ch = FileChannel.open(p, options, new FileAttribute<?>[0]);
        if (!existed) {
            try {
                ownerOnlyAcl(p);
            } catch (IOException e) {
                ch.close();
                throw e;
            }
        }
        return ch;
    }

    /** On a file system with ACLs (Windows): grants the owner alone full access. Does nothing without ACLs. */
    private static void ownerOnlyAcl(Path p) throws IOException {
        AclFileAttributeView view = Files.getFileAttributeView(p, AclFileAttributeView.class);
        if (view == null) {
            return;
        }
        AclEntry owner = AclEntry.newBuilder().setType(AclEntryType.ALLOW).setPrincipal(view.getOwner())
                .setPermissions(EnumSet.allOf(AclEntryPermission.class)).build();
        view.setAcl(List.of(owner));
    }

    /** Makes the rename durable where the platform allows opening a directory (Linux, macOS). */
    private void forceDirectory() {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            LOG.log(System.Logger.Level.TRACE, () -> "cannot force the directory " + dir + ": " + e);
        }
    }

    /**
     * What an I/O failure was: an interruption, one of ours (its message), or the JDK's type and message (paths and
     * reasons; file content never).
     */
    private static String describe(IOException e) {
        if (e instanceof ClosedByInterruptException || e instanceof InterruptedIOException) {
            return "the thread was interrupted";
        }
        String m = e.getMessage();
        if (e.getClass() == IOException.class && m != null) {
            return m;
        }
        return e.getClass().getSimpleName() + (m == null ? "" : " (" + m + ")");
    }

    @Override
    public String toString() {
        return "FileStore[" + file + "]";
    }
}
