package dev.loommcp.internal.json;

import dev.loommcp.McpProtocolException;
import dev.loommcp.internal.json.plain.Binding;
import dev.loommcp.internal.json.plain.PlainJson;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one Jackson mapper of loom-mcp and conversions between plain JSON values ({@code Map}, {@code List},
 * {@code String}, {@code Number}, {@code Boolean}, {@code null}) and the protocol records, for the rest of the SDK: the
 * mapper and the record conversions are {@link Binding}'s (below the records, which use it too), reading and writing
 * text are this class's. Internal: Jackson never appears in the public API.
 */
public final class Json {

    /**
     * The shared mapper ({@link Binding#mapper()}): thread-safe, unknown properties ignored, record component order
     * kept, built at its first use.
     *
     * @return the mapper
     */
    public static JsonMapper mapper() {
        return Binding.mapper();
    }

    private Json() {
    }

    /**
     * Converts a plain JSON value (as read from the wire) into a record ({@link Binding#convert}).
     *
     * @param value the plain value
     * @param type  the record type
     * @param what  what is converted, for the error message (for example {@code "tools/list result"})
     * @param <T>   the type
     * @return the record
     * @throws McpProtocolException when the value is {@code null} or does not have the record's shape (the message
     *                              names the JSON path, and a missing required member by its name)
     */
    public static <T> T convert(Object value, Class<T> type, String what) {
        try {
            return Binding.convert(value, type, what);
        } catch (Binding.Mismatch e) {
            throw new McpProtocolException(e.getMessage()); // no cause: the message is all there is, payload-free
        }
    }

    /**
     * Returns {@code " at /a/0/b"} for a Jackson exception's JSON path, or an empty string when it has none.
     *
     * @param e the exception
     * @return the path description
     */
    public static String pathOf(JacksonException e) {
        return Binding.pathOf(e);
    }

    /**
     * Describes where a JSON text failed to parse (line and column) and the kind of failure, without quoting the
     * text: parse errors of server output must not leak payload data into messages or logs.
     *
     * @param e the exception
     * @return for example {@code "at line 1, column 17 (StreamReadException)"}
     */
    public static String parseProblem(JacksonException e) {
        var loc = e.getLocation();
        String where = loc == null ? "" : "at line " + loc.getLineNr() + ", column " + loc.getColumnNr() + " ";
        return where + "(" + e.getClass().getSimpleName() + ")";
    }

    /**
     * Says why a wire text could not be read, without quoting it: {@code "not valid JSON"} and
     * {@link #parseProblem}, or, for a text that breaks a read limit of the parser
     * ({@link tools.jackson.core.StreamReadConstraints}: nested deeper than 500 levels, a string or number too long),
     * which limit, in Jackson's words (they name the limit and the value that broke it, never the text).
     *
     * @param e    the exception
     * @param what what was read, with a trailing space ({@code "the result "}), or {@code ""} for the message
     * @return for example {@code "not valid JSON: the result at line 1, column 17 (StreamReadException)"} or
     *         {@code "JSON over a read limit of the parser at line 1, column 502: Document nesting depth (501)
     *         exceeds the maximum allowed (500, from `StreamReadConstraints.getMaxNestingDepth()`)"}
     */
    public static String unreadable(JacksonException e, String what) {
        if (e instanceof StreamConstraintsException) {
            var loc = e.getLocation();
            return "JSON over a read limit of the parser" + (what.isEmpty() ? "" : ": " + what.stripTrailing())
                    + (loc == null ? "" : " at line " + loc.getLineNr() + ", column " + loc.getColumnNr()) + ": "
                    + e.getOriginalMessage();
        }
        return "not valid JSON" + (what.isEmpty() ? " " : ": " + what) + parseProblem(e);
    }

