package dev.loommcp;

import dev.loommcp.schema.CallToolResult;
import java.util.Map;
import org.jspecify.annotations.Nullable;

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
     * {@link McpClient.Builder#serverName(String)}, else the server's self-reported {@code serverInfo.name}; for a
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
    default CallToolResult callTool(String name, @Nullable Map<String, @Nullable Object> arguments)
            throws InterruptedException {
        return callTool(name, arguments, RequestOptions.DEFAULT);
    }

    /**
     * Calls a tool ({@code tools/call}, MCP "Tools: calling"). {@code options.meta()} is sent as the call's
     * {@code _meta}, merged key by key over the persistent tool {@code _meta} of an {@link McpTools}
     * ({@link McpTools#setToolMeta}); a progress listener adds an SDK-assigned {@code progressToken}. The call's
     * deadline is the earlier of {@code options}' timeout and deadline (the implementation's default when neither
     * is set). A result with {@code isError: true} is returned,
     * not thrown. When the tool's cached definition (from {@link McpTools#tools()} or {@link McpTools#listAllTools()}) has an
     * {@code outputSchema}, {@code structuredContent} is validated as
     * {@link McpClient.Builder#outputSchemaValidation} says.
     *
     * <p>With a task driver installed ({@link McpClient.Builder#taskSupport}), the driver is asked before the call
     * is sent whether it asks for a task (the {@code mcp-tasks} driver does so in the 2025-11-25 era for a tool whose
     * {@code execution.taskSupport} is {@code required}, augmenting the call with {@code task: {ttl}}), and a server
     * that answers with a task (modern {@code resultType: "task"}, or the legacy {@code task} answering an augmented
     * call) has the task driven by it to its final result on the calling thread, within this call's deadline and
     * token; the final result is then validated as above. Without one, a task answer is a protocol error.
     *
     * @param name      the tool name
     * @param arguments the arguments (a plain JSON object), or {@code null}
     * @param options   timeout, deadline, token, progress listener, extra {@code _meta}
     * @return the result
     * @throws McpRpcException        if the server answers with a JSON-RPC error (unknown tool, bad arguments);
     *                                with the {@code mcp-tasks} driver installed, a task that failed:
     *                                {@code dev.loommcp.tasks.McpTaskFailedException}; a task the server no longer
     *                                knows: {@code dev.loommcp.tasks.McpTaskNotFoundException} (both subclasses of
     *                                this one, in that module)
     * @throws McpProtocolException   if the result is malformed, or fails its output schema in FAIL mode; a task
     *                                answer without a task driver, or a malformed task
     * @throws McpTimeoutException    if the deadline passes ({@code notifications/cancelled} is sent)
     * @throws McpCancelledException  if the token fires ({@code notifications/cancelled} is sent)
     * @throws McpClosedException     if the client (or the registry) is or gets closed
     * @throws McpTransportException  if the transport fails (process exit, HTTP status), or a registry's server is
     *                                not available
     * @throws IllegalStateException  if the client is not connected yet
     * @throws IllegalArgumentException if {@code arguments} (or {@code options.meta()}) hold something that is not
     *                                plain JSON ({@code Map} with {@code String} keys, {@code List}, {@code String},
     *                                {@code Number}, {@code Boolean}, {@code null}, or the SDK's own records): an
     *                                array, {@code byte[]}, a bean or any other object is never serialised; the
     *                                message names its path, such as
     *                                {@code arguments.items[2].when: java.lang.Thread is not a JSON value}; also
     *                                when the name is unknown to a registry
     * @throws InterruptedException   if the calling thread is interrupted ({@code notifications/cancelled} is sent)
     */
    CallToolResult callTool(String name, @Nullable Map<String, @Nullable Object> arguments, RequestOptions options)
            throws InterruptedException;
}
