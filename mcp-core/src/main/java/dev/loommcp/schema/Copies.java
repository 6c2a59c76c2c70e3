package dev.loommcp.schema;

import dev.loommcp.internal.json.plain.FrozenJsonObject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Shallow, order-keeping, unmodifiable copies for record components. {@code null} stays {@code null}; unlike
 * {@link List#copyOf} and {@link Map#copyOf}, JSON {@code null} values inside free-form JSON are kept.
 */
final class Copies {

    private Copies() {
    }

    /** Copies a list of records; a {@code null} element is rejected (it is malformed JSON for a typed array). */
    static <T> List<T> list(List<T> list) {
        return list == null ? null : List.copyOf(list);
    }

    /** Copies a free-form JSON array, keeping {@code null} elements. */
    static <T> List<T> plainList(List<T> list) {
        return list == null ? null : Collections.unmodifiableList(new ArrayList<>(list));
    }

    /**
     * Copies a free-form JSON object, keeping key order and {@code null} values; one that nothing can change (a
     * {@link FrozenJsonObject}, the codec's repeated result {@code _meta}) is shared as it is.
     */
    static <V> Map<String, V> map(Map<String, V> map) {
        if (map instanceof FrozenJsonObject) {
            return map;
        }
        return map == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }
}
