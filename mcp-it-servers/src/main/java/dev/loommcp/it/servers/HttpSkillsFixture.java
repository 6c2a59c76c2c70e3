package dev.loommcp.it.servers;

import java.io.IOException;
import java.net.URI;

/**
 * The skills fixture ({@link SkillsFixture}) over HTTP on an ephemeral port of 127.0.0.1, for a test class: one
 * process serves every client of the class (its read counters are shared: {@code fixture/reset} zeroes them).
 * {@link #close()} ends it and its children.
 */
public final class HttpSkillsFixture implements AutoCloseable {

    private final AnnouncedEndpoint server;

    /**
     * Starts the fixture and waits (up to 30 s) until it prints its endpoint.
     *
     * @param flags extra flags of the script (see {@link SkillsFixture})
     * @throws IOException           if it cannot be started
     * @throws IllegalStateException if the script is missing, or it exits or does not listen in time
     * @throws InterruptedException  if interrupted while waiting
     */
    public HttpSkillsFixture(String... flags) throws IOException, InterruptedException {
        server = new AnnouncedEndpoint("skills-fixture", SkillsFixture.httpCommand(flags));
    }

    /**
     * Returns the MCP endpoint.
     *
     * @return {@code http://127.0.0.1:<port>/mcp}
     */
    public URI endpoint() {
        return server.endpoint();
    }

    /** Ends the server and its children, bounded (TERM, 5 s, KILL, 5 s). */
    @Override
    public void close() {
        server.close();
    }
}
