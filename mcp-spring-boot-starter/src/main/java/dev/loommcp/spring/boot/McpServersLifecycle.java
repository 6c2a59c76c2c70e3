package dev.loommcp.spring.boot;

import dev.loommcp.hosts.McpServers;
import java.util.List;
import org.springframework.context.SmartLifecycle;

/**
 * Closes the auto-configured {@link McpServers} (every process ended, every connection closed) and the OAuth
 * providers the properties made when the application context stops. Starting does nothing: the servers start when
 * first used. It stops in phase {@link #PHASE}, after the embedded web server (so requests in flight can finish
 * their tool calls) and before the singletons are destroyed.
 *
 * <p>Thread-safe.
 */
public final class McpServersLifecycle implements SmartLifecycle {

    /** The phase: {@code DEFAULT_PHASE - 4096}, below the web server's graceful shutdown and stop phases. */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

    private final McpServers servers;
    private final List<AutoCloseable> alsoClose;
    private volatile boolean running;

    McpServersLifecycle(McpServers servers, List<AutoCloseable> alsoClose) {
        this.servers = servers;
        this.alsoClose = List.copyOf(alsoClose);
    }

    /** Marks the lifecycle running; connects nothing. */
    @Override
    public void start() {
        running = true;
    }

    /**
     * Closes the registry (waiting up to its close timeout per server) and then the OAuth providers; a failure to
     * close one is logged by them and does not stop the others.
     */
    @Override
    public void stop() {
        running = false;
        try {
            servers.close();
        } finally {
            for (AutoCloseable c : alsoClose) {
                try {
                    c.close();
                } catch (Exception e) {
                    System.getLogger(McpServersLifecycle.class.getName()).log(System.Logger.Level.WARNING,
                            "closing " + c.getClass().getSimpleName() + " failed: " + e);
                }
            }
        }
    }

    /** @return whether {@link #start()} ran and {@link #stop()} did not */
    @Override
    public boolean isRunning() {
        return running;
    }

    /** @return {@link #PHASE} */
    @Override
    public int getPhase() {
        return PHASE;
    }
}
