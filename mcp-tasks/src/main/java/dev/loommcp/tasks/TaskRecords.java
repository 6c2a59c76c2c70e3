package dev.loommcp.tasks;

import dev.loommcp.config.Era;
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
import org.jspecify.annotations.Nullable;

/**
 * The file format of {@link FileTaskStore}: {@code {"version":1,"tasks":[{taskId, serverKey, era, toolName,
 * createdAt, ttlMs, lastStatus[, owner][, learnedAt][, leaseUntil][, inputRequests][, result][, retainUntil]}, ...]}}
 * ({@code owner} and {@code learnedAt}, then {@code leaseUntil}, {@code inputRequests}, {@code result} and
 * {@code retainUntil} were added within version 1: a file without them is read as records with no owner, lease,
 * input requests or result; an older reader ignores them), written and read with Jackson (strict: duplicate keys, trailing content and
 * non-integer numbers are refused). A task entry this version cannot read (a newer version's status or era, a field
 * changed by hand) is skipped by {@link FileTaskStore} with a WARNING and written back unchanged. Stateless.
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
        return write(records, List.of());
    }

    /** The file's content: the records, then the entries this version could not read, unchanged. */
    static String write(List<TaskRecord> records, List<Object> unreadable) {
        List<Object> tasks = new ArrayList<>(records.size() + unreadable.size());
        for (TaskRecord r : records) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("taskId", r.taskId());
            e.put("serverKey", r.serverKey());
            e.put("era", r.era().name());
            e.put("toolName", r.toolName());
            e.put("createdAt", r.createdAt().toString());
            e.put("ttlMs", r.ttl() == null ? null : r.ttl().toMillis());
            e.put("lastStatus", r.lastStatus().wireName());
            if (r.owner() != null) {
                e.put("owner", r.owner());
            }
            if (r.learnedAt() != null) {
                e.put("learnedAt", r.learnedAt().toString());
            }
            if (r.leaseUntil() != null) {
                e.put("leaseUntil", r.leaseUntil().toString());
            }
            if (!r.inputRequests().isEmpty()) {
                e.put("inputRequests", r.inputRequests());
            }
            if (r.result() != null) {
                e.put("result", r.result());
            }
            if (r.retainUntil() != null) {
                e.put("retainUntil", r.retainUntil().toString());
            }
            tasks.add(e);
        }
        tasks.addAll(unreadable);
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
        return read(text, null);
    }

    /**
     * Reads the file's content; with {@code unreadable}, an entry that is an object but not a record this version
     * can read (a newer version's status or era, a field changed by hand) is added there as it is, with a WARNING
     * naming its index, task id and field (never the value), instead of failing the whole file.
     *
     * @throws IllegalArgumentException naming what is wrong, if the content is not this format
     */
    static List<TaskRecord> read(String text, @Nullable List<Object> unreadable) {
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
                || v.longValue() < VERSION) {
            throw new IllegalArgumentException("unknown version " + m.get("version") + " (expected " + VERSION + ")");
        }
        if (v.longValue() > VERSION) {
            throw new NewerVersion(v.longValue());
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
            if (unreadable == null) {
                try {
                    out.add(record(e));
                } catch (RuntimeException ex) {
                    throw new IllegalArgumentException("tasks[" + i + "] is not a valid record: " + ex.getMessage(),
                            ex);
                }
            } else {
                try {
                    out.add(field("", () -> record(e)));
                } catch (BadField ex) {
                    unreadable.add(t);
                    LOG.log(System.Logger.Level.WARNING, "the task store skips tasks[{0}] (task {1}): its field"
                            + " \"{2}\" cannot be read by this version (written by a newer loom-mcp or changed by"
                            + " hand); the entry is kept as it is", i, e.get("taskId") instanceof String id
                            ? TaskWire.shown(id) : "without an id", ex.field);
                }
            }
            i++;
        }
        return out;
    }

    private static final System.Logger LOG = System.getLogger(TaskRecords.class.getName());

    private static TaskRecord record(Map<?, ?> e) {
        Object ttl = e.get("ttlMs");
        return new TaskRecord(field("taskId", () -> str(e, "taskId")), field("serverKey", () -> str(e, "serverKey")),
                field("era", () -> Era.valueOf(str(e, "era"))), field("toolName", () -> str(e, "toolName")),
                field("createdAt", () -> Instant.parse(str(e, "createdAt"))),
                field("ttlMs", () -> ttl == null ? null : Duration.ofMillis(millis(ttl))),
                field("lastStatus", () -> TaskStatus.parse(str(e, "lastStatus"))),
                field("owner", () -> optionalStr(e, "owner")), field("learnedAt", () -> optionalInstant(e, "learnedAt")),
                field("leaseUntil", () -> optionalInstant(e, "leaseUntil")),
                field("inputRequests", () -> e.get("inputRequests") == null ? Map.of() : object(e, "inputRequests")),
                field("result", () -> e.get("result") == null ? null : object(e, "result")),
                field("retainUntil", () -> optionalInstant(e, "retainUntil")));
    }

    /** A field this version cannot read; the message names it (the cause's message may quote its value). */
    static final class BadField extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        final String field;

        BadField(String field, RuntimeException cause) {
            super("\"" + field + "\": " + cause.getMessage(), cause);
            this.field = field;
        }
    }

    private static <T> T field(String name, java.util.function.Supplier<T> read) {
        try {
            return read.get();
        } catch (BadField e) {
            throw e;
        } catch (RuntimeException e) {
            throw new BadField(name.isEmpty() ? "the record" : name, e);
        }
    }

    private static long millis(Object ttl) {
        if (ttl instanceof Integer || ttl instanceof Long) {
            return ((Number) ttl).longValue();
        }
        throw new IllegalArgumentException("\"ttlMs\" is not an integer or null");
    }

    /**
     * Applies {@code claim} to each record of {@code serverKey} in {@code m}: a non-null answer replaces the record and
     * is added to {@code taken}. Returns whether {@code m} changed.
     */
    static boolean claim(Map<String, TaskRecord> m, String serverKey,
                         java.util.function.Function<TaskRecord, @Nullable TaskRecord> claim, List<TaskRecord> taken) {
        boolean changed = false;
        for (Map.Entry<String, TaskRecord> e : m.entrySet()) {
            if (e.getValue().serverKey().equals(serverKey)) {
                TaskRecord n = claim.apply(e.getValue());
                if (n != null) {
                    TaskStore.checkStorable(n);
                    changed |= !n.equals(e.getValue());
                    e.setValue(n);
                    taken.add(n);
                }
            }
        }
        return changed;
    }

    private static @Nullable Instant optionalInstant(Map<?, ?> m, String key) {
        return m.get(key) == null ? null : Instant.parse(str(m, key));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, @Nullable Object> object(Map<?, ?> m, String key) {
        if (!(m.get(key) instanceof Map<?, ?> o)) {
            throw new IllegalArgumentException("\"" + key + "\" is not an object");
        }
        return (Map<String, @Nullable Object>) o; // parsed JSON: string keys
    }

    private static String optionalStr(Map<?, ?> m, String key) {
        return m.get(key) == null ? null : str(m, key);
    }

    /** How long past its TTL a record is kept before it is pruned (the owner's backstop adds one poll interval). */
    static final java.time.Duration PRUNE_GRACE = java.time.Duration.ofMinutes(1);

    /**
     * Whether a store may drop a record on its next write: its TTL (with {@link #PRUNE_GRACE}) has passed, counted
     * from {@link TaskRecord#learnedAt()} on this machine's clock (the server has forgotten it); or it is a stdio
     * server's task ({@code "stdio:"} key) whose known owner is gone (the server process ended with its client).
     * An ended task whose result was kept ({@link TaskRecord#retainUntil()}) is dropped once that time passed.
     * A record of a live owner is kept unless its TTL passed; a record with no owner or local time (an older
     * version's) is kept. {@code ownersAlive} remembers the owners looked up in one pass (one process lookup each).
     */
    static boolean prunable(TaskRecord r, Instant now, Map<String, Boolean> ownersAlive) {
        if (r.retainUntil() != null && r.retainUntil().isBefore(now)) {
            return true; // an ended task whose result was kept long enough
        }
        if (r.ttl() != null && r.learnedAt() != null) {
            try {
                if (r.learnedAt().plus(r.ttl()).plus(PRUNE_GRACE).isBefore(now)) {
                    return true;
                }
            } catch (java.time.DateTimeException | ArithmeticException e) {
                // a TTL beyond the calendar: never expires
            }
        }
        return r.serverKey().startsWith("stdio:") && r.owner() != null
                && !ownersAlive.computeIfAbsent(r.owner(), TaskOwner::alive);
    }

    /** The file was written by a newer version of the format than this one reads. */
    static final class NewerVersion extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        final long version;

        NewerVersion(long version) {
            super("it was written by a newer loom-mcp (format version " + version + "; this one reads version "
                    + VERSION + ")");
            this.version = version;
        }
    }

    private static String str(Map<?, ?> m, String key) {
        if (!(m.get(key) instanceof String s)) {
            throw new IllegalArgumentException("\"" + key + "\" is missing or not a string");
        }
        return s;
    }
}
