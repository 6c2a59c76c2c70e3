package dev.loommcp.testing;

import dev.loommcp.internal.concurrent.McpThreads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit (5 or later) extension that fails a test which leaves a loom-mcp thread (a thread whose name starts with
 * {@code mcp-}, platform or virtual) or a child process of this JVM behind. Threads and processes that existed before
 * the test are ignored. Use with {@code @ExtendWith(LeakCheck.class)} on the test class.
 *
 * <p>After each test it waits up to {@link #GRACE} for new threads and processes to end, since a closed client may
 * still be unwinding a thread that was already told to stop; anything left then fails the test, listed by name and
 * state. Leftover processes are killed forcibly before the failure is thrown.
 *
 * <p>Without JUnit, call {@link #snapshot()} before and {@link Snapshot#assertNoLeaks()} after the code under test.
 *
 * <p>Virtual threads are seen only if loom-mcp started them (it tracks them; the JDK does not list virtual threads).
 * Thread-safe; one instance may serve tests running in parallel, but a leak of a parallel test may then be reported
 * by another.
 */
@SuppressWarnings("exports") // JUnit is an optional (static) dependency: only users of this extension need it
public final class LeakCheck implements BeforeEachCallback, AfterEachCallback {

    /** How long {@link Snapshot#assertNoLeaks()} waits for leftovers to end: 10 seconds. */
    public static final Duration GRACE = Duration.ofSeconds(10);

    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(LeakCheck.class);

    /** Creates the extension (JUnit does this). */
    public LeakCheck() {
    }

    /**
     * Takes a {@link #snapshot()} before the test.
     *
     * @param context the test's context
     */
    @Override
    public void beforeEach(ExtensionContext context) {
        context.getStore(NS).put("snapshot", snapshot());
    }

    /**
     * Fails the test if it left threads or processes behind (see {@link Snapshot#assertNoLeaks()}).
     *
     * @param context the test's context
     * @throws AssertionError       naming what was left
     * @throws InterruptedException if interrupted while waiting
     */
    @Override
    public void afterEach(ExtensionContext context) throws InterruptedException {
        Snapshot before = context.getStore(NS).get("snapshot", Snapshot.class);
        if (before != null) {
            before.assertNoLeaks();
        }
    }

    /**
     * Records the loom-mcp threads and child processes alive now.
     *
     * @return the snapshot
     */
    public static Snapshot snapshot() {
        return new Snapshot(mcpThreads().stream().map(Thread::threadId).collect(Collectors.toSet()),
                descendants().stream().map(ProcessHandle::pid).collect(Collectors.toSet()));
    }

    /**
     * The loom-mcp threads and child processes alive at one moment.
     *
     * @param threadIds ids of the threads
     * @param pids      pids of the processes
     */
    public record Snapshot(Set<Long> threadIds, Set<Long> pids) {

        /**
         * Copies the sets.
         *
         * @throws NullPointerException if a set is {@code null}
         */
        public Snapshot {
            threadIds = Set.copyOf(threadIds);
            pids = Set.copyOf(pids);
        }

        /**
         * Waits up to {@link #GRACE} for every loom-mcp thread and child process not in this snapshot to end, then
         * fails with the names of those left (killing the processes).
         *
         * @throws AssertionError       if anything is left
         * @throws InterruptedException if interrupted while waiting
         */
        public void assertNoLeaks() throws InterruptedException {
            long end = System.nanoTime() + GRACE.toNanos();
            List<Thread> threads;
            List<ProcessHandle> procs;
            while (true) {
                threads = mcpThreads().stream().filter(t -> !threadIds.contains(t.threadId())).toList();
                procs = descendants().stream().filter(p -> !pids.contains(p.pid())).toList();
                if ((threads.isEmpty() && procs.isEmpty()) || System.nanoTime() > end) {
                    break;
                }
                Thread.sleep(20);
            }
            StringBuilder sb = new StringBuilder();
            if (!threads.isEmpty()) {
                sb.append("leaked threads: ");
                for (Thread t : threads) {
                    sb.append(t.getName()).append(" (").append(t.getState()).append(") ");
                }
            }
            if (!procs.isEmpty()) {
                sb.append("leaked processes: ");
                for (ProcessHandle p : procs) {
                    sb.append(p.pid()).append(' ').append(p.info().command().orElse("?")).append(' ');
                    p.destroyForcibly();
                }
            }
            if (!sb.isEmpty()) {
                throw new AssertionError(sb.toString().trim());
            }
        }
    }

    /**
     * Returns the live threads, platform and (loom-mcp-started) virtual, whose names start with {@code mcp-}.
     *
     * @return a new list
     */
    public static List<Thread> mcpThreads() {
        List<Thread> all = new ArrayList<>(Thread.getAllStackTraces().keySet());
        all.addAll(McpThreads.live());
        return all.stream().filter(t -> t.getName().startsWith("mcp-") && t.isAlive()).distinct().toList();
    }

    /**
     * Returns every live descendant process of this JVM.
     *
     * @return a new list
     */
    public static List<ProcessHandle> descendants() {
        return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList();
    }
}
