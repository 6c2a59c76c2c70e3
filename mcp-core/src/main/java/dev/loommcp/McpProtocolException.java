package dev.loommcp;

import dev.loommcp.config.OutputSchemaValidation;
import org.jspecify.annotations.Nullable;

/**
 * The peer broke the protocol: a message that is not valid JSON-RPC, a result of the wrong shape, an unsupported
 * protocol version, or a {@code structuredContent} that fails the tool's {@code outputSchema} in
 * {@link OutputSchemaValidation#FAIL} mode. The message names what was wrong and where.
 */
public final class McpProtocolException extends McpException {
    /**
     * Creates the exception.
     *
     * @param message what was wrong
     */
    public McpProtocolException(String message) {
        super(message, null);
    }

    /**
     * Creates the exception.
     *
     * @param message what was wrong
     * @param cause   the underlying cause, or {@code null}
     */
    public McpProtocolException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
