package dev.loommcp.it.policies;

import dev.loommcp.intercept.McpInterceptor;
import dev.loommcp.intercept.McpResponse;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Logs the arguments of every tools/call with the values of secret fields (at any depth) replaced by
 * {@code "***"}. Only the log line is redacted: the server gets the arguments as they were.
 */
public final class RedactedArgumentLog implements McpInterceptor {

    private final Set<String> secretFields;
    private final Consumer<String> log;

    public RedactedArgumentLog(Set<String> secretFields, Consumer<String> log) {
        this.secretFields = Set.copyOf(secretFields.stream().map(f -> f.toLowerCase(Locale.ROOT)).toList());
        this.log = log;
    }

    @Override
    public McpResponse intercept(Chain chain) throws InterruptedException {
        chain.request().toolName().ifPresent(tool -> log.accept("tools/call " + tool + " "
                + redact(chain.request().toolArguments().orElse(Map.of()))));
        return chain.proceed(chain.request());
    }

    private Object redact(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(k, secretFields.contains(String.valueOf(k).toLowerCase(Locale.ROOT))
                    ? "***" : redact(v)));
            return copy;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>();
            list.forEach(v -> copy.add(redact(v)));
            return copy;
        }
        return value;
    }
}
