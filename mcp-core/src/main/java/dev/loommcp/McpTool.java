package dev.loommcp;

import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.Tool;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * A handle on one server tool, from {@link McpClient#tools()}: its definition as received (unknown fields kept) and
 * a way to call it (the C++ seed's tool objects). A handle is revoked when its client closes: every later call
 * fails with {@link McpClosedException}.
 *
 * <p>Thread-safe; calls may run concurrently.
 */
public final class McpTool {

    private final McpClient client;
    private final Tool tool;
    private final Map<String, @Nullable Object> definition;

    McpTool(McpClient client, Tool tool, Map<String, @Nullable Object> definition) {
        this.client = client;
        this.tool = tool;
        this.definition = definition;
    }

    /**
     * Returns the tool's name, as used in {@code tools/call}.
     *
     * @return the name
     */
    public String name() {
        return tool.name();
    }

    /**
     * Returns the typed definition.
     *
     * @return the tool record
     */
    public Tool tool() {
        return tool;
    }

    /**
     * Returns the full definition exactly as the server sent it, including fields this SDK does not know.
     *
     * @return an unmodifiable plain JSON object
     */
    public Map<String, @Nullable Object> definition() {
        return definition;
    }

    /**
     * Returns whether the handle still works: {@code false} once its client is closed.
     *
     * @return whether calls may succeed
     */
    public boolean isOpen() {
        return !client.isClosed();
    }

    /**
     * Calls the tool with the client's default timeout; same as {@link McpClient#callTool(String, Map)}.
     *
     * @param arguments the arguments (a plain JSON object), or {@code null}
     * @return the result; {@code isError} results are returned, not thrown
     * @throws McpClosedException   if the client was closed (the handle is revoked)
     * @throws McpException         for the other failures listed on {@link McpClient#callTool(String, Map,
     *                              RequestOptions)}
     * @throws InterruptedException if the calling thread is interrupted
     */
    public CallToolResult call(@Nullable Map<String, @Nullable Object> arguments) throws InterruptedException {
        return client.callTool(tool.name(), arguments, RequestOptions.DEFAULT);
    }

    /**
     * Calls the tool with per-call options; same as {@link McpClient#callTool(String, Map, RequestOptions)}.
     *
     * @param arguments the arguments, or {@code null}
     * @param options   timeout, token, progress listener, extra {@code _meta}
     * @return the result
     * @throws McpClosedException   if the client was closed (the handle is revoked)
     * @throws McpException         for the other failures listed on {@link McpClient#callTool(String, Map,
     *                              RequestOptions)}
     * @throws InterruptedException if the calling thread is interrupted
     */
    public CallToolResult call(@Nullable Map<String, @Nullable Object> arguments,
                               RequestOptions options) throws InterruptedException {
        return client.callTool(tool.name(), arguments, options);
    }

    /**
     * Calls the tool on a virtual thread; see {@link McpClient#callToolAsync(String, Map, RequestOptions)}.
     *
     * @param arguments the arguments, or {@code null}
     * @param options   the options
     * @return a future whose {@code cancel(true)} cancels the call on the wire
     */
    public CompletableFuture<CallToolResult> callAsync(@Nullable Map<String, @Nullable Object> arguments,
                                                       RequestOptions options) {
        return client.callToolAsync(tool.name(), arguments, options);
    }

    @Override
    public String toString() {
        return "McpTool[" + tool.name() + (isOpen() ? "" : ", revoked") + "]";
    }
}
