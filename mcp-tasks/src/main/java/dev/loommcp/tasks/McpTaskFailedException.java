package dev.loommcp.tasks;

import dev.loommcp.McpRpcException;
import dev.loommcp.internal.json.Shown;
import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.RequestId;
import org.jspecify.annotations.Nullable;
import java.util.Optional;

/**
 * A task ended with a JSON-RPC error instead of a result: in the tasks extension (MCP 2026-07-28
 * {@code io.modelcontextprotocol/tasks}, §Task Status) a {@code failed} task's {@code error}; in the 2025-11-25 tasks
 * the error {@code tasks/result} returned. The error is the one the original request would have failed with; a tool
 * result with {@code isError: true} is not this exception (it is a result). Thrown by {@link McpTask#await} and by a
 * plain {@code McpClient.callTool} that the installed {@link McpTasks} drove.
 */
public final class McpTaskFailedException extends McpRpcException {

    private final String taskId;
    private final @Nullable String toolName;

    /**
     * Creates the exception; its message names the task and the method: {@code task <id> (<method>) ended failed
     * with JSON-RPC error <code>: <message>}.
     *
     * @param method    the method of the request that created the task (for example {@code tools/call})
     * @param taskId    the task's id
     * @param requestId the id of the request that reported the failure, or {@code null}
     * @param error     the task's error
     */
    public McpTaskFailedException(String method, String taskId, @Nullable RequestId requestId, JsonRpcError error) {
        this(method, null, taskId, requestId, error);
    }

    /**
     * Creates the exception; its message names the task, the method and the tool: {@code task <id> (tools/call
     * <tool>) ended failed with JSON-RPC error <code>: <message>}.
     *
     * @param method    the method of the request that created the task (for example {@code tools/call})
     * @param toolName  the tool the task runs, or {@code null} when unknown
     * @param taskId    the task's id
     * @param requestId the id of the request that reported the failure, or {@code null}
     * @param error     the task's error
     */
    public McpTaskFailedException(String method, @Nullable String toolName, String taskId,
                                  @Nullable RequestId requestId, JsonRpcError error) {
        super("task " + Shown.id(taskId) + " (" + method + (toolName == null ? "" : " " + toolName)
                + ") ended failed with JSON-RPC error " + error.code() + ": " + shortened(error.message()),
                method, requestId, error);
        this.taskId = taskId;
        this.toolName = toolName;
    }

    /**
     * Returns the task's id.
     *
     * @return the id
     */
    public String taskId() {
        return taskId;
    }

    /**
     * Returns the tool the task runs.
     *
     * @return the tool's name, or empty when unknown
     */
    public Optional<String> toolName() {
        return Optional.ofNullable(toolName);
    }
}
