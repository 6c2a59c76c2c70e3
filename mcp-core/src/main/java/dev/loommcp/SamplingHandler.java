package dev.loommcp;

import dev.loommcp.schema.CreateMessageRequest;
import dev.loommcp.schema.CreateMessageResult;

/**
 * Answers {@code sampling/createMessage} requests from the server (MCP "Sampling"). Setting one on the builder
 * declares the {@code sampling} client capability.
 *
 * <p>Each request runs on its own virtual thread; the handler may block (for example to call a model). When the
 * server cancels the request or the client closes, the thread is interrupted. Anything the handler throws,
 * {@link Error}s included, is logged at {@code WARNING} and answered with JSON-RPC error -32603 naming the exception's
 * class.
 */
@FunctionalInterface
public interface SamplingHandler {
    /**
     * Answers one sampling request.
     *
     * @param request the server's request
     * @return the model's message
     * @throws Exception on failure; {@link InterruptedException} when cancelled
     */
    CreateMessageResult createMessage(CreateMessageRequest request) throws Exception;
}
