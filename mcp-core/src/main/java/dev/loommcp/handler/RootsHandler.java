package dev.loommcp.handler;

import dev.loommcp.schema.Root;
import java.util.List;
import dev.loommcp.McpClient;
import dev.loommcp.McpInputRequiredException;
import org.jspecify.annotations.Nullable;

/**
 * Answers {@code roots/list} requests: the URIs the server may operate on (MCP "Roots"). Setting one on the builder
 * declares the {@code roots} client capability (with {@code listChanged}; tell the server with
 * {@link McpClient#notifyRootsListChanged()}). The same handler serves both protocol eras.
 *
 * <p>2025 era: runs on its own virtual thread per request (at most
 * {@link McpClient.Builder#maxConcurrentServerRequests} at once); interrupted when the server cancels or the client
 * closes. Anything it throws, {@link Error}s included, is logged at {@code WARNING} and answered with JSON-RPC error
 * -32603 naming the exception's class.
 *
 * <p>2026-07-28 era (multi round-trip requests): runs on the thread of the call whose server asked for the roots,
 * interrupted when the call's deadline passes or its token fires; if it throws an exception, the call fails with
 * {@link McpInputRequiredException} (the failure as its cause) and is not retried.
 *
 * <p>In both eras a {@code null} list is an empty one, and a list holding {@code null} is not sent.
 */
@FunctionalInterface
public interface RootsHandler {
    /**
     * Returns the current roots.
     *
     * @return the roots; {@code null} is an empty list
     * @throws Exception on failure
     */
    @Nullable List<Root> listRoots() throws Exception;
}
