package dev.loommcp;

/**
 * A call's deadline passed before it completed. The pending request was removed, {@code notifications/cancelled}
 * was sent where the protocol calls for it, and a late response will be dropped. The client stays usable.
 */
public final class McpTimeoutException extends McpException {
    /**
     * Creates the exception.
     *
     * @param message what timed out, naming the method and request id
     */
    public McpTimeoutException(String message) {
        super(message, null);
    }
}
