package dev.loommcp.tasks;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Who drives a recorded task ({@link TaskRecord#owner()}): {@code <instance id>@<pid>@<process start, epoch ms or
 * ->@<host id>}. The host id names where pids can be looked up ({@link #HOST}): on Linux the kernel's boot id and this
 * process's pid namespace (two containers of one machine are two hosts), elsewhere the host name. Only an owner of
 * this host is judged by its process: it is alive while its process runs (the same pid and, where the platform
 * tells, the same start time: a reused pid is another process) and, for an owner in this JVM, while its
 * {@link McpTasks} is installed on a client that has not closed. An owner of another host (a replica on another
 * machine sharing a database), an owner id chosen by the application, or one without a host id (an earlier form)
 * cannot be looked up: it counts as alive, so only its lease end ({@link TaskRecord#leaseUntil()}) tells whether it
 * still drives its tasks. Stateless apart from the set of live instances of this JVM; thread-safe.
 */
final class TaskOwner {

    /** Two start times of one process read apart agree within this (the platform computes them from ticks). */
    private static final long START_TOLERANCE_MILLIS = 1000;
    /** The {@link McpTasks} instances of this JVM installed on a client that is not closed. */
    private static final Set<String> LIVE = ConcurrentHashMap.newKeySet();
    private static final long PID = ProcessHandle.current().pid();
    private static final String START = startOf(ProcessHandle.current());
    /** This host's id: 16 hex digits, the same for every process whose pids this process can look up. */
    static final String HOST = hostId();

    private TaskOwner() {
    }

    /** The owner string of an instance of this process. */
    static String of(String instanceId) {
        return instanceId + "@" + PID + "@" + START + "@" + HOST;
    }

    /** The instance drives tasks now (its client is connected or connecting). */
    static void live(String instanceId) {
        LIVE.add(instanceId);
    }

    /** The instance's client closed: its records may be taken over. */
    static void gone(String instanceId) {
        LIVE.remove(instanceId);
    }

    /**
     * Whether an owner is alive: {@code null} is not; an owner of this host ({@link #isLocalProcessId}) is while its
     * process runs (same start time where known) and, in this process, while its instance is live; any other owner
     * (another host's, the application's own id, an earlier form without a host) cannot be looked up and counts as
     * alive: only its lease end may free its tasks.
     */
    static boolean alive(@Nullable String owner) {
        if (owner == null) {
            return false;
        }
        if (!isLocalProcessId(owner)) {
            return true;
        }
        String[] parts = owner.split("@", -1);
        long pid;
        try {
            pid = Long.parseLong(parts[1]);
        } catch (NumberFormatException e) {
            return false; // digits beyond a long: no such process
        }
        if (pid == PID && sameStart(parts[2], START)) {
            return LIVE.contains(parts[0]);
        }
        Optional<ProcessHandle> p = ProcessHandle.of(pid);
        return p.isPresent() && p.get().isAlive() && sameStart(parts[2], startOf(p.get()));
    }

    /**
     * Whether {@code owner} has the form of an owner id this class makes ({@code <id>@<pid>@<start>@<host>}) with this
     * host's id, so that {@link #alive} can look its process up; another host's owner, a replica id chosen by the
     * application ({@code McpTasks.Builder.owner}) or an id without a host has not, and only its lease end tells
     * whether it still drives its tasks.
     */
    static boolean isLocalProcessId(@Nullable String owner) {
        if (owner == null) {
            return false;
        }
        String[] parts = owner.split("@", -1);
        if (parts.length != 4 || !parts[3].equals(HOST)
                || parts[1].isEmpty() || !parts[1].chars().allMatch(Character::isDigit)) {
            return false;
        }
        return parts[2].equals("-") || !parts[2].isEmpty() && parts[2].chars().allMatch(Character::isDigit);
    }

    /** The owner id of another instance on this host, for a process with {@code pid} started at {@code start}. */
    static String ofProcess(String instanceId, long pid, String start) {
        return instanceId + "@" + pid + "@" + start + "@" + HOST;
    }

    /**
     * This host's id: a digest of what makes pids comparable. On Linux the boot id (one per kernel boot) and the pid
     * namespace this process is in; elsewhere the host name ({@code HOSTNAME}/{@code COMPUTERNAME}, else the local
     * host's name). Read once; never blocks on the network beyond the local host's name lookup.
     */
    private static String hostId() {
        StringBuilder what = new StringBuilder();
        try {
            Path boot = Path.of("/proc/sys/kernel/random/boot_id");
            Path ns = Path.of("/proc/self/ns/pid");
            if (Files.isReadable(boot)) {
                what.append("linux:").append(Files.readString(boot).strip());
                if (Files.isSymbolicLink(ns)) {
                    what.append('/').append(Files.readSymbolicLink(ns));
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            what.setLength(0);
        }
        if (what.isEmpty()) {
            String name = System.getenv("HOSTNAME");
            if (name == null || name.isBlank()) {
                name = System.getenv("COMPUTERNAME");
            }
            if (name == null || name.isBlank()) {
                try {
                    name = java.net.InetAddress.getLocalHost().getHostName();
                } catch (java.io.IOException e) {
                    name = "unknown-" + java.util.UUID.randomUUID(); // no name: no other process is ours to judge
                }
            }
            what.append("name:").append(name);
        }
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(what.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from the JDK", e);
        }
    }

    private static boolean sameStart(String a, String b) {
        if (a.equals("-") || b.equals("-")) {
            return true; // the platform does not tell: the pid alone decides
        }
        try {
            return Math.abs(Long.parseLong(a) - Long.parseLong(b)) <= START_TOLERANCE_MILLIS;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static String startOf(ProcessHandle p) {
        return p.info().startInstant().map(Instant::toEpochMilli).map(String::valueOf).orElse("-");
    }
}
