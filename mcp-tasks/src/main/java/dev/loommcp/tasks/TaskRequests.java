package dev.loommcp.tasks;

import dev.loommcp.McpRpcException;
import dev.loommcp.RequestOptions;
import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.spi.TaskChannel;
import java.util.Map;
import java.util.Set;

/**
 * The {@code tasks/*} requests of the driver, through the client's {@link TaskChannel}, with the tasks' error rule:
 * {@code -32602} (invalid params) answering {@code tasks/get}, {@code tasks/update}, {@code tasks/cancel} or
 * {@code tasks/result} means the server does not know the task (any more) and is thrown as
 * {@link McpTaskNotFoundException} (MCP tasks extension §Error Handling, MODERN-ERA.md C.5.11; 2025-11-25 tasks
 * §Error Handling, C.6.10); any other error, and {@code -32602} of any other request, is thrown as it came. Stateless.
 */
final class TaskRequests {

    /** The requests whose {@code -32602} means an unknown or expired task. */
    private static final Set<String> TASK_LOOKUPS = Set.of("tasks/get", "tasks/update", "tasks/cancel",
            "tasks/result");

    private TaskRequests() {
    }

    /**
     * Sends one request about a task.
     *
     * @param channel the client's channel
     * @param method  the method, for example {@code tasks/get}
     * @param params  the params (plain JSON), or {@code null}
     * @param options deadline, token and {@code _meta}
     * @return the result as plain JSON
     * @throws InterruptedException     if the calling thread is interrupted
     * @throws McpTaskNotFoundException for {@code -32602} on a task lookup
     * @throws dev.loommcp.McpException as the channel throws otherwise
     */
    static Map<String, Object> send(TaskChannel channel, String method, Map<String, Object> params,
                                    RequestOptions options) throws InterruptedException {
        try {
            return channel.request(method, params, options);
        } catch (McpRpcException e) {
            throw notFound(method, params, e);
        }
    }

    /**
     * The exception for a failed request: {@link McpTaskNotFoundException} for {@code -32602} on a task lookup (its
     * id from {@code params.taskId}, its stack trace the original's), else {@code e} unchanged.
     */
    static McpRpcException notFound(String method, Map<String, Object> params, McpRpcException e) {
        if (e.code() != JsonRpcError.INVALID_PARAMS || !TASK_LOOKUPS.contains(method)
                || e instanceof McpTaskNotFoundException) {
            return e;
        }
        String taskId = params != null && params.get("taskId") instanceof String id ? id : null;
        McpTaskNotFoundException typed = new McpTaskNotFoundException(method, taskId, e.requestId().orElse(null), e.error());
        typed.setStackTrace(e.getStackTrace());
        return typed;
    }
}
