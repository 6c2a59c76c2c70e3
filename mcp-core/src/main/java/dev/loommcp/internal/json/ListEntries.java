package dev.loommcp.internal.json;

import dev.loommcp.McpProtocolException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Decodes the entries of a list result ({@code tools/list}, {@code prompts/list}, {@code resources/list},
 * {@code resources/templates/list}, {@code tasks/list}) one by one, so that one malformed entry costs a server that
 * entry only: it is left out with one WARNING naming the method, the entry's index and what was wrong (never the
 * entry's content; that is logged at TRACE), and the well-formed entries are kept. A result whose envelope is
 * malformed (the array is missing or not an array) still fails whole. Stateless; thread-safe.
 */
public final class ListEntries {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");

    private ListEntries() {
    }

    /**
     * The well-formed entries of one list result.
     *
     * @param result the result object without the malformed entries (the same object when every entry was
     *               well-formed), so that raw and decoded entries stay aligned by index
     * @param items  the decoded entries, in server order
     * @param <T>    the entry type
     */
    public record Decoded<T>(Map<String, Object> result, List<T> items) {
    }

    /**
     * Decodes each entry of {@code result[key]}, leaving out (with a WARNING) those the decoder refuses.
     *
     * @param result  the result object as received
     * @param method  the list method, for messages
     * @param key     the key of the entries' array
     * @param decoder decodes one entry (its raw value and a description for messages); throws
     *                {@link McpProtocolException} for a malformed entry
     * @param <T>     the entry type
     * @return the kept raw result and the decoded entries
     * @throws McpProtocolException if {@code result[key]} is not an array; the message names the method and key
     */
    public static <T> Decoded<T> decode(Map<String, Object> result, String method, String key,
                                        BiFunction<Object, String, T> decoder) {
        if (!(result.get(key) instanceof List<?> list)) {
            throw new McpProtocolException("malformed " + method + " result: \"" + key + "\" is "
                    + JsonRpcCodec.kind(result.get(key)) + ", not an array");
        }
        List<T> items = new ArrayList<>(list.size());
        List<Object> kept = null;
        for (int i = 0; i < list.size(); i++) {
            Object raw = list.get(i);
            T item = null;
            String problem;
            if (raw instanceof Map) {
                try {
                    item = decoder.apply(raw, method + " entry /" + key + "/" + i);
                    problem = item == null ? "it decodes to nothing" : null;
                } catch (McpProtocolException e) {
                    problem = e.getMessage();
                }
            } else {
                problem = "it is " + JsonRpcCodec.kind(raw) + ", not an object";
            }
            if (problem == null) {
                items.add(item);
                if (kept != null) {
                    kept.add(raw);
                }
                continue;
            }
            if (kept == null) {
                kept = new ArrayList<>(list.subList(0, i));
            }
            int index = i;
            String why = problem;
            LOG.log(System.Logger.Level.WARNING, () -> method + ": entry " + index + " of \"" + key
                    + "\" left out, the other entries kept: " + why);
            LOG.log(System.Logger.Level.TRACE, () -> method + ": the entry left out: " + Json.write(raw));
        }
        if (kept == null) {
            return new Decoded<>(result, items);
        }
        Map<String, Object> copy = new LinkedHashMap<>(result);
        copy.put(key, Collections.unmodifiableList(kept));
        return new Decoded<>(Collections.unmodifiableMap(copy), items);
    }

    /**
     * Decodes each entry of {@code result[key]} to {@code type} through data binding, as {@link #decode}.
     *
     * @param result the result object as received
     * @param method the list method, for messages
     * @param key    the key of the entries' array
     * @param type   the entry type
     * @param <T>    the entry type
     * @return the kept raw result and the decoded entries
     * @throws McpProtocolException if {@code result[key]} is not an array
     */
    public static <T> Decoded<T> decode(Map<String, Object> result, String method, String key, Class<T> type) {
        return decode(result, method, key, (raw, what) -> Json.convert(raw, type, what));
    }

    /**
     * Returns the envelope of a list result: a copy with an empty array under {@code key}, to be decoded for
     * {@code nextCursor} and {@code _meta} once its entries were decoded one by one.
     *
     * @param result the result object
     * @param key    the key of the entries' array
     * @return the copy
     */
    public static Map<String, Object> envelope(Map<String, Object> result, String key) {
        Map<String, Object> copy = new LinkedHashMap<>(result);
        copy.put(key, List.of());
        return copy;
    }
}
