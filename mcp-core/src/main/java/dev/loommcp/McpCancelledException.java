package dev.loommcp;

/**
 * A call was cancelled through its {@link CancellationToken}. The pending request was removed and
 * {@code notifications/cancelled} was sent where the protocol calls for it. The client stays usable.
 */
public final class McpCancelledException extends McpException {
    /**
     * Creates the exception.
     *
     * @param message what was cancelled, naming the method and request id
     */
    public McpCancelledException(String message) {
        super(message, null);
    }
}
