package dev.loommcp.internal.session.base;

import dev.loommcp.McpProtocolException;
import dev.loommcp.internal.json.JsonRpcCodec;
import java.util.LinkedHashMap;
import java.util.Map;

/** Building request params and reading result objects: {@code _meta} merging and the object check. */
public final class Params {

    private Params() {
    }

    /**
     * The result as a JSON object.
     *
     * @throws McpProtocolException if the result is not an object
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> asObject(Object result, String method) {
        if (result instanceof Map<?, ?> m) {
            return (Map<String, Object>) m;
        }
        throw new McpProtocolException("result of " + method + " is " + JsonRpcCodec.kind(result) + ", not an object");
    }

    /** {@code base} with {@code extra}'s entries over it (a copy), or {@code base} itself when there are none. */
    public static Map<String, Object> mergeMeta(Map<String, Object> base, Map<String, Object> extra) {
        if (extra == null || extra.isEmpty()) {
            return base;
        }
        Map<String, Object> merged = new LinkedHashMap<>(base);
        merged.putAll(extra);
        return merged;
    }

    /** A copy of the params with {@code meta} merged over their {@code _meta}, or the params when there is none. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> withMeta(Map<String, Object> params, Map<String, Object> meta) {
        if (meta == null || meta.isEmpty()) {
            return params;
        }
        Map<String, Object> copy = params == null ? new LinkedHashMap<>() : new LinkedHashMap<>(params);
        Object existing = copy.get("_meta");
        Map<String, Object> m = existing instanceof Map<?, ?> e
                ? new LinkedHashMap<>((Map<String, Object>) e) : new LinkedHashMap<>();
        m.putAll(meta);
        copy.put("_meta", m);
        return copy;
    }
}
