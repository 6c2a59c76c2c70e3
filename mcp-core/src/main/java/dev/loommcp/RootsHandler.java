package dev.loommcp;

import dev.loommcp.schema.Root;
import java.util.List;

/**
 * Answers {@code roots/list} requests: the URIs the server may operate on (MCP "Roots"). Setting one on the builder
 * declares the {@code roots} client capability (with {@code listChanged}; tell the server with
 * {@link McpClient#notifyRootsListChanged()}).
 *
 * <p>Runs on its own virtual thread per request (at most {@link McpClient.Builder#maxConcurrentServerRequests} at
 * once); interrupted when the server cancels or the client closes. Anything it throws, {@link Error}s included, is
 * logged at {@code WARNING} and answered with JSON-RPC error -32603 naming the exception's class.
 */
@FunctionalInterface
public interface RootsHandler {
    /**
     * Returns the current roots.
     *
     * @return the roots
     * @throws Exception on failure
     */
    List<Root> listRoots() throws Exception;
}
