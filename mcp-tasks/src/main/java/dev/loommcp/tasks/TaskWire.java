package dev.loommcp.tasks;

import dev.loommcp.config.Era;
import dev.loommcp.McpProtocolException;
import dev.loommcp.internal.json.Shown;
import dev.loommcp.jsonrpc.JsonRpcError;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Reads both eras' task shapes leniently (MODERN-ERA.md C.5.3/C.5.4 and C.6.3/C.6.4): the modern flat
 * {@code CreateTaskResult} and {@code DetailedTask} ({@code ttlMs}, {@code pollIntervalMs}), the legacy nested
 * {@code {"task": {...}}} and flat {@code Task} ({@code ttl}, {@code pollInterval}). The {@code status} decides; a
 * {@code resultType} of {@code "task"} on {@code tasks/get} is tolerated. Stateless.
 */
final class TaskWire {

    private TaskWire() {
    }

    /**
     * Parses a task as the server described it.
     *
     * @param raw        the JSON: a creation result, a {@code tasks/get} result, a {@code notifications/tasks} or
     *                   {@code notifications/tasks/status} params, a {@code tasks/cancel} result or a
     *                   {@code tasks/list} entry
     * @param era        the era it was read in
     * @param expectedId the id the task must have, or {@code null} to accept any; a missing id is taken from it
     * @param what       what the JSON was, for the error message
     * @return the snapshot
     * @throws McpProtocolException if the id or status is missing or not valid, or the id is not the expected one
     */
    static TaskSnapshot parse(Map<String, Object> raw, Era era, String expectedId, String what) {
        Map<String, Object> t = raw;
        if (raw.get("task") instanceof Map<?, ?> nested && !raw.containsKey("status")) {
            t = cast(nested);
        }
        Object idValue = t.get("taskId");
        String id;
        if (idValue == null && expectedId != null) {
            id = expectedId;
        } else if (idValue instanceof String s && !s.isEmpty()) {
            id = s;
        } else {
            throw new McpProtocolException(what + ": taskId is missing or not a non-empty string: "
                    + describe(idValue));
        }
        if (expectedId != null && !expectedId.equals(id)) {
            throw new McpProtocolException(what + ": answered for task " + shown(id) + " instead of "
                    + shown(expectedId));
        }
        TaskStatus status;
        Object statusValue = t.get("status");
        if (!(statusValue instanceof String s)) {
            throw new McpProtocolException(what + " for task " + shown(id) + ": status is missing or not a string: "
                    + describe(statusValue));
        }
        try {
            status = TaskStatus.parse(s);
        } catch (IllegalArgumentException e) {
            throw new McpProtocolException(what + " for task " + shown(id) + ": " + e.getMessage(), e);
        }
        Duration ttl = millis(t, era == Era.MODERN ? "ttlMs" : "ttl", era == Era.MODERN ? "ttl" : "ttlMs");
        Duration poll = millis(t, era == Era.MODERN ? "pollIntervalMs" : "pollInterval",
                era == Era.MODERN ? "pollInterval" : "pollIntervalMs");
        Map<String, Object> inputs = status == TaskStatus.INPUT_REQUIRED
                && t.get("inputRequests") instanceof Map<?, ?> m ? cast(m) : Map.of();
        Map<String, Object> result = status == TaskStatus.COMPLETED && t.get("result") instanceof Map<?, ?> r
                ? cast(r) : null;
        JsonRpcError error = status == TaskStatus.FAILED ? error(t.get("error")) : null;
        return TaskSnapshot.newBuilder(id, era, status)
                .statusMessage(t.get("statusMessage") instanceof String m ? m : null)
                .createdAt(instant(t.get("createdAt"))).lastUpdatedAt(instant(t.get("lastUpdatedAt")))
                .ttl(ttl).pollInterval(poll).inputRequests(inputs).result(result).error(error).build();
    }

    /**
     * Reads a JSON-RPC error object leniently.
     *
     * @param value the {@code error} member
     * @return the error, or {@code null} when absent or not an object
     */
    static @Nullable JsonRpcError error(@Nullable Object value) {
        if (!(value instanceof Map<?, ?> m)) {
            return null;
        }
        int code = m.get("code") instanceof Number n ? n.intValue() : JsonRpcError.INTERNAL_ERROR;
        String message = m.get("message") instanceof String s ? s : "(no message)";
        return new JsonRpcError(code, message, m.get("data"));
    }

    private static @Nullable Duration millis(Map<String, Object> t, String key, String otherEraKey) {
        Object v = t.containsKey(key) ? t.get(key) : t.get(otherEraKey);
        if (v instanceof Number n && n.doubleValue() > 0 && Double.isFinite(n.doubleValue())) {
            return Duration.ofMillis(Math.min(n.longValue(), Long.MAX_VALUE / 1_000_000));
        }
        return null;
    }

    private static @Nullable Instant instant(@Nullable Object v) {
        if (!(v instanceof String s)) {
            return null;
        }
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException e) {
            try {
                return java.time.OffsetDateTime.parse(s).toInstant();
            } catch (DateTimeParseException e2) {
                return null;
            }
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> cast(Map<?, ?> m) {
        return (Map<String, Object>) m;
    }

    /**
     * Returns a mutable copy of a map, for building params.
     *
     * @param entries key, value, key, value...
     * @return the map
     */
    static Map<String, Object> params(Object... entries) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < entries.length; i += 2) {
            m.put((String) entries[i], entries[i + 1]);
        }
        return m;
    }

    /** A task id as messages, logs and {@code toString()} show it: control characters escaped, capped at 64. */
    static String shown(String id) {
        return Shown.id(id);
    }

    /** A server's status message as exception messages show it: control characters escaped, capped at 500. */
    static String shownMessage(String message) {
        return Shown.text(message, 500);
    }

    private static String describe(Object v) {
        if (v == null) {
            return "absent";
        }
        String s = String.valueOf(v);
        return Shown.text(s, 80) + " (" + v.getClass().getSimpleName() + ")";
    }
}
