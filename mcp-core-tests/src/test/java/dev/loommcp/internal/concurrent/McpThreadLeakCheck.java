package dev.loommcp.internal.concurrent;

import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The core module's own leak check (core cannot depend on {@code dev.loommcp.testing}, which depends on it): fails a
 * test that leaves behind a thread listed by {@link McpThreads#live()} that was not there before it. It waits for
 * leftovers by joining them (up to {@link #GRACE_MILLIS} in all), never by sleeping.
 */
public final class McpThreadLeakCheck implements BeforeEachCallback, AfterEachCallback {

    /** How long to wait for leftover threads to end, in milliseconds. */
    public static final long GRACE_MILLIS = 10_000;

    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(McpThreadLeakCheck.class);

    /** Creates the extension (JUnit does this). */
    public McpThreadLeakCheck() {
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        context.getStore(NS).put("before", ids(McpThreads.live()));
    }

    @Override
    @SuppressWarnings("unchecked")
    public void afterEach(ExtensionContext context) throws InterruptedException {
        Set<Long> before = context.getStore(NS).get("before", Set.class);
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(GRACE_MILLIS);
        List<Thread> left = newThreads(before);
        for (Thread t : left) {
            long remaining = end - System.nanoTime();
            if (remaining > 0 && t.getState() != Thread.State.NEW) {
                t.join(TimeUnit.NANOSECONDS.toMillis(remaining) + 1);
            }
        }
        left = newThreads(before);
        if (!left.isEmpty()) {
            throw new AssertionError("leaked mcp threads: " + left.stream()
                    .map(t -> t.getName() + " (" + t.getState() + ")").collect(Collectors.joining(", ")));
        }
    }

    private static List<Thread> newThreads(Set<Long> before) {
        return McpThreads.live().stream().filter(t -> !before.contains(t.threadId())).toList();
    }

    private static Set<Long> ids(List<Thread> threads) {
        return threads.stream().map(Thread::threadId).collect(Collectors.toSet());
    }
}