    /**
     * Converts an SDK record (or a plain JSON value that may hold some) into plain JSON values
     * ({@link Binding#toPlain}). Only plain JSON values and the SDK's own records and enums are converted
     * ({@link PlainJson}): anything else, also inside a record's free-form members, is refused, never bean-serialised.
     *
     * @param value the value
     * @return a {@code Map}, {@code List}, {@code String}, {@code Number}, {@code Boolean} or {@code null}
     * @throws IllegalArgumentException when the value holds something that is not a JSON value, naming its path
     *                                  (for example {@code content.when: java.lang.Thread is not a JSON value})
     */
    public static Object toPlain(Object value) {
        return Binding.toPlain(value);
    }

    /**
     * Converts a record into a plain JSON object.
     *
     * @param value the value, which must serialize to a JSON object
     * @return the map
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> toPlainObject(Object value) {
        Object plain = toPlain(value);
        if (plain instanceof Map<?, ?> m) {
            return (Map<String, Object>) m;
        }
        throw new IllegalArgumentException("not a JSON object: " + (value == null ? "null" : value.getClass()));
    }

    /**
     * Returns a deeply unmodifiable copy of a plain JSON value: maps (keeping order and {@code null} values) and lists
     * are copied and wrapped at every level; other values are returned as they are.
     *
     * @param value the value
     * @return the copy
     */
    public static Object deepUnmodifiable(Object value) {
        if (value instanceof Map<?, ?> m) {
            java.util.LinkedHashMap<Object, Object> copy = new java.util.LinkedHashMap<>(m.size() * 2);
            for (Map.Entry<?, ?> e : m.entrySet()) {
                copy.put(e.getKey(), deepUnmodifiable(e.getValue()));
            }
            return java.util.Collections.unmodifiableMap(copy);
        }
        if (value instanceof List<?> l) {
            java.util.ArrayList<Object> copy = new java.util.ArrayList<>(l.size());
            for (Object o : l) {
                copy.add(deepUnmodifiable(o));
            }
            return java.util.Collections.unmodifiableList(copy);
        }
        return value;
    }

    /**
     * Writes a plain value or record as compact JSON text.
     *
     * @param value the value
     * @return the JSON text
     */
    public static String write(Object value) {
        return mapper().writeValueAsString(value);
    }

    /**
     * Writes a plain value or record as indented JSON text, for people.
     *
     * @param value the value
     * @return the JSON text
     */
    public static String writePretty(Object value) {
        return mapper().writerWithDefaultPrettyPrinter().writeValueAsString(value);
    }

    /**
     * Reads JSON text into plain values.
     *
     * @param text the text
     * @return the value
     * @throws IllegalArgumentException when the text is not valid JSON, saying where and what in words
     *                                  ({@link JsonSyntax#describe})
     */
    public static Object read(String text) {
        try {
            return mapper().readValue(text, Object.class);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("not valid JSON: " + JsonSyntax.describe(e), e);
        }
    }

    /**
     * Reads JSON text a person typed (CLI arguments, answers) into plain values, keeping every number exactly:
     * decimals become {@link java.math.BigDecimal} ({@code 0.1000000000000000055} stays so; {@code 1e999} is a number,
     * never a double's infinity), so the value goes out as it was typed. A name given twice in one object is refused
     * (data binding would keep the last value and drop the first without a word).
     *
     * @param text the text
     * @return the value
     * @throws IllegalArgumentException when the text is not valid JSON or repeats a name in an object, saying
     *                                  where (line, column) and what in words ({@link JsonSyntax#describe}; the
     *                                  repeated name is named)
     */
    public static Object readExact(String text) {
        try {
            return mapper().readerFor(Object.class).with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                    .with(StreamReadFeature.STRICT_DUPLICATE_DETECTION).readValue(text);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("not valid JSON: " + JsonSyntax.describe(e), e);
        }
    }

    /**
     * Returns Jackson's message without the source excerpt, which could hold payload data.
     *
     * @param e the exception
     * @return the first line of its original message
     */
    public static String shortMessage(Exception e) {
        String m = e instanceof JacksonException je ? je.getOriginalMessage() : e.getMessage();
        if (m == null) {
            return e.getClass().getSimpleName();
        }
        int nl = m.indexOf('\n');
        m = nl >= 0 ? m.substring(0, nl) : m;
        return m.length() > 200 ? m.substring(0, 200) + "..." : m;
    }
}
