package dev.loommcp.store.jdbc;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The JSON columns of {@link JdbcTaskStore} ({@code input_requests}, {@code result}): written from values
 * {@link dev.loommcp.tasks.TaskStore#checkStorable} accepted (plain JSON), read back with every digit: a decimal that
 * a {@code double} holds exactly as written becomes a {@code Double}, any other stays a {@link BigDecimal}. Stateless.
 */
final class TaskJson {

    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private TaskJson() {
    }

    static String write(Object value) {
        return JSON.writeValueAsString(value);
    }

    /**
     * Reads a JSON object.
     *
     * @throws IllegalArgumentException if the text is not JSON or not an object (never quoting it)
     */
    @SuppressWarnings("unchecked")
    static Map<String, @Nullable Object> readObject(String text) {
        if (!(exact(JSON.readValue(text, Object.class)) instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException("not a JSON object");
        }
        return (Map<String, @Nullable Object>) m;
    }

    private static @Nullable Object exact(@Nullable Object v) {
        return switch (v) {
            case BigDecimal d -> {
                double x = d.doubleValue();
                yield Double.isFinite(x) && new BigDecimal(Double.toString(x)).compareTo(d) == 0 ? (Object) x : d;
            }
            case Map<?, ?> m -> {
                Map<Object, @Nullable Object> out = new LinkedHashMap<>();
                m.forEach((k, x) -> out.put(k, exact(x)));
                yield out;
            }
            case List<?> l -> {
                List<@Nullable Object> out = new ArrayList<>(l.size());
                l.forEach(x -> out.add(exact(x)));
                yield out;
            }
            case null, default -> v;
        };
    }

    /** SQL string literals of {@code names} (identifiers of this version: letters, digits, underscores). */
    static String quotedList(List<String> names) {
        StringBuilder b = new StringBuilder();
        for (String n : names) {
            if (!n.matches("[A-Za-z0-9_]+")) {
                throw new IllegalStateException("not a plain name: " + n);
            }
            b.append(b.isEmpty() ? "" : ", ").append('\'').append(n).append('\'');
        }
        return b.toString();
    }
}
