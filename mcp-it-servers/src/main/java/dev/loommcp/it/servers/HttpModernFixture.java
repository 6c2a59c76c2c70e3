package dev.loommcp.it.servers;

import java.io.IOException;
import java.net.URI;

/**
 * The modern-era fixture ({@link ModernFixture}) over Streamable HTTP on an ephemeral port of 127.0.0.1, for a test
 * class: one process serves every client of the class (its notes and listen streams are shared by them).
 * {@link #close()} ends it and its children.
 */
public final class HttpModernFixture implements AutoCloseable {

    private final ModernFixture.Variant variant;
    private final AnnouncedEndpoint server;

    /**
     * Starts the fixture and waits (up to 30 s) until it prints its endpoint, which it does once it listens.
     *
     * @param variant dual-era or modern-only
     * @throws IOException           if it cannot be started
     * @throws IllegalStateException if it exits or does not listen in time
     * @throws InterruptedException  if interrupted while waiting
     */
    public HttpModernFixture(ModernFixture.Variant variant) throws IOException, InterruptedException {
        this.variant = variant;
        server = new AnnouncedEndpoint("modern-fixture (" + variant + ")", ModernFixture.httpCommand(variant));
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
     * Returns which variant runs.
     *
     * @return the variant
     */
    public ModernFixture.Variant variant() {
        return variant;
    }

    /** Ends the server and its children, bounded (TERM, 5 s, KILL, 5 s). */
    @Override
    public void close() {
        server.close();
    }
}
