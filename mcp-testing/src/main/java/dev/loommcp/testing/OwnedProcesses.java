package dev.loommcp.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit (5 or later) extension that owns the processes a test starts or learns of (a child, a grandchild whose pid a
 * script printed, a whole process tree) and makes sure none outlives the test: after each test it waits up to
 * {@link #GRACE} for every owned process and every descendant of one to end, then kills those left, whole trees, and
 * fails the test naming each killed process (pid and command). A test that cleans up after itself therefore passes, and
 * one that leaves a process behind fails without leaving it running for the next test. Register it as a field:
 *
 * <pre>{@code
 * @RegisterExtension final OwnedProcesses processes = new OwnedProcesses();
 *
 * @Test void serverEndsWithItsClient() throws Exception {
 *     Process server = processes.start(new ProcessBuilder("node", "server.js"));
 *     long grandchild = ...;            // printed by the server
 *     processes.own(grandchild);        // an orphan is no descendant of this JVM any more: own it by pid
 *     ...
 * }
 * }</pre>
 *
 * <p>Descendants are collected when a process is owned and again after the test, so a grandchild is found even when
 * its parent exited meanwhile (as long as it was started before it was owned, or its parent is still alive). It goes
 * with {@link LeakCheck}, which sees only the descendants of this JVM: an orphan (a grandchild whose parent exited) is
 * none, and only an owner that was told its pid can end it. A zombie (ended, not yet reaped by its parent) counts as
 * ended. Thread-safe: processes may be owned from any thread.
 */
@SuppressWarnings("exports") // JUnit is an optional (static) dependency: only users of this extension need it
public final class OwnedProcesses implements AfterEachCallback {

    /** How long the owned processes may take to end after the test before they are killed: 10 seconds. */
    public static final Duration GRACE = Duration.ofSeconds(10);

    private static final Duration POLL = Duration.ofMillis(20);

    private final ReentrantLock lock = new ReentrantLock();
    private final Map<Long, ProcessHandle> owned = new LinkedHashMap<>();

    /** Creates the extension, to be held in a {@code @RegisterExtension} field. */
    public OwnedProcesses() {
    }

    /**
     * Starts a process and owns it (and its descendants).
     *
     * @param builder the process to start
     * @return the started process
     * @throws IOException          as {@link ProcessBuilder#start()}
     * @throws NullPointerException if {@code builder} is {@code null}
     */
    public Process start(ProcessBuilder builder) throws IOException {
        Process p = Objects.requireNonNull(builder, "builder").start();
        own(p.toHandle());
        return p;
    }

    /**
     * Owns a process and its current descendants.
     *
     * @param process the process
     * @return {@code process}
     * @throws NullPointerException     if {@code process} is {@code null}
     * @throws IllegalArgumentException if {@code process} is this JVM or one of its ancestors
     */
    public Process own(Process process) {
        own(Objects.requireNonNull(process, "process").toHandle());
        return process;
    }

    /**
     * Owns a process, by pid, and its current descendants; a pid of no live process is ignored (it already ended).
     *
     * @param pid the process id
     * @throws IllegalArgumentException if {@code pid} is not positive, or is the pid of this JVM or of one of its
     *                                  ancestors (killing it after the test would end the test run)
     */
    public void own(long pid) {
        if (pid <= 0) {
            throw new IllegalArgumentException("pid must be positive: " + pid);
        }
        refuseThisJvmOrAncestor(pid);
        ProcessHandle.of(pid).ifPresent(this::own);
    }

    /**
     * Owns a process and its current descendants.
     *
     * @param process the process
     * @throws NullPointerException     if {@code process} is {@code null}
     * @throws IllegalArgumentException if {@code process} is this JVM or one of its ancestors (killing it after the
     *                                  test would end the test run)
     */
    public void own(ProcessHandle process) {
        Objects.requireNonNull(process, "process");
        refuseThisJvmOrAncestor(process.pid());
        lock.lock();
        try {
            owned.putIfAbsent(process.pid(), process);
            process.descendants().forEach(d -> owned.putIfAbsent(d.pid(), d));
        } finally {
            lock.unlock();
        }
    }

    /**
     * Returns the owned processes still running and their live descendants (also those started after the owning),
     * that is what {@link #afterEach} would kill now, without waiting. A zombie (ended, waiting for its parent to
     * reap it) counts as ended.
     *
     * @return a new list, in the order they were owned, each process followed by its descendants
     */
    public List<ProcessHandle> alive() {
        return withDescendants(snapshot()).stream().filter(OwnedProcesses::running).toList();
    }

    /** Refuses this JVM and its ancestors: destroying one would end the test run, not a leftover of the test. */
    private static void refuseThisJvmOrAncestor(long pid) {
        ProcessHandle self = ProcessHandle.current();
        if (pid == self.pid()) {
            throw new IllegalArgumentException("pid " + pid + " is this JVM, which runs the tests: it cannot be owned");
        }
        for (var p = self.parent(); p.isPresent(); p = p.get().parent()) {
            if (p.get().pid() == pid) {
                throw new IllegalArgumentException("pid " + pid
                        + " is an ancestor of this JVM, which runs the tests: it cannot be owned");
            }
        }
    }

    /**
     * Waits up to {@link #GRACE} for every owned process and its descendants to end, kills the whole trees of those
     * left (children first), forgets them all, and fails the test if any had to be killed. If the waiting thread is
     * interrupted it stops waiting, kills what is left and keeps its interrupt status.
     *
     * @param context the test's context (not used)
     * @throws AssertionError naming each process that had to be killed
     */
    @Override
    public void afterEach(ExtensionContext context) {
        boolean interrupted = false;
        Map<Long, ProcessHandle> tree = new LinkedHashMap<>();
        List<ProcessHandle> left;
        long end = System.nanoTime() + GRACE.toNanos();
        while (true) {
            // again each round: a process still running may have started another meanwhile
            withDescendants(snapshot()).forEach(p -> tree.putIfAbsent(p.pid(), p));
            left = withDescendants(List.copyOf(tree.values())).stream().filter(OwnedProcesses::running).toList();
            if (left.isEmpty() || interrupted || System.nanoTime() - end > 0) {
                break;
            }
            try {
                Thread.sleep(POLL.toMillis()); // a process that is not our child has no exit event to block on
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        String named = left.stream().map(p -> p.pid() + " " + p.info().command().orElse("?"))
                .collect(Collectors.joining(", "));
        for (ProcessHandle p : left.reversed()) { // children first, so that no parent starts a child again
            p.destroyForcibly();
        }
        long killEnd = System.nanoTime() + GRACE.toNanos();
        while (!interrupted && left.stream().anyMatch(OwnedProcesses::running) && System.nanoTime() - killEnd < 0) {
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        lock.lock();
        try {
            owned.clear();
        } finally {
            lock.unlock();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (!left.isEmpty()) {
            throw new AssertionError("processes left behind (killed): " + named);
        }
    }

    /** Whether a process still runs: alive and no zombie (a zombie is ended; only its parent's reaping is left). */
    private static boolean running(ProcessHandle p) {
        if (!p.isAlive()) {
            return false;
        }
        Path stat = Path.of("/proc", Long.toString(p.pid()), "stat");
        if (!Files.isDirectory(Path.of("/proc/self"))) {
            return true; // no procfs: trust isAlive
        }
        try {
            String s = Files.readString(stat, StandardCharsets.US_ASCII);
            String state = s.substring(s.lastIndexOf(')') + 1).strip().split(" ")[0];
            return !state.equals("Z") && !state.equals("X");
        } catch (IOException | RuntimeException e) {
            return false; // gone meanwhile
        }
    }

    private List<ProcessHandle> snapshot() {
        lock.lock();
        try {
            return List.copyOf(owned.values());
        } finally {
            lock.unlock();
        }
    }

    /** The processes and their live descendants, parents before children, each once. */
    private static List<ProcessHandle> withDescendants(List<ProcessHandle> processes) {
        Map<Long, ProcessHandle> all = new LinkedHashMap<>();
        for (ProcessHandle p : processes) {
            all.putIfAbsent(p.pid(), p);
            p.descendants().forEach(d -> all.putIfAbsent(d.pid(), d));
        }
        return new ArrayList<>(all.values());
    }
}
