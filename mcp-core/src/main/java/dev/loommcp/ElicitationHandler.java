package dev.loommcp;

import dev.loommcp.schema.ElicitRequest;
import dev.loommcp.schema.ElicitResult;

/**
 * Answers {@code elicitation/create} requests from the server (MCP 2025-06-18+ "Elicitation", form mode, and
 * 2025-11-25 URL mode). Setting one on the builder declares the {@code elicitation} client capability.
 *
 * <p>Each request runs on its own virtual thread; the handler may block (for example to ask a person). When the
 * server cancels the request ({@code notifications/cancelled}) or the client closes, the thread is interrupted.
 * Anything the handler throws, {@link Error}s included, is logged at {@code WARNING} and answered with JSON-RPC error
 * -32603 naming the exception's class.
 */
@FunctionalInterface
public interface ElicitationHandler {
    /**
     * Answers one elicitation.
     *
     * @param request the server's request ({@link ElicitRequest#isUrlMode()} tells the mode; a missing mode is form)
     * @return the answer: accept with content, decline, or cancel
     * @throws Exception on failure; {@link InterruptedException} when cancelled
     */
    ElicitResult elicit(ElicitRequest request) throws Exception;
}
