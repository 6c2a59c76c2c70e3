package dev.loommcp.testing;

import dev.loommcp.internal.concurrent.McpThreads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit (5 or later) extension that fails a test which leaves a loom-mcp thread or a child process of this JVM
 * behind. The loom-mcp threads are those whose name starts with {@code mcp-}: platform threads, and the virtual threads
 * loom-mcp started (it tracks them, the JDK does not list virtual threads), including one that was created and never
 * started. Threads and processes that existed before the test are ignored. The one leak check of loom-mcp's own tests,
 * for users' tests too: {@code @ExtendWith(LeakCheck.class)} on the test class, or a
 * {@code @RegisterExtension final LeakCheck leaks = new LeakCheck();} field.
 *
 * <p>After each test it waits up to {@link #GRACE} for new threads and processes to end (joining them, never
 * sleeping a fixed time), since a closed client may still be unwinding a thread that was already told to stop;
 * anything left then fails the test, every leftover named with its state (threads) or pid and command (processes).
 * Leftover processes are killed forcibly before the failure is thrown. Threads not named {@code mcp-} (a test's own,
 * the JDK's, a library's) are not loom-mcp's business and are not checked.
 *
 * <p>Without JUnit, or inside a test (to check one step, or to count a kind of thread), take a {@link #snapshot()}
 * before and call {@link Snapshot#assertNoLeaks()} or {@link Snapshot#newThreads(String)} after the code under test.
 *
 * <p>Thread-safe; one instance may serve tests running in parallel, but a leak of a parallel test may then be reported
 * by another.
 */
@SuppressWarnings("exports") // JUnit is an optional (static) dependency: only users of this extension need it
public final class LeakCheck implements BeforeEachCallback, AfterEachCallback {

    /** How long {@link Snapshot#assertNoLeaks()} waits for leftovers to end: 10 seconds. */
    public static final Duration GRACE = Duration.ofSeconds(10);

    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(LeakCheck.class);

    /** Creates the extension (JUnit does this, or a {@code @RegisterExtension} field). */
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
     * @throws AssertionError naming what was left
     */
    @Override
    public void afterEach(ExtensionContext context) {
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
         * Returns the loom-mcp threads alive now that were not alive at this snapshot and whose name starts with
         * {@code mcp-<purpose>-} (loom-mcp names its threads {@code mcp-<purpose>-<n>}). Does not wait.
         *
         * @param purpose the purpose part of the name, for example {@code "handler"}
         * @return a new list
         */
        public List<Thread> newThreads(String purpose) {
            return threads(purpose).stream().filter(t -> !threadIds.contains(t.threadId())).toList();
        }

        /**
         * Waits up to {@link #GRACE} for every loom-mcp thread and child process not in this snapshot to end, then
         * fails with the names of those left (killing the processes). If the waiting thread is interrupted, it stops
         * waiting, keeps its interrupt status and fails the same way when anything is left.
         *
         * @throws AssertionError if anything is left
         */
        public void assertNoLeaks() {
            long end = System.nanoTime() + GRACE.toNanos();
            boolean interrupted = false;
            List<Thread> threads = leftThreads();
            List<ProcessHandle> procs = leftProcesses();
            try {
                // join each leftover for at most what is left of the grace; a thread never started cannot be joined
                // (it is reported unless it goes away meanwhile)
                for (Thread t : threads) {
                    long left = end - System.nanoTime();
                    if (left > 0 && t.getState() != Thread.State.NEW) {
                        t.join(Duration.ofNanos(left));
                    }
                }
                for (ProcessHandle p : procs) {
                    long left = end - System.nanoTime();
                    if (left > 0) {
                        p.onExit().get(left, TimeUnit.NANOSECONDS);
                    }
                }
            } catch (InterruptedException e) {
                interrupted = true;
            } catch (ExecutionException | TimeoutException e) {
                // still alive: reported below
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            threads = leftThreads();
            procs = leftProcesses();
            StringBuilder sb = new StringBuilder();
            if (!threads.isEmpty()) {
                sb.append("leaked threads: ").append(threads.stream()
                        .map(t -> t.getName() + " (" + t.getState() + ")").collect(Collectors.joining(", ")));
            }
            if (!procs.isEmpty()) {
                sb.append(sb.isEmpty() ? "" : "; ").append("leaked processes (killed): ").append(procs.stream()
                        .map(p -> p.pid() + " " + p.info().command().orElse("?")).collect(Collectors.joining(", ")));
                procs.forEach(ProcessHandle::destroyForcibly);
            }
            if (!sb.isEmpty()) {
                throw new AssertionError(sb.toString());
            }
        }

        private List<Thread> leftThreads() {
            return mcpThreads().stream().filter(t -> !threadIds.contains(t.threadId())).toList();
        }

        private List<ProcessHandle> leftProcesses() {
            return descendants().stream().filter(p -> !pids.contains(p.pid())).toList();
        }
    }

    /**
     * Returns the loom-mcp threads that have not finished: platform threads whose names start with {@code mcp-}, and
     * the virtual threads loom-mcp created (started or not).
     *
     * @return a new list
     */
    public static List<Thread> mcpThreads() {
        List<Thread> all = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive()) {
                all.add(t);
            }
        }
        all.addAll(McpThreads.live()); // not yet terminated, including created and never started
        return all.stream().filter(t -> t.getName().startsWith("mcp-")).distinct().toList();
    }

    /**
     * Returns the loom-mcp threads that have not finished (see {@link #mcpThreads()}) whose name starts with
     * {@code mcp-<purpose>-}.
     *
     * @param purpose the purpose part of the name, for example {@code "listen"}
     * @return a new list
     */
    public static List<Thread> threads(String purpose) {
        String prefix = "mcp-" + purpose + "-";
        return mcpThreads().stream().filter(t -> t.getName().startsWith(prefix)).toList();
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
