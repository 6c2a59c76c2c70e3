package dev.loommcp.tasks;

import dev.loommcp.Era;
import dev.loommcp.internal.json.JsonSyntax;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The file format of {@link FileTaskStore}: {@code {"version":1,"tasks":[{taskId, serverKey, era, toolName,
 * createdAt, ttlMs, lastStatus}, ...]}}, written and read with Jackson (strict: duplicate keys, trailing content and
 * non-integer numbers are refused). Stateless.
 */
final class TaskRecords {

    static final int VERSION = 1;

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private TaskRecords() {
    }

    static String key(String serverKey, String taskId) {
        return serverKey.length() + ":" + serverKey + taskId;
    }

    /** The records of one server, in the given order. */
    static List<TaskRecord> ofServer(java.util.Collection<TaskRecord> records, String serverKey) {
        List<TaskRecord> out = new ArrayList<>();
        for (TaskRecord r : records) {
            if (r.serverKey().equals(serverKey)) {
                out.add(r);
            }
        }
        return out;
    }

    static String write(List<TaskRecord> records) {
        List<Map<String, Object>> tasks = new ArrayList<>(records.size());
        for (TaskRecord r : records) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("taskId", r.taskId());
            e.put("serverKey", r.serverKey());
            e.put("era", r.era().name());
            e.put("toolName", r.toolName());
            e.put("createdAt", r.createdAt().toString());
            e.put("ttlMs", r.ttl() == null ? null : r.ttl().toMillis());
            e.put("lastStatus", r.lastStatus().wireName());
            tasks.add(e);
        }
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("version", VERSION);
        root.put("tasks", tasks);
        return MAPPER.writeValueAsString(root) + "\n";
    }

    /**
     * Reads the file's content.
     *
     * @param text the content
     * @return the records in file order
     * @throws IllegalArgumentException naming what is wrong, if the content is not this format
     */
    static List<TaskRecord> read(String text) {
        Object root;
        try {
            root = MAPPER.readValue(text, Object.class);
        } catch (JacksonException e) {
            // where, not the parser's message: that names its internals and may quote a stored result
            throw new IllegalArgumentException("not valid JSON " + JsonSyntax.where(e), e);
        }
        if (!(root instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException("the content is not a JSON object");
        }
        if (!(m.get("version") instanceof Number v) || !(v instanceof Integer || v instanceof Long)
                || v.longValue() != VERSION) {
            throw new IllegalArgumentException("unknown version " + m.get("version") + " (expected " + VERSION + ")");
        }
        if (!(m.get("tasks") instanceof List<?> tasks)) {
            throw new IllegalArgumentException("\"tasks\" is missing or not an array");
        }
        List<TaskRecord> out = new ArrayList<>();
        int i = 0;
        for (Object t : tasks) {
            if (!(t instanceof Map<?, ?> e)) {
                throw new IllegalArgumentException("tasks[" + i + "] is not an object");
            }
            try {
                Object ttl = e.get("ttlMs");
                out.add(new TaskRecord(str(e, "taskId"), str(e, "serverKey"), Era.valueOf(str(e, "era")),
                        str(e, "toolName"), Instant.parse(str(e, "createdAt")),
                        ttl == null ? null : Duration.ofMillis(millis(ttl)), TaskStatus.parse(str(e, "lastStatus"))));
            } catch (RuntimeException ex) {
                throw new IllegalArgumentException("tasks[" + i + "] is not a valid record: " + ex.getMessage(), ex);
            }
            i++;
        }
        return out;
    }

    private static long millis(Object ttl) {
        if (ttl instanceof Integer || ttl instanceof Long) {
            return ((Number) ttl).longValue();
        }
        throw new IllegalArgumentException("\"ttlMs\" is not an integer or null");
    }

    private static String str(Map<?, ?> m, String key) {
        if (!(m.get(key) instanceof String s)) {
            throw new IllegalArgumentException("\"" + key + "\" is missing or not a string");
        }
        return s;
    }
}
