package dev.loommcp.tasks;

import dev.loommcp.Era;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The file format of {@link FileTaskStore}: {@code {"version":1,"tasks":[{taskId, serverKey, era, toolName,
 * createdAt, ttlMs, lastStatus}, ...]}}, written and read by a small JSON reader of its own (the module depends on
 * the core's public API only). Stateless.
 */
final class TaskRecords {

    static final int VERSION = 1;

    private TaskRecords() {
    }

    static String key(String serverKey, String taskId) {
        return serverKey.length() + ":" + serverKey + taskId;
    }

    static String write(List<TaskRecord> records) {
        StringBuilder sb = new StringBuilder("{\"version\":").append(VERSION).append(",\"tasks\":[");
        boolean first = true;
        for (TaskRecord r : records) {
            sb.append(first ? "\n" : ",\n");
            first = false;
            sb.append("{\"taskId\":");
            string(sb, r.taskId());
            sb.append(",\"serverKey\":");
            string(sb, r.serverKey());
            sb.append(",\"era\":");
            string(sb, r.era().name());
            sb.append(",\"toolName\":");
            string(sb, r.toolName());
            sb.append(",\"createdAt\":");
            string(sb, r.createdAt().toString());
            sb.append(",\"ttlMs\":").append(r.ttl() == null ? "null" : Long.toString(r.ttl().toMillis()));
            sb.append(",\"lastStatus\":");
            string(sb, r.lastStatus().wireName());
            sb.append('}');
        }
        return sb.append("\n]}\n").toString();
    }

    /**
     * Reads the file's content.
     *
     * @param text the content
     * @return the records in file order
     * @throws IllegalArgumentException naming what is wrong, if the content is not this format
     */
    static List<TaskRecord> read(String text) {
        Object root = new Reader(text).document();
        if (!(root instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException("the content is not a JSON object");
        }
        if (!(m.get("version") instanceof Long v) || v != VERSION) {
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
                        ttl == null ? null : Duration.ofMillis((Long) ttl), TaskStatus.parse(str(e, "lastStatus"))));
            } catch (RuntimeException ex) {
                throw new IllegalArgumentException("tasks[" + i + "] is not a valid record: " + ex.getMessage(), ex);
            }
            i++;
        }
        return out;
    }

    private static String str(Map<?, ?> m, String key) {
        if (!(m.get(key) instanceof String s)) {
            throw new IllegalArgumentException("\"" + key + "\" is missing or not a string");
        }
        return s;
    }

    private static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    /** A strict reader of the JSON subset this format uses: objects, arrays, strings, integers, null. */
    private static final class Reader {
        private final String s;
        private int pos;

        Reader(String s) {
            this.s = s;
        }

        Object document() {
            Object v = value();
            ws();
            if (pos != s.length()) {
                throw error("trailing content");
            }
            return v;
        }

        private Object value() {
            ws();
            if (pos >= s.length()) {
                throw error("unexpected end (the file is truncated)");
            }
            char c = s.charAt(pos);
            return switch (c) {
                case '{' -> object();
                case '[' -> array();
                case '"' -> string();
                case 'n' -> literal("null", null);
                case 't' -> literal("true", Boolean.TRUE);
                case 'f' -> literal("false", Boolean.FALSE);
                default -> {
                    if (c == '-' || (c >= '0' && c <= '9')) {
                        yield number();
                    }
                    throw error("unexpected character '" + c + "'");
                }
            };
        }

        private Map<String, Object> object() {
            Map<String, Object> m = new LinkedHashMap<>();
            pos++;
            ws();
            if (peek() == '}') {
                pos++;
                return m;
            }
            while (true) {
                ws();
                if (peek() != '"') {
                    throw error("expected a member name");
                }
                String k = string();
                ws();
                expect(':');
                if (m.put(k, value()) != null) {
                    throw error("duplicate member \"" + k + "\"");
                }
                ws();
                char c = next();
                if (c == '}') {
                    return m;
                }
                if (c != ',') {
                    throw error("expected ',' or '}'");
                }
            }
        }

        private List<Object> array() {
            List<Object> l = new ArrayList<>();
            pos++;
            ws();
            if (peek() == ']') {
                pos++;
                return l;
            }
            while (true) {
                l.add(value());
                ws();
                char c = next();
                if (c == ']') {
                    return l;
                }
                if (c != ',') {
                    throw error("expected ',' or ']'");
                }
            }
        }

        private String string() {
            pos++;
            StringBuilder sb = new StringBuilder();
            while (true) {
                char c = next();
                if (c == '"') {
                    return sb.toString();
                }
                if (c == '\\') {
                    char e = next();
                    switch (e) {
                        case '"', '\\', '/' -> sb.append(e);
                        case 'n' -> sb.append('\n');
                        case 'r' -> sb.append('\r');
                        case 't' -> sb.append('\t');
                        case 'b' -> sb.append('\b');
                        case 'f' -> sb.append('\f');
                        case 'u' -> {
                            if (pos + 4 > s.length()) {
                                throw error("unexpected end (the file is truncated)");
                            }
                            try {
                                sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                            } catch (NumberFormatException ex) {
                                throw error("bad \\u escape");
                            }
                            pos += 4;
                        }
                        default -> throw error("bad escape \\" + e);
                    }
                } else if (c < 0x20) {
                    throw error("control character in a string");
                } else {
                    sb.append(c);
                }
            }
        }

        private Long number() {
            int start = pos;
            if (peek() == '-') {
                pos++;
            }
            while (pos < s.length() && Character.isDigit(s.charAt(pos))) {
                pos++;
            }
            try {
                return Long.parseLong(s.substring(start, pos));
            } catch (NumberFormatException ex) {
                throw error("not an integer");
            }
        }

        private Object literal(String word, Object v) {
            if (!s.startsWith(word, pos)) {
                throw error("unexpected word");
            }
            pos += word.length();
            return v;
        }

        private void ws() {
            while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
                pos++;
            }
        }

        private char peek() {
            return pos < s.length() ? s.charAt(pos) : '\0';
        }

        private char next() {
            if (pos >= s.length()) {
                throw error("unexpected end (the file is truncated)");
            }
            return s.charAt(pos++);
        }

        private void expect(char c) {
            if (next() != c) {
                throw error("expected '" + c + "'");
            }
        }

        private IllegalArgumentException error(String what) {
            return new IllegalArgumentException(what + " at character " + pos);
        }
    }
}
