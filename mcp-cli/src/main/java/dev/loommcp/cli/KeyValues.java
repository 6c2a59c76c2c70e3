package dev.loommcp.cli;

import dev.loommcp.internal.json.Json;
import dev.loommcp.schema.PromptArgument;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The argument words of {@code call}, {@code prompt} and {@code request}: either one JSON object (or {@code -} for
 * stdin), or {@code KEY=VALUE} words, whose values are typed by the tool's input schema (JSON Schema), kept as
 * strings for a prompt, or inferred (JSON when the value parses as JSON, else a string) where there is no schema.
 * The rules are in docs/cli.md ("Arguments as KEY=VALUE"). Every problem is an {@link IllegalArgumentException}
 * whose message names the key, and for a value that does not fit, the expected type and the value (the caller turns
 * it into a usage error, exit 2).
 *
 * <p>Stateless; thread-safe.
 */
final class KeyValues {

    /** The longest value shown in an error message; longer ones are cut with {@code ...}. */
    private static final int SHOWN = 60;

    /** The JSON Schema types tried before {@code string} when a property allows several. */
    private static final List<String> NON_STRING = List.of("null", "boolean", "integer", "number", "array", "object");

    private KeyValues() {
    }

    /**
     * One {@code KEY=VALUE} word, split at its first {@code =}.
     *
     * @param key   the key, never empty
     * @param value the value as typed (may be empty)
     */
    record Pair(String key, String value) {
    }

    /**
     * The arguments as given: one JSON object ({@code json}, also {@code -} for stdin, or {@code null} when nothing
     * was given) or {@code KEY=VALUE} words ({@code pairs}, not empty).
     *
     * @param json  the JSON-object word, {@code -}, or {@code null}
     * @param pairs the {@code KEY=VALUE} words in order, empty in the JSON form
     */
    record Form(String json, List<Pair> pairs) {

        /** Whether the arguments were given as {@code KEY=VALUE} words. @return whether */
        boolean isPairs() {
            return !pairs.isEmpty();
        }
    }

