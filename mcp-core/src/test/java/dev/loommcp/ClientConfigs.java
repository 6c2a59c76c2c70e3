package dev.loommcp;

import dev.loommcp.internal.session.config.SessionConfig;

/** Lets the core's internal tests build a session's configuration with the public builder (its one source). */
public final class ClientConfigs {

    private ClientConfigs() {
    }

    /**
     * Returns the configuration the builder would give its client.
     *
     * @param builder the builder
     * @return its settings as a session takes them
     */
    public static SessionConfig of(McpClient.Builder builder) {
        return builder.config();
    }
}
