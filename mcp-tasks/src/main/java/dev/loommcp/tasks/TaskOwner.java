package dev.loommcp.tasks;

import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Who drives a recorded task ({@link TaskRecord#owner()}): {@code <instance id>@<pid>@<process start, epoch ms or
 * ->}. An owner is alive while its process runs (the same pid and, where the platform tells, the same start time: a
 * reused pid is another process) and, for an owner in this JVM, while its {@link McpTasks} is installed on a client
 * that has not closed. Owners are compared on one machine only: a store shared over a network file system between
 * machines cannot tell another machine's processes. Stateless apart from the set of live instances of this JVM;
 * thread-safe.
 */
final class TaskOwner {

    /** Two start times of one process read apart agree within this (the platform computes them from ticks). */
    private static final long START_TOLERANCE_MILLIS = 1000;
    /** The {@link McpTasks} instances of this JVM installed on a client that is not closed. */
    private static final Set<String> LIVE = ConcurrentHashMap.newKeySet();
    private static final long PID = ProcessHandle.current().pid();
    private static final String START = startOf(ProcessHandle.current());

    private TaskOwner() {
    }

    /** The owner string of an instance of this process. */
    static String of(String instanceId) {
        return instanceId + "@" + PID + "@" + START;
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
     * Whether an owner is alive: its process runs (same start time where known) and, in this process, its instance
     * is live. {@code null} or an owner this version cannot read is not alive (its record may be taken over).
     */
    static boolean alive(String owner) {
        if (owner == null) {
            return false;
        }
        String[] parts = owner.split("@", -1);
        if (parts.length != 3) {
            return false;
        }
        long pid;
        try {
            pid = Long.parseLong(parts[1]);
        } catch (NumberFormatException e) {
            return false;
        }
        if (pid == PID && sameStart(parts[2], START)) {
            return LIVE.contains(parts[0]);
        }
        Optional<ProcessHandle> p = ProcessHandle.of(pid);
        return p.isPresent() && p.get().isAlive() && sameStart(parts[2], startOf(p.get()));
    }

    /**
     * Whether {@code owner} has the form of an owner id this class makes ({@code <id>@<pid>@<start>}), so that
     * {@link #alive} can look its process up; a replica id chosen by the application ({@code McpTasks.Builder.owner})
     * usually has not, and only its lease end tells whether it still drives its tasks.
     */
    static boolean isLocalProcessId(@Nullable String owner) {
        if (owner == null) {
            return false;
        }
        String[] parts = owner.split("@", -1);
        if (parts.length != 3 || parts[1].isEmpty() || !parts[1].chars().allMatch(Character::isDigit)) {
            return false;
        }
        return parts[2].equals("-") || !parts[2].isEmpty() && parts[2].chars().allMatch(Character::isDigit);
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
