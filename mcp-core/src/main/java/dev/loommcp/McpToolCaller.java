package dev.loommcp;

import dev.loommcp.schema.CallToolResult;
import java.util.Map;

/**
 * The narrowest view of one MCP server a host needs to run tools: call a tool by name and say which server it is (the
 * Rust seed's {@code McpCall}: {@code call(tool, args, meta, timeout)} and {@code server_name}). The seed's
 * {@code meta} and {@code timeout} are {@link RequestOptions#meta()} and {@link RequestOptions#timeout()} here.
 * {@link McpClient} implements it, and so does each server of a host's registry ({@code dev.loommcp.hosts}), so a
 * host and its tests can depend on this interface alone (a test can implement it without a server).
 *
 * <p>Implementations are thread-safe: every method may be called from many threads (virtual threads included) at
 * once. A call honours its deadline, token and the thread's interrupt, and fails with the {@link McpException}
 * family as {@link McpTools#callTool(String, Map, RequestOptions)} describes.
 */
public interface McpToolCaller {

    /**
     * Returns the name of the server this caller talks to: for {@link McpClient}, the name given to
     * {@link McpClientBuilder#serverName(String)}, else the server's self-reported {@code serverInfo.name}; for a
     * registry's server, its configured name. Never blocks.
     *
     * @return the name; never {@code null} (empty when unknown)
     */
    String serverName();

    /**
     * Calls a tool with the default options; see {@link #callTool(String, Map, RequestOptions)}.
     *
     * @param name      the tool name
     * @param arguments the arguments (a plain JSON object), or {@code null}
     * @return the result; {@code isError: true} is a result, not an exception
     * @throws McpException         when the call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    default CallToolResult callTool(String name, Map<String, Object> arguments) throws InterruptedException {
        return callTool(name, arguments, RequestOptions.DEFAULT);
    }

    /**
     * Calls a tool ({@code tools/call}). {@code options.meta()} is sent as the call's {@code _meta}; the call's
     * deadline is the earlier of {@code options}' timeout and deadline (the implementation's default when neither is
     * set).
     *
     * @param name      the tool name
     * @param arguments the arguments (a plain JSON object), or {@code null}
     * @param options   timeout, deadline, token, progress listener, extra {@code _meta}
     * @return the result; {@code isError: true} is a result, not an exception
     * @throws McpRpcException       if the server answers with a JSON-RPC error (unknown tool, bad arguments)
     * @throws McpTimeoutException   if the deadline passes
     * @throws McpCancelledException if the token fires
     * @throws McpClosedException    if the client (or the registry) is closed
     * @throws McpTransportException if the transport fails, or the server is not available
     * @throws McpProtocolException  if the result is malformed
     * @throws IllegalArgumentException if {@code arguments} hold something that is not plain JSON, or the name is
     *                               unknown to a registry
     * @throws InterruptedException  if the calling thread is interrupted
     */
    CallToolResult callTool(String name, Map<String, Object> arguments, RequestOptions options)
            throws InterruptedException;
}
