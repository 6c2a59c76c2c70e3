package dev.loommcp.intercept;

import org.jspecify.annotations.Nullable;

import java.util.Collections;
import java.util.Map;

/** What {@link OutgoingRequest} and {@link ServerRequest} read of their params alike. */
final class JsonParams {

    private JsonParams() {
    }

    /** A read-only view of {@code params}, or {@code null}. */
    static @Nullable Map<String, @Nullable Object> readOnly(@Nullable Map<String, @Nullable Object> params) {
        return params == null ? null : Collections.unmodifiableMap(params);
    }

    /** {@code params._meta} read-only, or an empty map. */
    static Map<String, @Nullable Object> meta(@Nullable Map<String, @Nullable Object> params) {
        if (params != null && params.get("_meta") instanceof Map<?, ?> meta) {
            @SuppressWarnings("unchecked")
            Map<String, @Nullable Object> typed = (Map<String, @Nullable Object>) meta;
            return Collections.unmodifiableMap(typed);
        }
        return Map.of();
    }
}
