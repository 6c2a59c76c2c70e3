package dev.loommcp.spi;

import dev.loommcp.config.Era;
import dev.loommcp.schema.ServerCapabilities;
import java.util.Objects;

/**
 * What a task driver needs to know of the server its client is connected to: the era, the negotiated protocol
 * version, a stable identity and the declared capabilities. Obtained from {@link TaskChannel#server()}. Immutable.
 *
 * @param era             the era the client speaks
 * @param protocolVersion the negotiated protocol version (for example {@code 2025-11-25}); versions are dates, so they
 *                        compare as text
 * @param key             a stable identity of the server (the transport's server key: the command line of a stdio
 *                        server, the endpoint URL of an HTTP one), for a task store to re-attach tasks to the same
 *                        server after a restart
 * @param capabilities    what the server declared: in the legacy era {@code capabilities.tasks} of
 *                        {@code initialize}; in the modern era {@code capabilities.extensions} of
 *                        {@code server/discover}
 */
public record TaskServer(Era era, String protocolVersion, String key, ServerCapabilities capabilities) {

    /**
     * Checks the components.
     *
     * @throws NullPointerException if a component is {@code null}
     */
    public TaskServer {
        Objects.requireNonNull(era, "era");
        Objects.requireNonNull(protocolVersion, "protocolVersion");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(capabilities, "capabilities");
    }
}
