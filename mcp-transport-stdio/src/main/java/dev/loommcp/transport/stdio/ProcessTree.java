package dev.loommcp.transport.stdio;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The process tree a transport owns: the child, its process group (when it was launched into one), its session (when
 * it was launched as a session leader, on Linux: members that moved to a group of their own) and every descendant
 * seen. Signals go to the whole group at once ({@code kill -SIG -- -pgid}, atomic against a process
 * forking meanwhile) and to every member still visible one by one ({@link ProcessHandle#destroy()}), so processes
 * that left the group but are still descendants are reached too.
 *
 * <p>Waiting for the child's exit goes through {@link Process#onExit()}, never {@link Process#waitFor}: the future
 * is completed by the JDK's "process reaper" thread (one platform thread per child, started by the JDK for every
 * {@link Process}), and waiting on it parks a virtual thread without holding its carrier, whereas
 * {@code waitFor} is monitor-locked on JDK 21 and would pin it.
 *
 * <p>Thread-safe: signalling and waiting may run from several threads (close, the JVM shutdown hook, the cleaner).
 */
final class ProcessTree {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.transport.stdio");
    private static final Path PROC = Path.of("/proc");
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final long EXIT_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    private final Process process;
    private final long pid;
    private final boolean grouped;
    private final boolean session;
    private final Path killCommand;
    private final Set<ProcessHandle> seen = ConcurrentHashMap.newKeySet();
    private final CompletableFuture<Process> exit;

    /**
     * @param process     the child
     * @param grouped     whether the child was launched as the leader of its own process group (pgid == pid)
     * @param session     whether it was launched as the leader of its own session too (sid == pid): members of
     *                    the session that moved to a group of their own still belong to the tree
     * @param killCommand the {@code kill} program used to signal the group, or {@code null}
     */
    ProcessTree(Process process, boolean grouped, boolean session, Path killCommand) {
        this.process = process;
        this.pid = process.pid();
        this.grouped = grouped;
        this.session = session;
        this.killCommand = killCommand;
        this.exit = process.onExit();
    }

    /**
     * Waits until the child (the leader) has exited, or the time is up.
     *
     * @param nanos how long to wait at most; {@link Long#MAX_VALUE} for no bound
     * @return {@code true} if the child has exited
     * @throws InterruptedException if interrupted
     */
    boolean awaitExit(long nanos) throws InterruptedException {
        long deadline = System.nanoTime() + nanos;
        while (true) {
            // Process.onExit() completes through a task on the common ForkJoinPool, which the application shares
            // and may saturate: look at isAlive() (set by the JDK's reaper thread itself) between waits too
            if (!process.isAlive()) {
                return true;
            }
            long left = nanos == Long.MAX_VALUE ? Long.MAX_VALUE : deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            if (awaitExit(exit, Math.min(left, EXIT_SLICE_NANOS))) {
                return true;
            }
        }
    }

    /** Waits on an {@code onExit()} future: parks, never pins a carrier. */
    private static boolean awaitExit(CompletableFuture<?> exit, long nanos) throws InterruptedException {
        try {
            if (nanos == Long.MAX_VALUE) {
                exit.get();
            } else if (nanos > 0) {
                exit.get(nanos, TimeUnit.NANOSECONDS);
            }
            return exit.isDone();
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            // onExit() never completes exceptionally
            return true;
        }
    }

    /**
     * Returns whether the child has died: exited and reaped, or (on Linux) a zombie not yet reaped by the JDK.
     *
     * @return {@code true} if the leader is dead
     */
    boolean leaderGone() {
        return !process.isAlive() || !aliveNotZombie(process.toHandle());
    }

    long pid() {
        return pid;
    }

    boolean grouped() {
        return grouped;
    }

    /** Records the child's current descendants, so that they are still reached after their parent died. */
    void remember() {
        try {
            process.descendants().forEach(seen::add);
        } catch (RuntimeException ignored) {
            // the process table can change under us; a snapshot is best effort
        }
    }

    /**
     * Returns every member of the tree still alive: the child, its descendants, the descendants seen earlier, and
     * on Linux every process whose process group (or session, when the child leads one) is the child's (found through
     * {@code /proc}).
     *
     * @return the live members (the child first when alive), never the JVM itself
     */
    List<ProcessHandle> alive() {
        Map<Long, ProcessHandle> out = new LinkedHashMap<>();
        if (process.isAlive()) {
            out.put(pid, process.toHandle());
        }
        try {
            process.descendants().forEach(h -> {
                seen.add(h);
                out.put(h.pid(), h);
            });
        } catch (RuntimeException ignored) {
            // best effort
        }
        seen.removeIf(h -> !h.isAlive());
        for (ProcessHandle h : seen) {
            out.putIfAbsent(h.pid(), h);
        }
        if (grouped && Launch.OS == Launch.Os.LINUX) {
            for (long member : membersLinux(pid, session)) {
                if (!out.containsKey(member)) {
                    ProcessHandle.of(member).ifPresent(h -> out.put(member, h));
                }
            }
        }
        out.remove(ProcessHandle.current().pid());
        out.values().removeIf(h -> h.pid() != pid && !aliveNotZombie(h));
        return new ArrayList<>(out.values());
    }

    /**
     * Sends {@code SIGTERM} ({@code force == false}) or {@code SIGKILL} to the whole tree. On Windows both end the
     * processes forcibly (there is no SIGTERM).
     *
     * @param force whether to kill rather than terminate
     */
    void signal(boolean force) {
        List<ProcessHandle> members = alive();
        if (grouped && killCommand != null && groupMayExist(members)) {
            runKill(force ? "-KILL" : "-TERM", "-" + pid);
        }
        // the leader too through its ProcessHandle, never Process.destroy(): that also closes the child's stdin
        // stream, which waits for the stream's lock; a writer blocked on the full pipe of a child that reads no more
        // holds it, so the close never returned and the SIGKILL after an ignored SIGTERM never came
        for (ProcessHandle h : members) {
            try {
                if (force) {
                    h.destroyForcibly();
                } else {
                    h.destroy();
                }
            } catch (RuntimeException e) {
                LOG.log(Level.DEBUG, () -> "cannot signal process " + h.pid() + ": " + e);
            }
        }
    }

    private boolean groupMayExist(List<ProcessHandle> members) {
        if (Launch.OS != Launch.Os.LINUX) {
            // no /proc to look at: signal the group blindly; pgid == our child's pid, which the kernel does not
            // hand to another process while a group of that id exists
            return true;
        }
        if (process.isAlive()) {
            return true;
        }
        return !groupMembersLinux(pid).isEmpty() || members.stream().anyMatch(h -> h.pid() != pid);
    }

    /**
     * Waits until no member of the tree is alive, or the deadline passes.
     *
     * @param deadlineNanos the {@link System#nanoTime()} deadline
     * @return {@code true} if the tree is gone
     * @throws InterruptedException if interrupted
     */
    boolean awaitGone(long deadlineNanos) throws InterruptedException {
        while (true) {
            List<ProcessHandle> alive = alive();
            if (alive.isEmpty()) {
                return true;
            }
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            if (alive.size() == 1 && alive.get(0).pid() == pid) {
                // only the child is left: wait on its exit event (descendants are re-checked after it)
                awaitExit(Math.min(left, TimeUnit.MILLISECONDS.toNanos(500)));
            } else {
                // other processes' exits have no event we can wait on: look again shortly
                TimeUnit.NANOSECONDS.sleep(Math.min(left, POLL_NANOS));
            }
        }
    }

    private void runKill(String signal, String target) {
        try {
            Process p = new ProcessBuilder(killCommand.toString(), signal, "--", target)
                    .redirectInput(ProcessBuilder.Redirect.from(nullFile()))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            CompletableFuture<Process> done = p.onExit();
            if (!awaitExit(done, TimeUnit.SECONDS.toNanos(2))) {
                p.destroyForcibly();
                awaitExit(done, TimeUnit.SECONDS.toNanos(1));
            }
        } catch (IOException e) {
            LOG.log(Level.DEBUG, () -> "cannot run " + killCommand + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static java.io.File nullFile() {
        return new java.io.File(Launch.windows() ? "NUL" : "/dev/null");
    }

    private static boolean aliveNotZombie(ProcessHandle h) {
        if (!h.isAlive()) {
            return false;
        }
        if (Launch.OS == Launch.Os.LINUX) {
            String[] st = statLinux(h.pid());
            return st != null && !st[0].equals("Z") && !st[0].equals("X");
        }
        return true;
    }

    /**
     * Reads {@code /proc/<pid>/stat} and returns the fields after the command name: state, ppid, pgrp, ...
     *
     * @return the fields, or {@code null} if the process is gone
     */
    static String[] statLinux(long pid) {
        try {
            String s = new String(Files.readAllBytes(PROC.resolve(Long.toString(pid)).resolve("stat")),
                    StandardCharsets.US_ASCII);
            int close = s.lastIndexOf(')');
            if (close < 0) {
                return null;
            }
            return s.substring(close + 1).strip().split(" ");
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Returns the live (not zombie) processes whose process group is {@code pgid}, from {@code /proc}.
     *
     * @param pgid the process group id
     * @return their pids
     */
    static List<Long> groupMembersLinux(long pgid) {
        return membersLinux(pgid, false);
    }

    /**
     * Returns the live (not zombie) processes whose process group is {@code id} or, with {@code session}, whose
     * session is {@code id}, from {@code /proc}.
     *
     * @param id      the process group id (and session id)
     * @param session whether members of the session count too
     * @return their pids
     */
    static List<Long> membersLinux(long id, boolean session) {
        List<Long> out = new ArrayList<>();
        String want = Long.toString(id);
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(PROC)) {
            for (Path p : ds) {
                String name = p.getFileName().toString();
                if (name.isEmpty() || !Character.isDigit(name.charAt(0))) {
                    continue;
                }
                long member;
                try {
                    member = Long.parseLong(name);
                } catch (NumberFormatException e) {
                    continue;
                }
                String[] st = statLinux(member);
                if (st != null && st.length > 3 && (st[2].equals(want) || (session && st[3].equals(want)))
                        && !st[0].equals("Z") && !st[0].equals("X")) {
                    out.add(member);
                }
            }
        } catch (IOException | RuntimeException e) {
            // no /proc: nothing found
        }
        return out;
    }
}
