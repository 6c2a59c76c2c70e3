package dev.loommcp;

import dev.loommcp.config.ProtocolMode;
import org.jspecify.annotations.Nullable;

/**
 * The transport failed: the server process exited, an HTTP request got an error status, or I/O failed. Transports
 * subclass it to carry their details (exit code and stderr tail, HTTP status). When the transport is lost for good,
 * every pending call fails at once with the same exception and the client closes itself.
 */
public non-sealed class McpTransportException extends McpException {
    /**
     * Creates the exception.
     *
     * @param message what failed
     * @param cause   the underlying cause, or {@code null}
     */
    public McpTransportException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }

    /**
     * Creates the exception.
     *
     * @param message what failed
     */
    public McpTransportException(String message) {
        super(message, null);
    }

    /**
     * Returns the HTTP status the server answered with, for a transport failure that is an HTTP error status. The
     * core reads it to tell era evidence (a 4xx other than 401/403 answering the {@code ProtocolMode.AUTO} probe)
     * from an outage or an authorization failure. Default empty; the HTTP transport's status exception overrides it.
     *
     * @return the status code, or empty when the failure was not an HTTP status
     */
    public java.util.OptionalInt httpStatus() {
        return java.util.OptionalInt.empty();
    }
}
