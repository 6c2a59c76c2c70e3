package dev.loommcp.langchain4j;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonAnyOfSchema;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNullSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonReferenceSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import dev.loommcp.schema.Tool;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Converts MCP tool input schemas (JSON Schema as the server sent it, a plain {@code Map}) into LangChain4j's schema
 * tree ({@link JsonObjectSchema} and its elements), and MCP tools into {@link ToolSpecification}s.
 *
 * <p>The conversion is total: any map (or none) gives a {@link JsonObjectSchema}, never an exception, so one odd
 * schema never costs a server its other tools. What LangChain4j's tree cannot say is loosened, never guessed:
 * <ul>
 *   <li>the root is always an object; a root {@code anyOf}/{@code oneOf} beside {@code type: "object"} (allowed by the
 *       MCP schema since SEP-2106) keeps the root's properties, and the branches' properties are added as optional
 *       ones;</li>
 *   <li>{@code $ref} to {@code #/$defs/X} or {@code #/definitions/X} becomes a {@link JsonReferenceSchema} and the
 *       definitions are emitted under {@code $defs}; any other local reference ({@code #/properties/a}, a nested
 *       {@code $defs}) is inlined (a cycle or a reference that does not resolve accepts anything); a remote reference,
 *       and a definition that only refers on to another one and so back to itself (A to B to A), accept anything;</li>
 *   <li>{@code type: [a, b]}, {@code anyOf} and {@code oneOf} become {@link JsonAnyOfSchema} ({@code oneOf}'s
 *       exclusivity is dropped); {@code allOf} is merged into one schema;</li>
 *   <li>an absent or unknown {@code type} with nothing to infer it from accepts anything (any of string, number,
 *       integer, boolean, object, array, null); an array without {@code items} (or {@code items: {}}) has items that
 *       accept anything;</li>
 *   <li>a string {@code enum} becomes {@link JsonEnumSchema}; a non-string one (numbers, booleans, integers beyond
 *       64 bits) keeps its type (its declared {@code type}, else the one its values share) and lists the allowed
 *       values, digit for digit, in the description; values of mixed types ({@code [1, "a", true, {}]}) give a
 *       schema that accepts anything, with the values listed; a {@code null} among typed values adds a null
 *       branch;</li>
 *   <li>{@code format}, {@code pattern}, {@code minimum}/{@code maximum} (big numbers exactly), {@code minLength},
 *       {@code maxLength}, {@code minItems}, {@code maxItems}, {@code const} and {@code default} are appended to the
 *       description in parentheses, since the tree has no field for them;</li>
 *   <li>a schema-valued {@code additionalProperties} is left unset (JSON Schema: allowed), never turned into
 *       {@code false}.</li>
 * </ul>
 * {@link #toToolSpecification} keeps the original schema unchanged in the specification's metadata under
 * {@link #INPUT_SCHEMA_METADATA_KEY}, so nothing is lost for code that needs the exact schema.
 *
 * <p>Stateless and thread-safe.
 */
public final class LangChain4jSchemas {

    /** The {@link ToolSpecification#metadata()} key that holds the MCP tool's input schema unchanged. */
    public static final String INPUT_SCHEMA_METADATA_KEY = "mcp.inputSchema";

    /** Nesting deeper than this accepts anything below (a guard against hostile schemas). */
    private static final int MAX_DEPTH = 64;

    private static final List<String> HINT_KEYWORDS = List.of("format", "pattern", "minimum", "maximum",
            "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems", "const",
            "default");

    private LangChain4jSchemas() {
    }

    /**
     * Converts an MCP tool's {@code inputSchema} into LangChain4j tool parameters. Never throws for the schema's
     * content (see the class comment for what is loosened).
     *
     * @param inputSchema the schema as the server sent it, or {@code null} (no parameters)
     * @return the parameters: an object schema, with {@code $defs} when the schema references definitions
     */
    public static JsonObjectSchema toParameters(@Nullable Map<String, ? extends @Nullable Object> inputSchema) {
        Map<String, @Nullable Object> root = inputSchema == null ? Map.of() : asMap(inputSchema);
        Converter c = new Converter(root);
        return c.root();
    }

    /**
     * Converts an MCP tool into a LangChain4j tool specification under the given name: the tool's description (its
     * title when it has no description), {@link #toParameters its parameters}, and the original input schema in the
     * metadata under {@link #INPUT_SCHEMA_METADATA_KEY}.
     *
     * @param name the name the model sees (for example the namespaced {@code server__tool})
     * @param tool the tool as the server listed it
     * @return the specification
     */
    public static ToolSpecification toToolSpecification(String name, Tool tool) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(tool, "tool");
        String description = tool.description() != null ? tool.description() : tool.title();
        ToolSpecification.Builder b = ToolSpecification.builder().name(name).parameters(toParameters(
                tool.inputSchema()));
        if (description != null) {
            b.description(description);
        }
        if (tool.inputSchema() != null) {
            b.addMetadata(INPUT_SCHEMA_METADATA_KEY, tool.inputSchema());
        }
        return b.build();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, @Nullable Object> asMap(Map<String, ? extends @Nullable Object> map) {
        return (Map<String, @Nullable Object>) map;
    }

    /** One conversion: the root (for local references) and the definitions met so far. */
    private static final class Converter {
        private final Map<String, @Nullable Object> root;
        private final Map<String, @Nullable Object> defs = new LinkedHashMap<>();
        private final Map<String, JsonSchemaElement> convertedDefs = new LinkedHashMap<>();
        private final Set<String> inlining = new HashSet<>();

        Converter(Map<String, @Nullable Object> root) {
            this.root = root;
            // "#/definitions/X" (draft 7) and "#/$defs/X" (2019-09+) both end up under "$defs"; $defs wins a clash
            for (String key : List.of("definitions", "$defs")) {
                if (root.get(key) instanceof Map<?, ?> m) {
                    m.forEach((k, v) -> {
                        if (k instanceof String s) {
                            defs.put(s, v);
                        }
                    });
                }
            }
        }

        JsonObjectSchema root() {
            Map<String, @Nullable Object> merged = mergeAllOf(root, 0);
            JsonObjectSchema.Builder b = JsonObjectSchema.builder();
            Map<String, JsonSchemaElement> props = new LinkedHashMap<>();
            Set<String> required = new LinkedHashSet<>(strings(merged.get("required")));
            addProperties(merged, props, 0);
            // SEP-2106: anyOf / oneOf beside type object at the root: the branches' properties become optional
            for (String key : List.of("anyOf", "oneOf")) {
                if (merged.get(key) instanceof List<?> branches) {
                    for (Object branch : branches) {
                        Object resolved = resolveLocal(branch);
                        if (resolved instanceof Map<?, ?> m) {
                            Map<String, JsonSchemaElement> branchProps = new LinkedHashMap<>();
                            addProperties(asMap(castMap(m)), branchProps, 1);
                            branchProps.forEach(props::putIfAbsent);
                        }
                    }
                }
            }
            finishObject(b, props, required, merged);
            String description = describe(merged);
            if (description != null) {
                b.description(description);
            }
            if (!convertedDefs.isEmpty()) {
                b.definitions(new LinkedHashMap<>(convertedDefs));
            }
            return b.build();
        }

        private void finishObject(JsonObjectSchema.Builder b, Map<String, JsonSchemaElement> props,
                                  Set<String> required, Map<String, @Nullable Object> node) {
            for (String name : required) {
                props.putIfAbsent(name, any(null)); // required but not described: still a property
            }
            b.addProperties(props);
            if (!required.isEmpty()) {
                b.required(new ArrayList<>(required));
            }
            if (node.get("additionalProperties") instanceof Boolean allowed) {
                b.additionalProperties(allowed);
            }
        }

        private void addProperties(Map<String, @Nullable Object> node, Map<String, JsonSchemaElement> into,
                                   int depth) {
            if (node.get("properties") instanceof Map<?, ?> properties) {
                properties.forEach((k, v) -> {
                    if (k instanceof String name) {
                        into.put(name, element(v, depth + 1));
                    }
                });
            }
        }

        JsonSchemaElement element(@Nullable Object node, int depth) {
            if (depth > MAX_DEPTH || !(node instanceof Map<?, ?> raw)) {
                return any(null); // true, false, junk: nothing a model can use beyond "anything"
            }
            Map<String, @Nullable Object> m = mergeAllOf(asMap(castMap(raw)), depth);
            if (m.get("$ref") instanceof String ref) {
                return reference(ref, m, depth);
            }
            String description = describe(m);
            Object type = m.get("type");
            if (type instanceof List<?> types) {
                List<JsonSchemaElement> branches = new ArrayList<>();
                for (Object t : types) {
                    if (t instanceof String s) {
                        Map<String, @Nullable Object> one = new LinkedHashMap<>(m);
                        one.put("type", s);
                        one.remove("description");
                        branches.add(element(one, depth + 1));
                    }
                }
                return anyOf(branches, description);
            }
            boolean objectLike = "object".equals(type) || (type == null && m.get("properties") instanceof Map);
            if (!objectLike) {
                for (String key : List.of("anyOf", "oneOf")) {
                    if (m.get(key) instanceof List<?> list) {
                        List<JsonSchemaElement> branches = new ArrayList<>();
                        for (Object branch : list) {
                            branches.add(element(branch, depth + 1));
                        }
                        return anyOf(branches, description);
                    }
                }
            }
            if (m.get("enum") instanceof List<?> values && !values.isEmpty()) {
                return enumeration(values, type, description);
            }
            if (type == null) {
                type = objectLike ? "object" : m.containsKey("items") || m.containsKey("prefixItems") ? "array"
                        : m.get("const") instanceof String ? "string" : null;
            }
            if (!(type instanceof String t)) {
                return any(description);
            }
            return switch (t) {
                case "string" -> m.get("const") instanceof String s
                        ? JsonEnumSchema.builder().enumValues(s).description(description).build()
                        : JsonStringSchema.builder().description(description).build();
                case "integer" -> JsonIntegerSchema.builder().description(description).build();
                case "number" -> JsonNumberSchema.builder().description(description).build();
                case "boolean" -> JsonBooleanSchema.builder().description(description).build();
                case "null" -> new JsonNullSchema();
                case "array" -> array(m, description, depth);
                case "object" -> object(m, description, depth);
                default -> any(description);
            };
        }

        private JsonSchemaElement array(Map<String, @Nullable Object> m, @Nullable String description, int depth) {
            Object items = m.get("items");
            JsonSchemaElement itemSchema;
            if (items instanceof List<?> tuple) { // draft-07 tuple form
                List<JsonSchemaElement> branches = new ArrayList<>();
                tuple.forEach(i -> branches.add(element(i, depth + 1)));
                itemSchema = anyOf(branches, null);
            } else if (items instanceof Map<?, ?> one && !one.isEmpty()) {
                itemSchema = element(one, depth + 1);
            } else if (m.get("prefixItems") instanceof List<?> prefix && !prefix.isEmpty()) {
                List<JsonSchemaElement> branches = new ArrayList<>();
                prefix.forEach(i -> branches.add(element(i, depth + 1)));
                itemSchema = anyOf(branches, null);
            } else {
                itemSchema = any(null);
            }
            return JsonArraySchema.builder().description(description).items(itemSchema).build();
        }

        private JsonObjectSchema object(Map<String, @Nullable Object> m, @Nullable String description, int depth) {
            JsonObjectSchema.Builder b = JsonObjectSchema.builder().description(description);
            Map<String, JsonSchemaElement> props = new LinkedHashMap<>();
            addProperties(m, props, depth);
            finishObject(b, props, new LinkedHashSet<>(strings(m.get("required"))), m);
            return b.build();
        }

        private JsonSchemaElement enumeration(List<?> values, @Nullable Object type, @Nullable String description) {
            List<String> strings = new ArrayList<>();
            boolean hasNull = false;
            boolean allStrings = true;
            for (Object v : values) {
                if (v == null) {
                    hasNull = true;
                } else if (v instanceof String s) {
                    strings.add(s);
                } else {
                    allStrings = false;
                }
            }
            if (allStrings && !strings.isEmpty()) {
                JsonEnumSchema e = JsonEnumSchema.builder().enumValues(strings).description(description).build();
                return hasNull ? anyOf(List.of(e, new JsonNullSchema()), null) : e;
            }
            // non-string values: keep their type when they share one, list them exactly (big integers digit for
            // digit); values of mixed types (1, "a", true, {}) get no type, so every one of them is accepted
            String listed = values.stream().map(v -> v == null ? "null" : v instanceof String s ? quote(s)
                    : v instanceof Map || v instanceof List ? Contents.JSON.writeValueAsString(v)
                    : String.valueOf(v)).collect(Collectors.joining(", "));
            String d = (description == null ? "" : description + " ") + "(one of: " + listed + ")";
            Set<String> kinds = new LinkedHashSet<>();
            values.stream().filter(Objects::nonNull).forEach(v -> kinds.add(v instanceof String ? "string"
                    : v instanceof Boolean ? "boolean" : v instanceof Number n ? (isIntegral(n) ? "integer" : "number")
                    : "other"));
            if (kinds.equals(Set.of("integer", "number"))) {
                kinds.remove("integer");
            }
            String t = type instanceof String s ? s : kinds.size() == 1 ? kinds.iterator().next() : null;
            @Nullable JsonSchemaElement typed = switch (t == null ? "" : t) {
                case "integer" -> JsonIntegerSchema.builder().description(d).build();
                case "number" -> JsonNumberSchema.builder().description(d).build();
                case "boolean" -> JsonBooleanSchema.builder().description(d).build();
                case "string" -> JsonStringSchema.builder().description(d).build();
                default -> null;
            };
            if (typed == null) {
                return any(d);
            }
            return hasNull && !"null".equals(t) ? anyOf(List.of(typed, new JsonNullSchema()), null) : typed;
        }

        private JsonSchemaElement reference(String ref, Map<String, @Nullable Object> node, int depth) {
            for (String prefix : List.of("#/$defs/", "#/definitions/")) {
                if (ref.startsWith(prefix)) {
                    String key = unescape(ref.substring(prefix.length()));
                    if (!key.contains("/") && defs.containsKey(key)) {
                        if (aliasLoop(key)) {
                            return any(describe(node)); // A -> B -> A with no content: nothing to refer to
                        }
                        defineOnce(key, depth);
                        return JsonReferenceSchema.builder().reference(key).build();
                    }
                }
            }
            // any other local pointer (#/properties/a, a nested $defs): inlined, once per path (a cycle: anything)
            if (ref.startsWith("#") && !inlining.contains(ref)) {
                Object target = pointer(ref);
                if (target instanceof Map<?, ?> resolved) {
                    inlining.add(ref);
                    try {
                        Map<String, @Nullable Object> merged = new LinkedHashMap<>(asMap(castMap(resolved)));
                        if (node.get("description") instanceof String d) {
                            merged.put("description", d); // the referring schema's own description wins
                        }
                        return element(merged, depth + 1);
                    } finally {
                        inlining.remove(ref);
                    }
                }
            }
            return any(describe(node));
        }

        /** Whether the definition is a chain of pure references ({@code $ref} only) that comes back to itself. */
        private boolean aliasLoop(String key) {
            Set<String> seen = new HashSet<>();
            String at = key;
            while (seen.add(at)) {
                if (!(defs.get(at) instanceof Map<?, ?> def) || def.size() != 1
                        || !(def.get("$ref") instanceof String next)) {
                    return false;
                }
                String target = null;
                for (String prefix : List.of("#/$defs/", "#/definitions/")) {
                    if (next.startsWith(prefix)) {
                        target = unescape(next.substring(prefix.length()));
                    }
                }
                if (target == null || !defs.containsKey(target)) {
                    return false;
                }
                at = target;
            }
            return true;
        }

        private void defineOnce(String key, int depth) {
            if (convertedDefs.containsKey(key)) {
                return;
            }
            convertedDefs.put(key, any(null)); // placeholder: a definition that refers to itself stays a reference
            convertedDefs.put(key, element(defs.get(key), depth + 1));
        }

        private @Nullable Object resolveLocal(@Nullable Object node) {
            if (node instanceof Map<?, ?> m && m.get("$ref") instanceof String ref && ref.startsWith("#")) {
                return pointer(ref);
            }
            return node;
        }

        private @Nullable Object pointer(String ref) {
            String path = ref.substring(1);
            Object at = root;
            if (path.isEmpty()) {
                return at;
            }
            if (!path.startsWith("/")) {
                return null; // "#anchor": not supported
            }
            for (String raw : path.substring(1).split("/", -1)) {
                String token = unescape(raw);
                if (at instanceof Map<?, ?> m) {
                    at = m.get(token);
                } else if (at instanceof List<?> l) {
                    try {
                        int i = Integer.parseInt(token);
                        at = i >= 0 && i < l.size() ? l.get(i) : null;
                    } catch (NumberFormatException e) {
                        return null;
                    }
                } else {
                    return null;
                }
            }
            return at;
        }

        /** Merges {@code allOf} branches (references resolved) into one schema: properties and required united. */
        private Map<String, @Nullable Object> mergeAllOf(Map<String, @Nullable Object> m, int depth) {
            if (!(m.get("allOf") instanceof List<?> all) || depth > MAX_DEPTH) {
                return m;
            }
            Map<String, @Nullable Object> merged = new LinkedHashMap<>(m);
            merged.remove("allOf");
            Map<String, @Nullable Object> props = new LinkedHashMap<>();
            Set<String> required = new LinkedHashSet<>();
            for (Object branch : all) {
                Object resolved = resolveLocal(branch);
                if (resolved instanceof Map<?, ?> raw) {
                    Map<String, @Nullable Object> b = mergeAllOf(asMap(castMap(raw)), depth + 1);
                    b.forEach(merged::putIfAbsent);
                    if (b.get("properties") instanceof Map<?, ?> p) {
                        p.forEach((k, v) -> props.putIfAbsent(String.valueOf(k), v));
                    }
                    required.addAll(strings(b.get("required")));
                }
            }
            if (m.get("properties") instanceof Map<?, ?> own) {
                own.forEach((k, v) -> props.put(String.valueOf(k), v));
            }
            required.addAll(strings(m.get("required")));
            if (!props.isEmpty()) {
                merged.put("properties", props);
            }
            if (!required.isEmpty()) {
                merged.put("required", new ArrayList<>(required));
            }
            return merged;
        }

        private static JsonSchemaElement anyOf(List<JsonSchemaElement> branches, @Nullable String description) {
            if (branches.isEmpty()) {
                return any(description);
            }
            if (branches.size() == 1 && description == null) {
                return branches.getFirst();
            }
            return JsonAnyOfSchema.builder().description(description).anyOf(branches).build();
        }
    }

    /** The "accept anything" element: any JSON value. */
    static JsonSchemaElement any(@Nullable String description) {
        return JsonAnyOfSchema.builder().description(description).anyOf(
                new JsonStringSchema(), new JsonNumberSchema(), new JsonIntegerSchema(), new JsonBooleanSchema(),
                JsonObjectSchema.builder().build(),
                JsonArraySchema.builder().items(JsonAnyOfSchema.builder().anyOf(new JsonStringSchema(),
                        new JsonNumberSchema(), new JsonBooleanSchema(), JsonObjectSchema.builder().build()).build())
                        .build(),
                new JsonNullSchema()).build();
    }

    /** The schema's description with the constraints the tree cannot carry appended, or {@code null}. */
    private static @Nullable String describe(Map<String, @Nullable Object> m) {
        String base = m.get("description") instanceof String d ? d
                : m.get("title") instanceof String t ? t : null;
        List<String> hints = new ArrayList<>();
        for (String key : HINT_KEYWORDS) {
            if (m.containsKey(key)) {
                Object v = m.get(key);
                hints.add(key + ": " + (v instanceof String s ? quote(s) : String.valueOf(v)));
            }
        }
        if (hints.isEmpty()) {
            return base;
        }
        return (base == null ? "" : base + " ") + "(" + String.join(", ", hints) + ")";
    }

    private static boolean isIntegral(Number n) {
        return n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte
                || n instanceof java.math.BigInteger;
    }

    private static String quote(String s) {
        return '"' + s + '"';
    }

    private static List<String> strings(@Nullable Object value) {
        List<String> out = new ArrayList<>();
        if (value instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof String s) {
                    out.add(s);
                }
            }
        }
        return out;
    }

    private static String unescape(String token) {
        String decoded = token;
        if (token.indexOf('%') >= 0) {
            try {
                decoded = URLDecoder.decode(token.replace("+", "%2B"), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                decoded = token; // a malformed escape: the token as written
            }
        }
        return decoded.replace("~1", "/").replace("~0", "~");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, ? extends @Nullable Object> castMap(Map<?, ?> m) {
        return (Map<String, ? extends @Nullable Object>) m;
    }
}
