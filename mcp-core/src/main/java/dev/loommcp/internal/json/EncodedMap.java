package dev.loommcp.internal.json;

import java.util.AbstractMap;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import tools.jackson.core.SerializableString;
import tools.jackson.core.io.SerializedString;

/**
 * An unmodifiable JSON object that keeps its own encoding: {@link JsonRpcCodec} writes the cached text as it is
 * instead of walking the map again. For the values the client sends unchanged on every request (the modern era's
 * {@code _meta} envelope: client capabilities, client info). To everything else it is an ordinary map (equality,
 * iteration, look-ups). Immutable; thread-safe.
 */
public final class EncodedMap extends AbstractMap<String, Object> implements PreEncodedJson {

    private final Map<String, Object> map;
    /** The JSON text; its UTF-8 bytes are computed once and written as they are (no per-character encoding). */
    private final SerializedString json;

    private EncodedMap(Map<String, Object> map, String json) {
        this.map = map;
        this.json = new SerializedString(json);
        this.json.asUnquotedUTF8(); // encode now, not on the first request
    }

    /**
     * Copies a plain JSON object and encodes it once.
     *
     * @param map the object (plain JSON values only)
     * @return the encoded map
     * @throws NullPointerException     if {@code map} is {@code null}
     * @throws IllegalArgumentException if it holds a value that is not plain JSON
     */
    public static EncodedMap of(Map<String, Object> map) {
        Map<String, Object> copy = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(map, "map")));
        return new EncodedMap(copy, JsonRpcCodec.writeText(copy)); // streaming: connecting never waits for data binding
    }

    /** The JSON text of the object, with its UTF-8 bytes cached. */
    @Override
    public SerializableString json() {
        return json;
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
        return map.entrySet();
    }

    @Override
    public Object get(Object key) {
        return map.get(key);
    }

    @Override
    public boolean containsKey(Object key) {
        return map.containsKey(key);
    }

    @Override
    public int size() {
        return map.size();
    }
}