    /**
     * Tells the two forms apart. A single word is the JSON form when it is {@code -}, starts (after blanks) with
     * {@code {}, or holds no {@code =} (so a malformed JSON object is reported as JSON); otherwise every word must be
     * {@code KEY=VALUE} with a non-empty key, each key at most once.
     *
     * @param words the words after the name, possibly {@code null}
     * @param what  what the words are, for messages ({@code "the tool arguments"})
     * @return the form
     * @throws IllegalArgumentException for a mix of the forms, a word that is not {@code KEY=VALUE}, an empty key or
     *                                  a key given twice
     */
    static Form parse(List<String> words, String what) {
        if (words == null || words.isEmpty()) {
            return new Form(null, List.of());
        }
        if (words.size() == 1 && isJsonWord(words.getFirst())) {
            return new Form(words.getFirst(), List.of());
        }
        List<Pair> pairs = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (String w : words) {
            if (w.equals("-") || w.strip().startsWith("{")) {
                throw new IllegalArgumentException(what + ": give either KEY=VALUE words or one JSON object (or - "
                        + "for stdin), not both");
            }
            int eq = w.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException(what + ": '" + shown(w) + "' is not KEY=VALUE (give KEY=VALUE "
                        + "words, or the arguments as one JSON object)");
            }
            if (eq == 0) {
                throw new IllegalArgumentException(what + ": '" + shown(w) + "' has an empty key (expected "
                        + "KEY=VALUE)");
            }
            String key = w.substring(0, eq);
            if (!seen.add(key)) {
                throw new IllegalArgumentException(what + ": '" + shown(key) + "' is given twice (give each key "
                        + "once; a list is one JSON array value, like " + shown(key) + "='[\"a\",\"b\"]')");
            }
            pairs.add(new Pair(key, w.substring(eq + 1)));
        }
        return new Form(null, List.copyOf(pairs));
    }

    private static boolean isJsonWord(String w) {
        return w.equals("-") || w.strip().startsWith("{") || w.indexOf('=') < 0;
    }

    /**
     * Types the words by a tool's input schema (see the class comment and docs/cli.md).
     *
     * @param pairs  the words
     * @param schema the tool's {@code inputSchema}, or {@code null} when unknown (every value is inferred)
     * @param what   who takes the arguments, for messages ({@code "tool 'add'"})
     * @return the arguments object, in the words' order
     * @throws IllegalArgumentException for a key the schema does not allow or a value that does not fit its type
     */
    static Map<String, Object> typed(List<Pair> pairs, Map<String, Object> schema, String what) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Pair p : pairs) {
            out.put(p.key(), schema == null ? inferred(p.value()) : convert(p, propertySchema(p.key(), schema, what)));
        }
        return out;
    }

    /**
     * Infers every value: JSON when it parses as JSON, else the string as typed (the {@code request} command and a
     * tool without a schema).
     *
     * @param pairs the words
     * @return the object, in the words' order
     */
    static Map<String, Object> inferred(List<Pair> pairs) {
        return typed(pairs, null, "");
    }

    /**
     * Takes the words as prompt arguments: every value is a string as typed; a key must be one of the prompt's
     * arguments when they are known.
     *
     * @param pairs     the words
     * @param arguments the prompt's arguments from {@code prompts/list}, or {@code null} when unknown
     * @param what      who takes the arguments, for messages ({@code "prompt 'greet'"})
     * @return the arguments, in the words' order
     * @throws IllegalArgumentException for a key the prompt does not have
     */
    static Map<String, String> strings(List<Pair> pairs, List<PromptArgument> arguments, String what) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Pair p : pairs) {
            if (arguments != null && arguments.stream().noneMatch(a -> p.key().equals(a.name()))) {
                throw unknownKey(p.key(), what, arguments.stream().map(PromptArgument::name).toList());
            }
            out.put(p.key(), p.value());
        }
        return out;
    }

    /**
     * The schema of one key: its property, a matching {@code patternProperties} entry, or
     * {@code additionalProperties}; an empty schema (infer) when the schema describes no properties at all.
     */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> propertySchema(String key, Map<String, Object> schema, String what) {
        Object props = schema.get("properties");
        if (props instanceof Map<?, ?> m && m.get(key) instanceof Map<?, ?> property) {
            return (Map<String, Object>) property;
        }
        if (schema.get("patternProperties") instanceof Map<?, ?> patterns) {
            for (Map.Entry<?, ?> e : patterns.entrySet()) {
                if (e.getKey() instanceof String regex && e.getValue() instanceof Map<?, ?> sub && matches(regex, key)) {
                    return (Map<String, Object>) sub;
                }
            }
        }
        Object additional = schema.get("additionalProperties");
        if (additional instanceof Map<?, ?> sub) {
            return (Map<String, Object>) sub;
        }
        if (Boolean.TRUE.equals(additional)
                || (additional == null && !(props instanceof Map<?, ?>) && !schema.containsKey("patternProperties"))) {
            return Map.of();
        }
        List<String> known = props instanceof Map<?, ?> m ? m.keySet().stream().map(String::valueOf).toList()
                : List.of();
        throw unknownKey(key, what, known);
    }

    private static boolean matches(String regex, String key) {
        try {
            return Pattern.compile(regex).matcher(key).find();
        } catch (PatternSyntaxException e) {
            return false;
        }
    }

    private static IllegalArgumentException unknownKey(String key, String what, List<String> known) {
        return new IllegalArgumentException(what + " has no argument '" + shown(key) + "' ("
                + (known.isEmpty() ? "it takes none" : "its arguments are: " + String.join(", ", known))
                + "; a JSON object is sent as it is)");
    }

    /** Converts one value by its property schema. */
    private static Object convert(Pair p, Map<String, Object> property) {
        Set<String> types = types(property);
        if (types.isEmpty()) {
            return inferred(p.value());
        }
        Object parsed = parseOrMissing(p.value());
        for (String type : NON_STRING) {
            if (types.contains(type)) {
                Object fit = fit(parsed, type);
                if (fit != MISSING) {
                    return fit;
                }
            }
        }
        if (types.contains("string")) {
            return p.value();
        }
        throw new IllegalArgumentException("argument '" + shown(p.key()) + "': expected "
                + String.join(" or ", types.stream().map(KeyValues::article).toList()) + ", got '" + shown(p.value())
                + "'" + (types.contains("array") || types.contains("object")
                ? " (give it as JSON, like " + shown(p.key()) + "='[\"a\",\"b\"]' or '{\"k\":\"v\"}')" : ""));
    }

    private static String article(String type) {
        return switch (type) {
            case "integer", "array", "object" -> "an " + type;
            case "null" -> "null";
            default -> "a " + type;
        };
    }

    /**
     * The JSON types a property allows: {@code type} (a name or a list of names); without it, the types of the
     * {@code anyOf}/{@code oneOf} branches when each names some, or of the {@code enum}/{@code const} values. Empty:
     * the schema says nothing usable (infer).
     */
    private static Set<String> types(Map<String, Object> property) {
        Set<String> types = new LinkedHashSet<>();
        Object type = property.get("type");
        if (type instanceof String s) {
            types.add(s);
        } else if (type instanceof List<?> list) {
            list.forEach(t -> types.add(String.valueOf(t)));
        } else if (property.get("enum") instanceof List<?> values) {
            values.forEach(v -> types.add(jsonType(v)));
        } else if (property.containsKey("const")) {
            types.add(jsonType(property.get("const")));
        } else {
            for (String combinator : List.of("anyOf", "oneOf")) {
                if (property.get(combinator) instanceof List<?> branches) {
                    for (Object b : branches) {
                        @SuppressWarnings("unchecked")
                        Set<String> branch = b instanceof Map<?, ?> m ? types((Map<String, Object>) m) : Set.of();
                        if (branch.isEmpty()) {
                            return Set.of();
                        }
                        types.addAll(branch);
                    }
                }
            }
        }
        if (types.contains("number")) {
            types.remove("integer"); // every integer is a number
        }
        return types;
    }

    private static String jsonType(Object v) {
        return switch (v) {
            case null -> "null";
            case String s -> "string";
            case Boolean b -> "boolean";
            case BigDecimal d -> "number";
            case Number n -> "integer";
            case List<?> l -> "array";
            default -> "object";
        };
    }

    /** Marks a value that is not JSON, or does not fit a type. */
    private static final Object MISSING = new Object();

    private static Object parseOrMissing(String text) {
        try {
            return Json.readExact(text);
        } catch (IllegalArgumentException e) {
            return MISSING;
        }
    }

    /** The value as the type, or {@link #MISSING} when it does not fit. */
    private static Object fit(Object parsed, String type) {
        return switch (type) {
            case "null" -> parsed == null ? null : MISSING;
            case "boolean" -> parsed instanceof Boolean ? parsed : MISSING;
            case "number" -> parsed instanceof Number ? parsed : MISSING;
            case "integer" -> integer(parsed);
            case "array" -> parsed instanceof List<?> ? parsed : MISSING;
            case "object" -> parsed instanceof Map<?, ?> ? parsed : MISSING;
            default -> MISSING;
        };
    }

    /** An integer (JSON Schema: a number with no fraction, so {@code 2.0} is one and is sent as {@code 2}). */
    private static Object integer(Object parsed) {
        if (parsed instanceof BigDecimal d) {
            try {
                BigInteger i = d.toBigIntegerExact();
                return i.bitLength() < 64 ? (Object) i.longValue() : i;
            } catch (ArithmeticException fraction) {
                return MISSING;
            }
        }
        return parsed instanceof Number ? parsed : MISSING;
    }

    /** A value with no usable type: JSON when it parses, else the string as typed. */
    private static Object inferred(String value) {
        Object parsed = parseOrMissing(value);
        return parsed == MISSING ? value : parsed;
    }

    /** A key or value for a message: control characters escaped, cut to {@value #SHOWN} characters. */
    private static String shown(String s) {
        String escaped = TerminalText.escape(s);
        return escaped.length() <= SHOWN ? escaped : escaped.substring(0, SHOWN - 3) + "...";
    }
}
