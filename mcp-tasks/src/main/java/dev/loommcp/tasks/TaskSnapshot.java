package dev.loommcp.tasks;

import dev.loommcp.config.Era;
import dev.loommcp.jsonrpc.JsonRpcError;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the server last said of a task: the modern {@code DetailedTask} (MCP tasks extension §Task Polling) or the
 * 2025-11-25 {@code Task}. Immutable. Made by the driver; to make one (a test's, a store's), use the named factories
 * {@link #of}, {@link #completed} and {@link #failed}, or {@link #newBuilder} for the optional fields, rather than
 * the canonical constructor.
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
 * @param result        {@code completed} (or a 2025-11-25 {@code failed} tool result with {@code isError}): the
 *                      original request's result (a {@code CallToolResult}), as plain JSON; else {@code null}
 * @param error         {@code failed}: the JSON-RPC error; else {@code null}
 */
public record TaskSnapshot(String taskId, Era era, TaskStatus status, @Nullable String statusMessage,
                           @Nullable Instant createdAt, @Nullable Instant lastUpdatedAt, @Nullable Duration ttl,
                           @Nullable Duration pollInterval, Map<String, @Nullable Object> inputRequests,
                           @Nullable Map<String, @Nullable Object> result, @Nullable JsonRpcError error) {

    /**
     * Checks and copies the components.
     *
     * @throws NullPointerException if {@code taskId}, {@code era} or {@code status} is {@code null}
     */
    public TaskSnapshot {
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(era, "era");
        Objects.requireNonNull(status, "status");
        inputRequests = inputRequests == null ? Map.of() : Collections.unmodifiableMap(
                new LinkedHashMap<>(inputRequests));
    }

    /**
     * Returns a snapshot with a status and nothing else known (no message, times, TTL, interval, input, result or
     * error).
     *
     * @param taskId the task's id
     * @param era    the era
     * @param status the status
     * @return the snapshot
     * @throws NullPointerException if an argument is {@code null}
     */
    public static TaskSnapshot of(String taskId, Era era, TaskStatus status) {
        return newBuilder(taskId, era, status).build();
    }

    /**
     * Returns a {@link TaskStatus#COMPLETED} snapshot with its result.
     *
     * @param taskId the task's id
     * @param era    the era
     * @param result the result ({@code CallToolResult} as plain JSON)
     * @return the snapshot
     * @throws NullPointerException if an argument is {@code null}
     */
    public static TaskSnapshot completed(String taskId, Era era, Map<String, @Nullable Object> result) {
        return newBuilder(taskId, era, TaskStatus.COMPLETED).result(Objects.requireNonNull(result, "result")).build();
    }

    /**
     * Returns a {@link TaskStatus#FAILED} snapshot with its JSON-RPC error.
     *
     * @param taskId the task's id
     * @param era    the era
     * @param error  the error
     * @return the snapshot
     * @throws NullPointerException if an argument is {@code null}
     */
    public static TaskSnapshot failed(String taskId, Era era, JsonRpcError error) {
        return newBuilder(taskId, era, TaskStatus.FAILED).error(Objects.requireNonNull(error, "error")).build();
    }

    /**
     * Returns a builder for a snapshot with the given id, era and status; every other field starts absent.
     *
     * @param taskId the task's id
     * @param era    the era
     * @param status the status
     * @return the builder
     * @throws NullPointerException if an argument is {@code null}
     */
    public static Builder newBuilder(String taskId, Era era, TaskStatus status) {
        return new Builder(taskId, era, status);
    }

    /**
     * Returns a builder that starts from this snapshot's fields.
     *
     * @return the builder
     */
    public Builder toBuilder() {
        return new Builder(taskId, era, status).statusMessage(statusMessage).createdAt(createdAt)
                .lastUpdatedAt(lastUpdatedAt).ttl(ttl).pollInterval(pollInterval).inputRequests(inputRequests)
                .result(result).error(error);
    }

    /** Builds a {@link TaskSnapshot}; each setter replaces the field ({@code null}: absent). Not thread-safe. */
    public static final class Builder {

        private final String taskId;
        private final Era era;
        private TaskStatus status;
        private @Nullable String statusMessage;
        private @Nullable Instant createdAt;
        private @Nullable Instant lastUpdatedAt;
        private @Nullable Duration ttl;
        private @Nullable Duration pollInterval;
        private @Nullable Map<String, @Nullable Object> inputRequests;
        private @Nullable Map<String, @Nullable Object> result;
        private @Nullable JsonRpcError error;

        private Builder(String taskId, Era era, TaskStatus status) {
            this.taskId = Objects.requireNonNull(taskId, "taskId");
            this.era = Objects.requireNonNull(era, "era");
            this.status = Objects.requireNonNull(status, "status");
        }

        /**
         * Sets the status.
         *
         * @param status the status
         * @return this builder
         * @throws NullPointerException if {@code status} is {@code null}
         */
        public Builder status(TaskStatus status) {
            this.status = Objects.requireNonNull(status, "status");
            return this;
        }

        /**
         * Sets the server's status message.
         *
         * @param statusMessage the message, or {@code null}
         * @return this builder
         */
        public Builder statusMessage(@Nullable String statusMessage) {
            this.statusMessage = statusMessage;
            return this;
        }

        /**
         * Sets when the server created the task.
         *
         * @param createdAt the instant, or {@code null}
         * @return this builder
         */
        public Builder createdAt(@Nullable Instant createdAt) {
            this.createdAt = createdAt;
            return this;
        }

        /**
         * Sets when the task last changed.
         *
         * @param lastUpdatedAt the instant, or {@code null}
         * @return this builder
         */
        public Builder lastUpdatedAt(@Nullable Instant lastUpdatedAt) {
            this.lastUpdatedAt = lastUpdatedAt;
            return this;
        }

        /**
         * Sets how long the server keeps the task.
         *
         * @param ttl the TTL, or {@code null}
         * @return this builder
         */
        public Builder ttl(@Nullable Duration ttl) {
            this.ttl = ttl;
            return this;
        }

        /**
         * Sets the interval the server asks polls to keep.
         *
         * @param pollInterval the interval, or {@code null}
         * @return this builder
         */
        public Builder pollInterval(@Nullable Duration pollInterval) {
            this.pollInterval = pollInterval;
            return this;
        }

        /**
         * Sets the outstanding input requests (modern {@code input_required}).
         *
         * @param inputRequests the requests by key as plain JSON, or {@code null} for none
         * @return this builder
         */
        public Builder inputRequests(@Nullable Map<String, @Nullable Object> inputRequests) {
            this.inputRequests = inputRequests;
            return this;
        }

        /**
         * Sets the result.
         *
         * @param result the {@code CallToolResult} as plain JSON, or {@code null}
         * @return this builder
         */
        public Builder result(@Nullable Map<String, @Nullable Object> result) {
            this.result = result;
            return this;
        }

        /**
         * Sets the JSON-RPC error of a failed task.
         *
         * @param error the error, or {@code null}
         * @return this builder
         */
        public Builder error(@Nullable JsonRpcError error) {
            this.error = error;
            return this;
        }

        /**
         * Builds the snapshot.
         *
         * @return the snapshot
         */
        public TaskSnapshot build() {
            return new TaskSnapshot(taskId, era, status, statusMessage, createdAt, lastUpdatedAt, ttl, pollInterval,
                    inputRequests, result, error);
        }
    }
}
