package dev.loommcp.testing;

import dev.loommcp.internal.concurrent.McpThreads;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The mcp-core equivalent of {@code dev.loommcp.testing.LeakCheck} (which core cannot depend on): fails a test that
 * leaves a thread created through {@link McpThreads} alive, including a thread that was created and never started.
 * Threads that were live before the test are ignored. Waits up to {@link #GRACE} for threads that are already told to
 * stop.
 *
 * <p>Register it as an instance field ({@code @RegisterExtension final McpThreadLeakCheck leaks = new
 * McpThreadLeakCheck();}): this test-only package is not opened to JUnit, so it cannot be instantiated reflectively.
 */
public final class McpThreadLeakCheck implements BeforeEachCallback, AfterEachCallback {

    /** How long leftovers may take to go away. */
    public static final Duration GRACE = Duration.ofSeconds(10);

    private Set<Long> before = Set.of();

    /** Creates the extension. */
    public McpThreadLeakCheck() {
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        before = snapshot();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        assertNoNewThreads(before);
    }

    /**
     * Returns the ids of the live tracked threads.
     *
     * @return the ids
     */
    public static Set<Long> snapshot() {
        return McpThreads.live().stream().map(Thread::threadId).collect(Collectors.toCollection(HashSet::new));
    }

    /**
     * Waits up to {@link #GRACE} until no tracked thread outside {@code before} is live, else fails naming them.
     *
     * @param before ids to ignore
     */
    public static void assertNoNewThreads(Set<Long> before) {
        long end = System.nanoTime() + GRACE.toNanos();
        List<Thread> left;
        while (true) {
            left = McpThreads.live().stream().filter(t -> !before.contains(t.threadId())).toList();
            if (left.isEmpty()) {
                return;
            }
            if (System.nanoTime() - end > 0) {
                break;
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new AssertionError("mcp- threads left behind: " + left.stream()
                .map(t -> t.getName() + " (" + t.getState() + ")").collect(Collectors.joining(", ")));
    }

    /**
     * Returns the live tracked threads whose name starts with {@code mcp-<purpose>-}.
     *
     * @param purpose the purpose part of the name, for example {@code handler}
     * @return the threads
     */
    public static List<Thread> live(String purpose) {
        return McpThreads.live().stream().filter(t -> t.getName().startsWith("mcp-" + purpose + "-")).toList();
    }

    /**
     * Returns the live tracked threads named {@code mcp-<purpose>-} that were not live at {@code before}.
     *
     * @param before  a {@link #snapshot()}
     * @param purpose the purpose part of the name
     * @return the threads
     */
    public static List<Thread> liveSince(Set<Long> before, String purpose) {
        return live(purpose).stream().filter(t -> !before.contains(t.threadId())).toList();
    }
}
