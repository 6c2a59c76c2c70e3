package dev.loommcp.it.servers;

import java.io.IOException;
import java.net.URI;

/**
 * The tasks-extension fixture ({@link TasksFixture}) over Streamable HTTP on an ephemeral port of 127.0.0.1, for a
 * test class: one process serves every client of the class, and its tasks are shared by them (any client may poll,
 * answer or cancel a task another one started). {@link #close()} ends it and its children.
 */
public final class HttpTasksFixture implements AutoCloseable {

    private final AnnouncedEndpoint server;

    /**
     * Starts the fixture and waits (up to 30 s) until it prints its endpoint, which it does once it listens.
     *
     * @param flags extra flags of the script (see {@link TasksFixture}), e.g. {@code "--poll-ms", "20"}
     * @throws IOException           if it cannot be started
     * @throws IllegalStateException if the script is missing, or it exits or does not listen in time
     * @throws InterruptedException  if interrupted while waiting
     */
    public HttpTasksFixture(String... flags) throws IOException, InterruptedException {
        server = new AnnouncedEndpoint("tasks-fixture", TasksFixture.httpCommand(flags));
    }

    /**
     * Returns the MCP endpoint.
     *
     * @return {@code http://127.0.0.1:<port>/mcp}
     */
    public URI endpoint() {
        return server.endpoint();
    }

    /**
     * Returns the port the server listens on (of 127.0.0.1).
     *
     * @return the port, chosen by the system at start
     */
    public int port() {
        return server.endpoint().getPort();
    }

    /**
     * Returns whether the server process still runs.
     *
     * @return {@code true} until it ended
     */
    public boolean isAlive() {
        return server.process().isAlive();
    }

    /** Ends the server and its children, bounded (TERM, 5 s, KILL, 5 s). */
    @Override
    public void close() {
        server.close();
    }
}
