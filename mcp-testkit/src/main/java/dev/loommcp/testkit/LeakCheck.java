package dev.loommcp.testkit;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit extension that fails a test which leaves an {@code mcp-} thread or a child process of this JVM behind.
 * Threads and processes that existed before the test are ignored. Use with
 * {@code @ExtendWith(LeakCheck.class)}.
 *
 * <p>After the test it waits (up to {@link #GRACE_MILLIS}) for threads and processes to go, since a closed client
 * may still be unwinding a thread that is already told to stop; anything left then fails the test, listed by name.
 */
public final class LeakCheck implements BeforeEachCallback, AfterEachCallback {

    /** How long to wait for leftovers to go away, in milliseconds. */
    public static final long GRACE_MILLIS = 10_000;

    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(LeakCheck.class);

    /** Creates the extension (JUnit does this). */
    public LeakCheck() {
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        context.getStore(NS).put("threads", mcpThreads().stream().map(Thread::threadId).collect(Collectors.toSet()));
        context.getStore(NS).put("procs", descendants().stream().map(ProcessHandle::pid).collect(Collectors.toSet()));
    }

    @Override
    @SuppressWarnings("unchecked")
    public void afterEach(ExtensionContext context) throws Exception {
        Set<Long> threadsBefore = context.getStore(NS).get("threads", Set.class);
        Set<Long> procsBefore = context.getStore(NS).get("procs", Set.class);
        assertNoLeaks(threadsBefore, procsBefore);
    }

    /**
     * Waits up to {@link #GRACE_MILLIS} for every {@code mcp-} thread and child process not in the given sets to go,
     * then fails with the names of those left.
     *
     * @param threadsBefore ids of threads to ignore
     * @param procsBefore   pids of processes to ignore
     * @throws InterruptedException if interrupted while waiting
     */
    public static void assertNoLeaks(Set<Long> threadsBefore, Set<Long> procsBefore) throws InterruptedException {
        long end = System.nanoTime() + GRACE_MILLIS * 1_000_000;
        List<Thread> threads;
        List<ProcessHandle> procs;
        while (true) {
            threads = mcpThreads().stream().filter(t -> !threadsBefore.contains(t.threadId())).toList();
            procs = descendants().stream().filter(p -> !procsBefore.contains(p.pid())).toList();
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

    /**
     * Returns the live threads (platform and virtual) whose names start with {@code mcp-}.
     *
     * @return the threads
     */
    public static List<Thread> mcpThreads() {
        return Threads.all().stream().filter(t -> t.getName().startsWith("mcp-") && t.isAlive()).toList();
    }

    /**
     * Returns every live descendant process of this JVM.
     *
     * @return the processes
     */
    public static List<ProcessHandle> descendants() {
        return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList();
    }
}
