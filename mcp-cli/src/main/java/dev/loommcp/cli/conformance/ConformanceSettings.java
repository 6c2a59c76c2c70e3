package dev.loommcp.cli.conformance;

import dev.loommcp.config.ProtocolMode;
import dev.loommcp.internal.json.Json;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * What the conformance suite tells its client through the environment: the scenario ({@value #SCENARIO_ENV}), the
 * protocol version the scenario runs at ({@value #PROTOCOL_VERSION_ENV}: the suite's {@code --spec-version}, or the
 * scenario's own version) and, for some scenarios, a JSON context ({@value #CONTEXT_ENV}, for example the tool calls
 * of {@code http-custom-headers}).
 *
 * @param scenario     the scenario name, never blank
 * @param protocolMode how the client picks the era: {@link #protocolMode(String)} of the protocol version
 * @param context      the scenario's context (a JSON object; empty when the suite gave none), unmodifiable
 */
record ConformanceSettings(String scenario, ProtocolMode protocolMode, Map<String, Object> context) {

    /** The environment variable naming the scenario. */
    static final String SCENARIO_ENV = "MCP_CONFORMANCE_SCENARIO";
    /** The environment variable naming the protocol version the scenario runs at (alpha.12 and later). */
    static final String PROTOCOL_VERSION_ENV = "MCP_CONFORMANCE_PROTOCOL_VERSION";
    /** The environment variable holding the scenario's context, a JSON object. */
    static final String CONTEXT_ENV = "MCP_CONFORMANCE_CONTEXT";

    /** One tool call a scenario's context asks for ({@code toolCalls} entries). */
    record ToolCall(String name, Map<String, Object> arguments) {
        ToolCall {
            Objects.requireNonNull(name, "name");
            // null values are kept (a null argument is part of what http-custom-headers checks)
            arguments = Collections.unmodifiableMap(new LinkedHashMap<>(arguments));
        }
    }

    ConformanceSettings {
        Objects.requireNonNull(scenario, "scenario");
        Objects.requireNonNull(protocolMode, "protocolMode");
        context = Collections.unmodifiableMap(new LinkedHashMap<>(context));
    }

    /**
     * Reads the settings from the environment.
     *
     * @param environment how to read an environment variable ({@code null} when unset)
     * @return the settings
     * @throws IllegalArgumentException naming the variable and what is wrong with it: no scenario, a protocol
     *                                  version this client does not speak, a context that is not a JSON object
     */
    static ConformanceSettings fromEnvironment(Function<String, String> environment) {
        String scenario = environment.apply(SCENARIO_ENV);
        if (scenario == null || scenario.isBlank()) {
            throw new IllegalArgumentException(SCENARIO_ENV + " is not set (the conformance suite sets it to the "
                    + "scenario's name)");
        }
        return new ConformanceSettings(scenario.trim(), protocolMode(environment.apply(PROTOCOL_VERSION_ENV)),
                context(environment.apply(CONTEXT_ENV)));
    }

    /**
     * Maps the suite's protocol version to the client's {@link ProtocolMode}: unset or blank → {@link
     * ProtocolMode#AUTO} (the client probes); a version → that version pinned ({@code 2026-07-28} is the modern era,
     * never falling back; a 2025 or older version is the legacy era, {@code initialize} offering it).
     *
     * @param version the variable's value, or {@code null}
     * @return the mode
     * @throws IllegalArgumentException when the value is not a protocol version this client speaks
     */
    static ProtocolMode protocolMode(String version) {
        if (version == null || version.isBlank()) {
            return ProtocolMode.AUTO;
        }
        String v = version.trim();
        if (!v.matches("\\d{4}-\\d{2}-\\d{2}")) {
            throw new IllegalArgumentException(PROTOCOL_VERSION_ENV + " is '" + version + "', not a protocol "
                    + "version such as " + ProtocolMode.MODERN_PROTOCOL_VERSION);
        }
        try {
            return ProtocolMode.pinned(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(PROTOCOL_VERSION_ENV + ": " + e.getMessage(), e);
        }
    }

    /**
     * Parses the suite's context.
     *
     * @param json the variable's value, or {@code null}
     * @return the context object (empty when unset or blank)
     * @throws IllegalArgumentException when the value is not a JSON object
     */
    static Map<String, Object> context(String json) {
        if (json == null || json.isBlank()) {
            return Map.of();
        }
        Object value;
        try {
            value = Json.read(json);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(CONTEXT_ENV + " is not valid JSON: " + e.getMessage(), e);
        }
        if (!(value instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException(CONTEXT_ENV + " must be a JSON object, not " + kind(value));
        }
        return stringKeys(map, CONTEXT_ENV);
    }

    /**
     * Returns the context's {@code toolCalls}: each {@code {name, arguments}} in the order given.
     *
     * @return the calls; empty when the context has none
     * @throws IllegalArgumentException when {@code toolCalls} is not a list of objects with a string {@code name} and
     *                                  an object (or absent) {@code arguments}
     */
    List<ToolCall> toolCalls() {
        Object raw = context.get("toolCalls");
        if (raw == null) {
            return List.of();
        }
        if (!(raw instanceof List<?> list)) {
            throw new IllegalArgumentException(CONTEXT_ENV + ": toolCalls must be a list, not " + kind(raw));
        }
        List<ToolCall> calls = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            String where = CONTEXT_ENV + ": toolCalls[" + i + "]";
            if (!(list.get(i) instanceof Map<?, ?> entry)) {
                throw new IllegalArgumentException(where + " must be an object, not " + kind(list.get(i)));
            }
            if (!(entry.get("name") instanceof String name) || name.isBlank()) {
                throw new IllegalArgumentException(where + " has no tool name");
            }
            Object args = entry.get("arguments");
            if (args != null && !(args instanceof Map<?, ?>)) {
                throw new IllegalArgumentException(where + ".arguments must be an object, not " + kind(args));
            }
            calls.add(new ToolCall(name, args == null ? Map.of() : stringKeys((Map<?, ?>) args, where)));
        }
        return List.copyOf(calls);
    }

    private static Map<String, Object> stringKeys(Map<?, ?> map, String what) {
        Map<String, Object> out = new LinkedHashMap<>();
        map.forEach((k, v) -> {
            if (!(k instanceof String key)) {
                throw new IllegalArgumentException(what + " has a key that is not a string");
            }
            out.put(key, v);
        });
        return out;
    }

    private static String kind(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof List<?>) {
            return "a list";
        }
        if (value instanceof Map<?, ?>) {
            return "an object";
        }
        return value instanceof String ? "a string" : value instanceof Boolean ? "a boolean" : "a number";
    }
}
