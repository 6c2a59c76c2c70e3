package dev.loommcp.tasks;

import dev.loommcp.McpRpcException;
import dev.loommcp.internal.json.Shown;
import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.RequestId;
import org.jspecify.annotations.Nullable;

/**
 * The server does not know the task (any more): it answered a {@code tasks/*} request with {@code -32602}
 * (MCP tasks extension §Error Handling: unknown or expired task; 2025-11-25 tasks §Error Handling). A task past its
 * TTL may be deleted by the server. {@link McpTasks} maps that error of {@code tasks/get}, {@code tasks/update},
 * {@code tasks/cancel} and {@code tasks/result} to this exception; the same code on any other request stays a plain
 * {@link McpRpcException}.
 */
public final class McpTaskNotFoundException extends McpRpcException {

    private final String taskId;

    /**
     * Creates the exception.
     *
     * @param method    the refused method (for example {@code tasks/get})
     * @param taskId    the task's id
     * @param requestId the refused request's id, or {@code null}
     * @param error     the error the server sent
     */
    public McpTaskNotFoundException(String method, String taskId, @Nullable RequestId requestId, JsonRpcError error) {
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
     * Returns the message of the JSON-RPC error, followed by the task's id (control characters escaped, at most 64
     * characters shown).
     *
     * @return the message
     */
    @Override
    public String getMessage() {
        return taskId == null ? super.getMessage() : super.getMessage() + " (task " + Shown.id(taskId) + ")";
    }
}
