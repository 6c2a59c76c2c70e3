package dev.loommcp.internal.json;

import dev.loommcp.internal.json.plain.PlainJson;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JsonGenerator;

/**
 * Writes plain JSON values (maps, lists, strings, numbers, booleans, null, the SDK's records) straight to a Jackson
 * generator: the encoding half of {@link JsonRpcCodec}'s hot path, kept apart from the envelope and from decoding.
 * Stateless; thread-safe.
 */
final class PlainJsonWriter {

    private PlainJsonWriter() {
    }

    /** The deepest nesting {@link #write} writes; deeper (or cyclic) values are refused. */
    static final int MAX_WRITE_DEPTH = PlainJson.MAX_DEPTH;

    /**
     * Writes a plain JSON value straight to the generator (the hot path: no serializer look-up per value). The SDK's
     * own records and enums fall back to Jackson's data binding; any other object is refused ({@link PlainJson}),
     * with its path.
     */
    static void write(JsonGenerator g, Object v, int depth) {
        if (depth > MAX_WRITE_DEPTH) {
            throw new IllegalArgumentException("nesting deeper than " + MAX_WRITE_DEPTH
                    + " levels (or a cycle); use plain JSON values", null);
        }
        switch (v) {
            case null -> g.writeNull();
            case String s -> g.writeString(s);
            case PreEncodedJson m -> g.writeRawValue(m.json()); // an EncodedMap: encoded once, sent on every request
            case MapWithOneMore m -> writeWithOneMore(g, m, depth);
            case Map<?, ?> m -> { // the loop inline: one frame per level of nesting, up to MAX_WRITE_DEPTH
                g.writeStartObject();
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    if (!(e.getKey() instanceof String key)) {
                        throw PlainJson.keyRefusal(e.getKey());
                    }
                    g.writeName(key);
                    try {
                        write(g, e.getValue(), depth + 1);
                    } catch (PlainJson.NotJsonException x) {
                        throw x.underKey(key);
                    }
                }
                g.writeEndObject();
            }
            case List<?> l -> {
                g.writeStartArray();
                int i = 0;
                for (Object o : l) {
                    try {
                        write(g, o, depth + 1);
                    } catch (PlainJson.NotJsonException x) {
                        throw x.underIndex(i);
                    }
                    i++;
                }
                g.writeEndArray();
            }
            case Integer i -> g.writeNumber(i);
            case Long l -> g.writeNumber(l);
            case Boolean b -> g.writeBoolean(b);
            case Double d -> g.writeNumber(finite(d));
            case BigInteger b -> g.writeNumber(b);
            case BigDecimal b -> g.writeNumber(b);
            case Short n -> g.writeNumber(n);
            case Byte n -> g.writeNumber(n);
            case Float f -> g.writeNumber((float) finite(f));
            case Number n -> g.writeNumber(otherNumber(n));
            // the SDK's own records and enums: through data binding (loads the mapper on first use); anything
            // else is not a JSON value and is never bean-serialised
            default -> {
                if (!PlainJson.sdkType(v)) {
                    throw PlainJson.refusal(v);
                }
                write(g, Json.toPlain(v), depth + 1);
            }
        }
    }


    /**
     * Writes an object that is a map's members and one more (the modern era's params and their {@code _meta}): an
     * object at the top of a request, never nested, so its two frames do not add up per level.
     */
    private static void writeWithOneMore(JsonGenerator g, MapWithOneMore m, int depth) {
        g.writeStartObject();
        for (Map.Entry<String, Object> e : m.members().entrySet()) {
            if (!((Object) e.getKey() instanceof String key)) {
                throw PlainJson.keyRefusal(e.getKey());
            }
            writeMember(g, key, e.getValue(), depth);
        }
        writeMember(g, m.lastKey(), m.lastValue(), depth);
        g.writeEndObject();
    }

    /** Writes one member; a value that is not JSON is named by its key. */
    private static void writeMember(JsonGenerator g, String key, Object value, int depth) {
        g.writeName(key);
        try {
            write(g, value, depth + 1);
        } catch (PlainJson.NotJsonException x) {
            throw x.underKey(key);
        }
    }
    /** A {@code Number} of another class ({@code AtomicLong}, {@code LongAdder}...) as the decimal it prints. */
    private static BigDecimal otherNumber(Number n) {
        try {
            return new BigDecimal(n.toString());
        } catch (NumberFormatException e) {
            throw new PlainJson.NotJsonException(n.getClass().getTypeName() + " is a Number JSON cannot hold");
        }
    }

    /** JSON has no NaN or infinity: such a value is refused, never written as a string. */
    private static double finite(double d) {
        if (!Double.isFinite(d)) {
            throw new IllegalArgumentException("a number JSON cannot hold (" + d + "); use plain JSON values", null);
        }
        return d;
    }
}
