package dev.loommcp.internal.json;

import dev.loommcp.McpProtocolException;
import java.util.Collection;
import java.util.Map;
import java.util.Set;

/**
 * A response's result object kept as its UTF-8 text until someone reads it: what the fast path of
 * {@link JsonRpcCodec#decode(byte[], int, int)} hands over for a plain response, as a subclass that decodes with the
 * codec's strict reader (so that this class does not depend on the codec). The transport's reader thread,
 * through which every message passes, only matched its brackets; the thread that takes the result parses it, strictly
 * and once, into a {@code LinkedHashMap} of plain JSON values ({@link JsonRpcCodec#plainResult(Object)} returns that
 * map, or throws {@link McpProtocolException} when the text is not valid JSON). Every {@link Map} method works on the
 * decoded map (and throws that exception the same way), so code that treats the result as any other map sees no
 * difference.
 *
 * <p>Thread-safe as a value: the first reader decodes it and publishes the map through a volatile field (two threads
 * reading it first at once may each decode it; one map wins). Like every message's values it is treated as read-only
 * once handed over.
 */
abstract class LazyJsonObject implements Map<String, Object> {

    private final byte[] json;
    private volatile Map<String, Object> decoded;

    /**
     * @param json the object's text (UTF-8), its brackets matched; not copied
     */
    LazyJsonObject(byte[] json) {
        this.json = json;
    }

    /**
     * Decodes the object's text, strictly.
     *
     * @param json the text this object holds
     * @return the object as plain JSON values
     * @throws McpProtocolException when the text is not a valid JSON object
     */
    abstract Map<String, Object> decode(byte[] json);

    /**
     * The decoded object, decoding it on first use.
     *
     * @throws McpProtocolException when the text is not a valid JSON object
     */
    Map<String, Object> decoded() {
        Map<String, Object> m = decoded;
        if (m == null) {
            m = decode(json);
            decoded = m;
        }
        return m;
    }

    @Override
    public int size() {
        return decoded().size();
    }

    @Override
    public boolean isEmpty() {
        return decoded().isEmpty();
    }

    @Override
    public boolean containsKey(Object key) {
        return decoded().containsKey(key);
    }

    @Override
    public boolean containsValue(Object value) {
        return decoded().containsValue(value);
    }

    @Override
    public Object get(Object key) {
        return decoded().get(key);
    }

    @Override
    public Object put(String key, Object value) {
        return decoded().put(key, value);
    }

    @Override
    public Object remove(Object key) {
        return decoded().remove(key);
    }

    @Override
    public void putAll(Map<? extends String, ?> m) {
        decoded().putAll(m);
    }

    @Override
    public void clear() {
        decoded().clear();
    }

    @Override
    public Set<String> keySet() {
        return decoded().keySet();
    }

    @Override
    public Collection<Object> values() {
        return decoded().values();
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
        return decoded().entrySet();
    }

    @Override
    public boolean equals(Object o) {
        return o == this || decoded().equals(o instanceof LazyJsonObject l ? l.decoded() : o);
    }

    @Override
    public int hashCode() {
        return decoded().hashCode();
    }

    @Override
    public String toString() {
        return decoded().toString();
    }
}
