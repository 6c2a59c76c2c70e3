package dev.loommcp;

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
    public McpTransportException(String message, Throwable cause) {
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
}
