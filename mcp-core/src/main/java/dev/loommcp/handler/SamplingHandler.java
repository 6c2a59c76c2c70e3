package dev.loommcp.handler;

import dev.loommcp.schema.CreateMessageRequest;
import dev.loommcp.schema.CreateMessageResult;
import dev.loommcp.McpInputRequiredException;

/**
 * Answers {@code sampling/createMessage} requests from the server (MCP "Sampling"). Setting one on the builder
 * declares the {@code sampling} client capability. The same handler serves both protocol eras.
 *
 * <p>2025 era: each request runs on its own virtual thread; the handler may block (for example to call a model).
 * When the server cancels the request or the client closes, the thread is interrupted. Anything the handler throws,
 * {@link Error}s included, is logged at {@code WARNING} and answered with JSON-RPC error -32603 naming the exception's
 * class.
 *
 * <p>2026-07-28 era (multi round-trip requests): the handler runs on the thread of the call whose server asked for
 * the sample, interrupted when the call's deadline passes or its token fires. Throwing is how a person refuses: the
 * call then fails with {@link McpInputRequiredException} (the failure as its cause) and is not retried.
 *
 * <p>In both eras an answer that is {@code null}, or has no model or content, or a role other than user or
 * assistant, is not sent (2025: error -32603; 2026: {@link McpInputRequiredException}).
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
