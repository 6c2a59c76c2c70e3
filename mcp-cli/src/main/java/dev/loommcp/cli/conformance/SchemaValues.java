package dev.loommcp.cli.conformance;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plausible values for a JSON Schema, for scenarios whose server asks for input the suite does not specify: the
 * arguments of a tool call (the required properties) and the content of an accepted elicitation form (every
 * property). A value is the schema's {@code default}, else its {@code const}, else its first {@code enum} entry,
 * else one by type: a string {@value #TEXT}, a number or integer its {@code minimum} or 1, {@code true}, an empty
 * list or object, {@code null}. Stateless.
 */
final class SchemaValues {

    /** The text given for a string without a default. */
    static final String TEXT = "conformance";

    private SchemaValues() {
    }

    /**
     * Returns arguments for a tool: one value for each required property of its input schema.
     *
     * @param inputSchema the tool's input schema, or {@code null}
     * @return the arguments (modifiable, in the schema's order)
     */
    static Map<String, Object> requiredArguments(Map<String, Object> inputSchema) {
        return object(inputSchema, true);
    }

    /**
     * Returns the content of an accepted form: one value for every property of the requested schema.
     *
     * @param requestedSchema the form's schema, or {@code null}
     * @return the content (modifiable, in the schema's order)
     */
    static Map<String, Object> formContent(Map<String, Object> requestedSchema) {
        return object(requestedSchema, false);
    }

    private static Map<String, Object> object(Map<String, Object> schema, boolean requiredOnly) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (schema == null || !(schema.get("properties") instanceof Map<?, ?> properties)) {
            return out;
        }
        List<?> required = schema.get("required") instanceof List<?> r ? r : List.of();
        properties.forEach((name, property) -> {
            if (name instanceof String key && (!requiredOnly || required.contains(key))) {
                out.put(key, value(property instanceof Map<?, ?> m ? m : Map.of()));
            }
        });
        return out;
    }

    private static Object value(Map<?, ?> schema) {
        if (schema.containsKey("default")) {
            return schema.get("default");
        }
        if (schema.containsKey("const")) {
            return schema.get("const");
        }
        if (schema.get("enum") instanceof List<?> values && !values.isEmpty()) {
            return values.getFirst();
        }
        Object type = schema.get("type");
        if (type instanceof List<?> types) {
            type = types.stream().<Object>map(t -> t).filter(t -> !"null".equals(t)).findFirst().orElse("null");
        }
        return switch (type instanceof String t ? t : "string") {
            case "integer", "number" -> schema.get("minimum") instanceof Number min ? min : 1;
            case "boolean" -> true;
            case "array" -> List.of();
            case "object" -> Map.of();
            case "null" -> null;
            default -> TEXT;
        };
    }
}
