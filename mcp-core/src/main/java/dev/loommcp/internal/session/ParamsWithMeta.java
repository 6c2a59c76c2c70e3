package dev.loommcp.internal.session;

import dev.loommcp.internal.json.MapWithOneMore;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * A request's params as sent in the modern era when the caller's params have no {@code _meta}: the caller's members
 * in their order, then {@code "_meta"} with the request's envelope. A read-only view, not a copy: the common modern
 * request ({@link Envelope#wrap}) costs no copy of its params. It is an ordinary {@link Map} to every reader (look-ups,
 * iteration, equality with any map of the same members); it rejects changes. Thread-safe as far as the caller's map
 * is: the params of a request are not changed once it is sent. The codec writes it as the caller's members and one more
 * ({@link MapWithOneMore}), without wrapping each entry.
 */
final class ParamsWithMeta extends AbstractMap<String, Object> implements MapWithOneMore {

    private static final String META = "_meta";

    private final Map<String, Object> params;
    private final Map<String, Object> meta;
    private final Set<Entry<String, Object>> entries = new Entries();

    /**
     * @param params the caller's params, without a {@code "_meta"} key (not copied)
     * @param meta   the value of {@code "_meta"}
     */
    ParamsWithMeta(Map<String, Object> params, Map<String, Object> meta) {
        this.params = params;
        this.meta = meta;
    }

    // a key that is not a String is never looked up in the caller's map (an immutable one throws on null): JSON
    // keys are strings, and such a key is refused when the params are written
    @Override
    public Object get(Object key) {
        return META.equals(key) ? meta : key instanceof String ? params.get(key) : null;
    }

    @Override
    public boolean containsKey(Object key) {
        return META.equals(key) || key instanceof String && params.containsKey(key);
    }

    @Override
    public int size() {
        return params.size() + 1;
    }

    @Override
    public Map<String, Object> members() {
        return params;
    }

    @Override
    public String lastKey() {
        return META;
    }

    @Override
    public Object lastValue() {
        return meta;
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
        return entries;
    }

    private final class Entries extends AbstractSet<Entry<String, Object>> {
        @Override
        public int size() {
            return ParamsWithMeta.this.size();
        }

        @Override
        public Iterator<Entry<String, Object>> iterator() {
            Iterator<Entry<String, Object>> callers = params.entrySet().iterator();
            return new Iterator<>() {
                private boolean metaDone;

                @Override
                public boolean hasNext() {
                    return !metaDone;
                }

                @Override
                public Entry<String, Object> next() {
                    if (callers.hasNext()) {
                        Entry<String, Object> e = callers.next();
                        return new SimpleImmutableEntry<>(e.getKey(), e.getValue());
                    }
                    if (metaDone) {
                        throw new NoSuchElementException();
                    }
                    metaDone = true;
                    return new SimpleImmutableEntry<>(META, meta);
                }
            };
        }
    }
}
