package dev.loommcp.internal.session.era;

import dev.loommcp.config.Era;
import dev.loommcp.internal.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The era verdicts of {@code ProtocolMode.AUTO} kept in a small file, so that a program that starts a new JVM for
 * each connect (the CLI) does not probe a server again on every run (MCP 2026-07-28 "Versioning": clients MAY
 * persist the decision and re-probe when it fails). One JSON object:
 * {@code {"version":1,"verdicts":{"<hex SHA-256 of the server key>":{"era":"legacy","at":<epoch millis>}}}}. The
 * server key ({@code McpTransport.serverKey()}: stdio command line, arguments, directory and environment; HTTP
 * endpoint) is stored only as a digest, so no argument, URL or environment value reaches the disk. An entry older
 * than the time to live is ignored and pruned; at most {@link #MAX_ENTRIES} entries are kept (the oldest go).
 *
 * <p>The directory is created owner-only ({@code rwx------} where the file system has POSIX permissions) and the
 * file is written owner-only ({@code rw-------}) to a temporary file that then replaces it, so a reader never sees
 * half a file. A file that cannot be read, is larger than {@link #MAX_BYTES} or is not what this class writes is
 * ignored (logged at DEBUG) and replaced at the next write; a failed write is logged at DEBUG: the cache only saves
 * a probe, it never fails a connect. Two JVMs writing at once may lose one of their entries (the last write wins).
 * Thread-safe: reads and writes of one JVM are serialised by one lock.
 */
public final class EraVerdictFile {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");

    /** The most entries kept. */
    static final int MAX_ENTRIES = 256;
    /** The largest file read; a larger one is ignored. */
    static final int MAX_BYTES = 256 * 1024;
    /** The file name under the cache directory. */
    static final String FILE_NAME = "era-verdicts.json";

    private static final ReentrantLock LOCK = new ReentrantLock();

    private final Path file;
    private final Duration ttl;

    /**
     * @param file the file
     * @param ttl  how long a verdict is used; positive
     * @throws NullPointerException     if an argument is {@code null}
     * @throws IllegalArgumentException if {@code ttl} is not positive
     */
    public EraVerdictFile(Path file, Duration ttl) {
        this.file = Objects.requireNonNull(file, "file");
        Objects.requireNonNull(ttl, "ttl");
        if (ttl.isZero() || ttl.isNegative()) {
            throw new IllegalArgumentException("the era verdict time to live must be positive: " + ttl);
        }
        this.ttl = ttl;
    }

    /** Returns the file. */
    public Path file() {
        return file;
    }

    /** Returns the time to live of a verdict. */
    public Duration ttl() {
        return ttl;
    }

    /**
     * Returns the default file: {@code $XDG_CACHE_HOME/loom-mcp/era-verdicts.json} when {@code XDG_CACHE_HOME} is
     * an absolute path, else {@code <home>/.cache/loom-mcp/era-verdicts.json}.
     *
     * @param env  the environment
     * @param home the user's home directory
     * @return the file
     */
    public static Path defaultFile(Map<String, String> env, Path home) {
        String xdg = env.get("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute() ? Path.of(xdg)
                : home.resolve(".cache");
        return base.resolve("loom-mcp").resolve(FILE_NAME);
    }

    /**
     * Returns the era kept for {@code serverKey}, or {@code null} (none, expired, {@code null} key, or an unreadable
     * file).
     */
    Era get(String serverKey) {
        if (serverKey == null) {
            return null;
        }
        LOCK.lock();
        try {
            Object entry = read().get(digest(serverKey));
            if (entry instanceof Map<?, ?> m && m.get("era") instanceof String era
                    && m.get("at") instanceof Number at && fresh(at.longValue())) {
                return switch (era) {
                    case "legacy" -> Era.LEGACY;
                    case "modern" -> Era.MODERN;
                    default -> null;
                };
            }
            return null;
        } finally {
            LOCK.unlock();
        }
    }

    /** Keeps {@code era} for {@code serverKey}; nothing for a {@code null} key. */
    void put(String serverKey, Era era) {
        update(serverKey, era);
    }

    /** Forgets the verdict for {@code serverKey} (it failed). */
    void drop(String serverKey) {
        update(serverKey, null);
    }

    private void update(String serverKey, Era era) {
        if (serverKey == null) {
            return;
        }
        LOCK.lock();
        try {
            Map<String, Object> verdicts = new LinkedHashMap<>();
            read().forEach((k, v) -> {
                if (v instanceof Map<?, ?> m && m.get("at") instanceof Number at && fresh(at.longValue())) {
                    verdicts.put(k, v);
                }
            });
            String key = digest(serverKey);
            if (verdicts.remove(key) == null && era == null) {
                return; // nothing to forget
            }
            if (era != null) {
                while (verdicts.size() >= MAX_ENTRIES) {
                    verdicts.remove(verdicts.keySet().iterator().next()); // the oldest write goes first
                }
                verdicts.put(key, Map.of("era", era.name().toLowerCase(Locale.ROOT),
                        "at", System.currentTimeMillis()));
            }
            write(Map.of("version", 1, "verdicts", verdicts));
        } finally {
            LOCK.unlock();
        }
    }

    private boolean fresh(long at) {
        long age = System.currentTimeMillis() - at;
        return age >= 0 && age < ttl.toMillis();
    }

    /** The verdicts in the file, or an empty map when there is none or it is not usable (logged at DEBUG). */
    private Map<String, Object> read() {
        if (!Files.isRegularFile(file)) {
            return Map.of();
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes(MAX_BYTES + 1);
            if (bytes.length > MAX_BYTES) {
                LOG.log(System.Logger.Level.DEBUG, () -> "era verdict cache " + file + " is larger than "
                        + MAX_BYTES + " bytes: ignored");
                return Map.of();
            }
            Object tree = Json.read(new String(bytes, StandardCharsets.UTF_8));
            if (tree instanceof Map<?, ?> root && Integer.valueOf(1).equals(asInt(root.get("version")))
                    && root.get("verdicts") instanceof Map<?, ?> verdicts) {
                Map<String, Object> out = new LinkedHashMap<>();
                verdicts.forEach((k, v) -> out.put(String.valueOf(k), v));
                return out;
            }
            LOG.log(System.Logger.Level.DEBUG, () -> "era verdict cache " + file + " is not a verdict file: ignored");
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "era verdict cache " + file + " is not readable ("
                    + e.getClass().getSimpleName() + "): ignored");
        }
        return Map.of();
    }

    private static Integer asInt(Object o) {
        return o instanceof Number n && n.doubleValue() == n.intValue() ? n.intValue() : null;
    }

    private void write(Map<String, Object> content) {
        Path dir = file.toAbsolutePath().getParent();
        boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
        Path tmp = null;
        try {
            if (!Files.isDirectory(dir)) {
                if (posix) {
                    Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(
                            PosixFilePermissions.fromString("rwx------")));
                } else {
                    Files.createDirectories(dir);
                }
            }
            tmp = posix ? Files.createTempFile(dir, ".era-verdicts", ".tmp", PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rw-------"))) : Files.createTempFile(dir, ".era-verdicts", ".tmp");
            Files.writeString(tmp, Json.write(content));
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            tmp = null;
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "era verdict cache " + file + " not written ("
                    + e.getClass().getSimpleName() + ")");
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // best effort: a stray temporary file is harmless
                }
            }
        }
    }

    /** The hex SHA-256 of the key: the file never holds a command line, URL or environment value. */
    private static String digest(String serverKey) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(serverKey.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from the JDK", e);
        }
    }
}
