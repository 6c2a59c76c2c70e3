package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The client's answer to {@code roots/list} (MCP 2025-11-25 "ListRootsResult").
 *
 * @param roots the roots, not {@code null}
 * @param meta  the {@code _meta} object, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ListRootsResult(List<Root> roots, @JsonProperty("_meta") @Nullable Map<String, @Nullable Object> meta) {

    /**
     * Creates the record; {@code roots} and {@code meta} are copied.
     *
     * @throws NullPointerException if {@code roots} is {@code null}
     */
    public ListRootsResult {
        roots = List.copyOf(Objects.requireNonNull(roots, "roots"));
        meta = Copies.map(meta);
    }

    /**
     * Returns the result for the given roots.
     *
     * @param roots the roots
     * @return the result
     * @throws NullPointerException if {@code roots} or one of them is {@code null}
     */
    public static ListRootsResult of(List<Root> roots) {
        return new ListRootsResult(roots, null);
    }
}
