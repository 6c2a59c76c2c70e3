package dev.loommcp;

import dev.loommcp.handler.SamplingHandler;
import org.jspecify.annotations.Nullable;

/**
 * A multi round-trip request (MCP 2026-07-28 "Multi Round-Trip Requests") could not be completed: the server asked
 * for input this client has no handler for (for example {@code sampling/createMessage} without a
 * {@link SamplingHandler}), a handler refused it in a way that has no answer on the wire, the server asked for a
 * capability the request did not declare, or the server still wanted input after the most rounds the client allows
 * ({@code McpClient.Builder.maxInputRounds}). The message names the method, the input key and the reason. Nothing is
 * retried after it; the client stays usable.
 */
public final class McpInputRequiredException extends McpException {

    /**
     * Creates the exception.
     *
     * @param message what was wrong
     * @param cause   the underlying cause (a handler's failure), or {@code null}
     */
    public McpInputRequiredException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
