package dev.loommcp.testkit;

import dev.loommcp.internal.concurrent.McpThreads;
import java.util.ArrayList;
import java.util.List;

/** Finds live threads, including virtual ones, which {@link Thread#getAllStackTraces()} does not list. */
final class Threads {

    private Threads() {
    }

    /**
     * Returns every live thread: platform threads, plus the virtual threads loom-mcp started (it tracks them, since
     * the JDK does not list virtual threads).
     */
    static List<Thread> all() {
        List<Thread> out = new ArrayList<>(Thread.getAllStackTraces().keySet());
        out.addAll(McpThreads.live());
        return out;
    }
}
