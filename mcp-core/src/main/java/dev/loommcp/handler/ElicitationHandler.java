package dev.loommcp.handler;

import dev.loommcp.schema.ElicitRequest;
import dev.loommcp.schema.ElicitResult;
import dev.loommcp.McpInputRequiredException;
import dev.loommcp.McpProtocolException;
import org.jspecify.annotations.Nullable;

/**
 * Answers {@code elicitation/create} requests from the server (MCP 2025-06-18+ "Elicitation", form mode, and
 * 2025-11-25 URL mode). Setting one on the builder declares the {@code elicitation} client capability. The same
 * handler serves both protocol eras.
 *
 * <p>2025 era: each request the server sends runs on its own virtual thread; the handler may block (for example to
 * ask a person). When the server cancels the request ({@code notifications/cancelled}) or the client closes, the
 * thread is interrupted. Anything the handler throws, {@link Error}s included, is logged at {@code WARNING} and
 * answered with JSON-RPC error -32603 naming the exception's class.
 *
 * <p>2026-07-28 era (multi round-trip requests): a {@code tools/call}, {@code prompts/get} or {@code resources/read}
 * whose server answers {@code input_required} with an elicitation calls the handler on the caller's thread, then
 * retries the call with the answer; a decline or cancel is an answer too. The thread is interrupted when the call's
 * deadline passes or its token fires. If the handler throws an exception, the call fails with
 * {@link McpInputRequiredException} (the failure as its cause) and is not retried.
 *
 * <p>In both eras the same checks apply: a URL-mode request reaches the handler only if URL mode was declared and it
 * carries an absolute {@code https} URL with a host and without user info ({@code http} only on a loopback host:
 * {@code localhost}, {@code 127.0.0.0/8}, {@code ::1}); any other URL ({@code javascript:}, {@code file:},
 * {@code data:}, plain http to another host) is refused before the handler is called (2025: error -32602 naming the
 * reason; 2026: {@link McpProtocolException}). Show the URL in full; never open it without the user's consent. A
 * {@code null} answer is a decline; an accepted form may get the schema's defaults filled in
 * ({@code applyElicitationDefaults}); content is sent only with an accepted form-mode request; an answer whose
 * action is not accept, decline or cancel, or whose content holds a value other than a string, number, boolean or
 * list of strings, is not sent (2025: error -32603; 2026: {@link McpInputRequiredException}).
 */
@FunctionalInterface
public interface ElicitationHandler {
    /**
     * Answers one elicitation.
     *
     * @param request the server's request ({@link ElicitRequest#isUrlMode()} tells the mode; a missing mode is form)
     * @return the answer: accept with content, decline, or cancel; {@code null} is a decline
     * @throws Exception on failure; {@link InterruptedException} when cancelled
     */
    @Nullable ElicitResult elicit(ElicitRequest request) throws Exception;
}
