package dev.loommcp.internal.json;

import java.util.AbstractMap;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * An unmodifiable JSON object that keeps its own encoding: {@link JsonRpcCodec} writes the cached text as it is
 * instead of walking the map again. For the values the client sends unchanged on every request (the modern era's
 * {@code _meta} envelope: client capabilities, client info). To everything else it is an ordinary map (equality,
 * iteration, look-ups). Immutable; thread-safe.
 */
public final class EncodedMap extends AbstractMap<String, Object> {

    private final Map<String, Object> map;
    private final String json;

    private EncodedMap(Map<String, Object> map, String json) {
        this.map = map;
        this.json = json;
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
        return new EncodedMap(copy, Json.write(copy));
    }

    /** The JSON text of the object. */
    String json() {
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
