package dev.loommcp.internal.json.plain;

import java.util.AbstractMap;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A JSON object that nothing can change, down to its last nested value: every nested object and array is
 * unmodifiable too. The codec keeps a repeated result {@code _meta} as one ({@code JsonRpcCodec}), so the records
 * built from a result can share it instead of copying it ({@code Copies.map} in {@code dev.loommcp.schema}). To
 * every reader an ordinary map (key order kept, {@code null} values kept, equality with any map of the same members);
 * every change throws {@link UnsupportedOperationException}. Immutable; thread-safe.
 */
public final class FrozenJsonObject extends AbstractMap<String, Object> {

    private final Map<String, Object> members;

    /**
     * Creates the object.
     *
     * @param members the members, whose values are already frozen (nested objects and arrays unmodifiable); copied
     */
    public FrozenJsonObject(Map<String, Object> members) {
        this.members = Collections.unmodifiableMap(new LinkedHashMap<>(members));
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
        return members.entrySet();
    }

    @Override
    public Object get(Object key) {
        return members.get(key);
    }

    @Override
    public boolean containsKey(Object key) {
        return members.containsKey(key);
    }

    @Override
    public int size() {
        return members.size();
    }
}
