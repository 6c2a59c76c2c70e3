package dev.loommcp.internal.json.plain;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one Jackson mapper of loom-mcp, and the two conversions the protocol records need from it: a plain JSON value
 * into a record, with a message that never quotes the payload, and an SDK record into plain JSON values. It sits
 * below the records ({@code dev.loommcp.schema}) and the codec ({@code dev.loommcp.internal.json}, whose {@code Json}
 * hands these out to the rest of the SDK) and depends on neither, nor on the client API: a value that does not fit is
 * a {@link Mismatch}, which each caller throws on as its {@code McpProtocolException}. Stateless and thread-safe.
 */
public final class Binding {

    private Binding() {
    }

    /**
     * A plain JSON value that does not have the shape of the type it was converted into. Its message names what was
     * converted, the type and the JSON path, never a value of the payload; it has no cause (Jackson's message would
     * quote the value).
     */
    public static final class Mismatch extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Mismatch(String message) {
            super(message, null);
        }
    }

    /**
     * The shared mapper: thread-safe, unknown properties ignored, record component order kept. Built at its first use,
     * not when this class loads: building it costs 300 to 400 ms of a cold JVM, and the connect, {@code tools/call}
     * and the common listings never need it (they use the codec's streaming factory and its fast result readers).
     *
     * @return the mapper
     */
    public static JsonMapper mapper() {
        return Holder.MAPPER;
    }

    private static final class Holder {
        static final JsonMapper MAPPER = JsonMapper.builder()
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                .disable(tools.jackson.core.StreamWriteFeature.AUTO_CLOSE_TARGET)
                .build();
    }

    /**
     * Converts a plain JSON value (as read from the wire) into a record.
     *
     * @param value the plain value
     * @param type  the record type
     * @param what  what is converted, for the error message (for example {@code "tools/list result"})
     * @param <T>   the type
     * @return the record
     * @throws Mismatch when the value is {@code null} or does not have the record's shape (the message names the
     *                   JSON path, and a missing required member by its name)
     */
    public static <T> T convert(Object value, Class<T> type, String what) {
        if (value == null) {
            throw new Mismatch("malformed " + what + ": null instead of " + type.getSimpleName());
        }
        try {
            return mapper().convertValue(value, type);
        } catch (JacksonException e) {
            // Jackson's own message quotes the offending value: name the type and the JSON path instead
            String expected = "";
            if (e instanceof tools.jackson.databind.exc.InvalidTypeIdException t && t.getBaseType() != null) {
                expected = ", no known kind of " + t.getBaseType().getRawClass().getSimpleName();
            } else if (e instanceof tools.jackson.databind.exc.MismatchedInputException m
                    && m.getTargetType() != null && m.getTargetType() != type) {
                expected = ", expected " + m.getTargetType().getSimpleName();
            } else if (e instanceof tools.jackson.databind.exc.ValueInstantiationException
                    && e.getCause() instanceof NullPointerException npe && npe.getMessage() != null
                    && npe.getMessage().matches("[A-Za-z_][A-Za-z0-9_]*")) {
                expected = ": '" + npe.getMessage() + "' is missing"; // a record's Objects.requireNonNull(x, "x")
            }
            throw new Mismatch("malformed " + what + ": does not fit " + type.getName()
                    + pathOf(e) + " (" + e.getClass().getSimpleName() + expected + ")");
        } catch (IllegalArgumentException e) {
            throw new Mismatch("malformed " + what + ": does not fit " + type.getName()
                    + " (" + e.getClass().getSimpleName() + ")");
        }
    }

    /**
     * Returns {@code " at /a/0/b"} for a Jackson exception's JSON path, or an empty string when it has none.
     *
     * @param e the exception
     * @return the path description
     */
    public static String pathOf(JacksonException e) {
        StringBuilder path = new StringBuilder();
        for (JacksonException.Reference ref : e.getPath()) {
            if (ref.getPropertyName() != null) {
                path.append('/').append(ref.getPropertyName());
            } else if (ref.getIndex() >= 0) {
                path.append('/').append(ref.getIndex());
            }
        }
        return path.isEmpty() ? "" : " at " + path;
    }

    /**
     * Converts an SDK record (or a plain JSON value that may hold some) into plain JSON values. Only plain JSON
     * values and the SDK's own records and enums are converted ({@link PlainJson}): anything else, also inside a
     * record's free-form members, is refused, never bean-serialised.
     *
     * @param value the value
     * @return a {@code Map}, {@code List}, {@code String}, {@code Number}, {@code Boolean} or {@code null}
     * @throws IllegalArgumentException when the value holds something that is not a JSON value, naming its path
     *                                  (for example {@code content.when: java.lang.Thread is not a JSON value})
     */
    public static Object toPlain(Object value) {
        if (value == null || value instanceof String || value instanceof Number || value instanceof Boolean) {
            return value;
        }
        PlainJson.check(value, PlainJson.MAX_DEPTH);
        return mapper().convertValue(value, Object.class);
    }
}
