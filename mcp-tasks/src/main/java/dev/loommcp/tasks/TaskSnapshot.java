package dev.loommcp.tasks;

import dev.loommcp.config.Era;
import dev.loommcp.jsonrpc.JsonRpcError;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * What the server last said of a task: the modern {@code DetailedTask} (MCP tasks extension §Task Polling) or the
 * 2025-11-25 {@code Task}. Immutable.
 *
 * @param taskId        the task's id
 * @param era           the era it was read in
 * @param status        its status
 * @param statusMessage the server's message, or {@code null}
 * @param createdAt     when the server created it, or {@code null} if it did not say (or said it unreadably)
 * @param lastUpdatedAt when it last changed, or {@code null}
 * @param ttl           how long the server keeps it ({@code ttlMs} / {@code ttl}), or {@code null} for unlimited or
 *                      unsaid
 * @param pollInterval  the interval the server asks polls to keep ({@code pollIntervalMs} / {@code pollInterval}),
 *                      or {@code null}
 * @param inputRequests modern {@code input_required}: the outstanding requests by key, as plain JSON; else empty
 * @param result        modern {@code completed}: the original request's result (a {@code CallToolResult}), as plain
 *                      JSON; else {@code null}
 * @param error         modern {@code failed}: the JSON-RPC error; else {@code null}
 */
public record TaskSnapshot(String taskId, Era era, TaskStatus status, String statusMessage, Instant createdAt,
                           Instant lastUpdatedAt, Duration ttl, Duration pollInterval,
                           Map<String, Object> inputRequests, Map<String, Object> result, JsonRpcError error) {

    /**
     * Checks and copies the components.
     *
     * @throws NullPointerException if {@code taskId}, {@code era} or {@code status} is {@code null}
     */
    public TaskSnapshot {
        java.util.Objects.requireNonNull(taskId, "taskId");
        java.util.Objects.requireNonNull(era, "era");
        java.util.Objects.requireNonNull(status, "status");
        inputRequests = inputRequests == null ? Map.of() : java.util.Collections.unmodifiableMap(
                new java.util.LinkedHashMap<>(inputRequests));
    }
}
