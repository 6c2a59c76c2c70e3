package dev.loommcp;

import org.jspecify.annotations.Nullable;

/**
 * The client was closed: a call in flight when {@link McpClient#close()} ran, every later call, and every call on a
 * revoked {@link McpTool} fails with this exception. When the client was closed because its transport died, the
 * transport's failure is the cause.
 */
public final class McpClosedException extends McpException {
    /**
     * Creates the exception.
     *
     * @param message what was refused
     * @param cause   why the client closed, or {@code null} when it was closed by its owner
     */
    public McpClosedException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
