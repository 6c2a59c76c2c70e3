package dev.loommcp.hosts;

import dev.loommcp.McpTransportException;
import org.jspecify.annotations.Nullable;

/**
 * Thrown by a registry's call to a server that is not available: it failed to start, or its restart policy gave up
 * ({@link ServerState#FAILED}). The message names the server and its state; the cause is its last failure.
 */
public final class McpServerUnavailableException extends McpTransportException {

    private static final long serialVersionUID = 1L;

    /** The server's name. */
    private final String server;

    /**
     * Creates the exception.
     *
     * @param server  the server's name
     * @param message the message
     * @param cause   the server's last failure, or {@code null}
     */
    public McpServerUnavailableException(String server, String message, @Nullable Throwable cause) {
        super(message, cause);
        this.server = server;
    }

    /**
     * Returns the name of the server that is not available.
     *
     * @return the name
     */
    public String server() {
        return server;
    }
}
