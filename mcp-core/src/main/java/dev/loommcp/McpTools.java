package dev.loommcp;

import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.ListToolsResult;
import dev.loommcp.schema.Tool;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * The tools of an MCP server (MCP 2025-11-25 "Server features: Tools"): listing them page by page or all at once,
 * calling them (the calls of {@link McpToolCaller}, which this extends, and {@link #callToolAsync}), and the
 * {@code _meta} stamped on every call. {@link McpClient} implements it; code that only calls
 * tools can depend on this interface (and a test can implement it without a server).
 *
 * <p>Implementations are thread-safe: every method may be called from many threads (virtual threads included) at
 * once. Each blocking method comes in two forms, the shorter one using {@link RequestOptions#DEFAULT}. A blocking
 * call honours its deadline, token and the thread's interrupt as {@link McpClient} describes, and throws the
 * {@link McpException} family: {@link McpRpcException} for a JSON-RPC error from the server,
 * {@link McpProtocolException} for a malformed answer, {@link McpTimeoutException}, {@link McpCancelledException},
 * {@link McpClosedException}, {@link McpTransportException}; before {@link McpClient#connect()} completed, an
 * {@link IllegalStateException}. Null arguments follow the package's null policy ({@code dev.loommcp}).
 *
 * <p>Listings keep what they can use: a malformed entry of a list result (a tool whose fields do not have the MCP
 * schema's types, one without a name, a value that is not an object) is left out with one {@code WARNING} on the
 * {@code dev.loommcp.client} logger naming the method, the entry's index and what was wrong (never its content),
 * and the other entries are returned. A result whose envelope is malformed (the array missing or not an array, a
 * {@code nextCursor} that is not a string in a complete listing) fails with {@link McpProtocolException}.
 */
public interface McpTools extends McpToolCaller {

    /**
     * Reads one page of {@code tools/list} (MCP "Tools: listing"). The cursor is sent verbatim.
     *
     * @param cursor the {@code nextCursor} of the previous page, or {@code null} for the first page
     * @return the page
     * @throws McpException         when the call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    default ListToolsResult listTools(@Nullable String cursor) throws InterruptedException {
        return listTools(cursor, RequestOptions.DEFAULT);
    }

    /**
     * Reads one page of {@code tools/list} with per-call options.
     *
     * @param cursor  the cursor, or {@code null}
     * @param options timeout, token
     * @return the page
     * @throws McpException         when the call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    ListToolsResult listTools(@Nullable String cursor, RequestOptions options) throws InterruptedException;

    /**
     * Reads every page of {@code tools/list} and returns all tools (the seeds' complete listing). An empty-string
     * {@code nextCursor} is a cursor like any other; only an absent one ends the listing. A cursor seen twice, or more
     * pages than {@linkplain McpClient.Builder#maxListPages the page cap}, stops with {@link McpProtocolException}.
     * Refreshes the definitions used to validate {@code structuredContent}.
     *
     * @return the tools in server order
     * @throws McpException         when a call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    default List<Tool> listAllTools() throws InterruptedException {
        return listAllTools(RequestOptions.DEFAULT);
    }

    /**
     * Reads every page of {@code tools/list} with per-page options; see {@link #listAllTools()}.
     *
     * @param options timeout and token for each page
     * @return the tools
     * @throws McpException         when a call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    default List<Tool> listAllTools(RequestOptions options) throws InterruptedException {
        List<Tool> all = new ArrayList<>();
        for (McpTool t : tools(options)) {
            all.add(t.tool());
        }
        return all;
    }

    /**
     * Reads every page of {@code tools/list} and returns a callable handle per tool, carrying its full definition as
     * received. Handles are revoked when the client closes.
     *
     * @return the handles in server order
     * @throws McpException         when a call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    default List<McpTool> tools() throws InterruptedException {
        return tools(RequestOptions.DEFAULT);
    }

    /**
     * Like {@link #tools()}, with per-page options.
     *
     * @param options timeout and token for each page
     * @return the handles
     * @throws McpException         when a call fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    List<McpTool> tools(RequestOptions options) throws InterruptedException;

    /**
     * Calls a tool on a new virtual thread (the seeds' async variant).
     *
     * @param name      the tool name
     * @param arguments the arguments, or {@code null}
     * @param options   the options; its token, if any, also cancels the call
     * @return a future completed with the result or the exception {@link #callTool(String, Map, RequestOptions)}
     *         would throw; its {@code cancel(true)} cancels the call on the wire ({@code notifications/cancelled})
     */
    CompletableFuture<CallToolResult> callToolAsync(String name, @Nullable Map<String, @Nullable Object> arguments,
                                                    RequestOptions options);

    /**
     * Sets the {@code _meta} stamped on every later {@code tools/call} (the Rust seed's {@code set_tool_meta}), for
     * example a run id that lets a server recognize a retried call. Per-call {@code _meta} wins key by key.
     *
     * @param meta the map (plain JSON values), or {@code null} to clear
     */
    void setToolMeta(@Nullable Map<String, @Nullable Object> meta);

    /**
     * Returns the persistent tool {@code _meta}.
     *
     * @return an unmodifiable map, empty when none is set
     */
    Map<String, @Nullable Object> toolMeta();
}
