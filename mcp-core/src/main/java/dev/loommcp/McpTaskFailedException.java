package dev.loommcp;

import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.RequestId;

/**
 * A task ended with a JSON-RPC error instead of a result: in the tasks extension (MCP 2026-07-28
 * {@code io.modelcontextprotocol/tasks}, §Task Status) a {@code failed} task's {@code error}; in the 2025-11-25 tasks
 * the error {@code tasks/result} returned. The error is the one the original request would have failed with; a tool
 * result with {@code isError: true} is not this exception (it is a result).
 */
public final class McpTaskFailedException extends McpRpcException {

    private final String taskId;

    /**
     * Creates the exception.
     *
     * @param method    the method of the request that created the task (for example {@code tools/call})
     * @param taskId    the task's id
     * @param requestId the id of the request that reported the failure, or {@code null}
     * @param error     the task's error
     */
    public McpTaskFailedException(String method, String taskId, RequestId requestId, JsonRpcError error) {
        super(method, requestId, error);
        this.taskId = taskId;
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
     * Returns the message of the JSON-RPC error, followed by the task's id.
     *
     * @return the message
     */
    @Override
    public String getMessage() {
        return taskId == null ? super.getMessage() : super.getMessage() + " (task " + taskId + ")";
    }
}
