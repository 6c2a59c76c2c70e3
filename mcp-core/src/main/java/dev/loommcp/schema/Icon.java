package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An icon for display (MCP 2025-11-25 "Icon"). loom-mcp never fetches icons; a host that shows them should accept
 * only {@code https:} and {@code data:} sources (spec "Icons", security considerations).
 *
 * @param src      the image URI, not {@code null}
 * @param mimeType the MIME type, or {@code null}
 * @param sizes    sizes such as {@code "48x48"} or {@code "any"}, or {@code null}
 * @param theme    {@code "light"} or {@code "dark"}, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Icon(String src, @Nullable String mimeType, @Nullable List<String> sizes, @Nullable String theme) {
    /**
     * Creates the record.
     *
     * @throws NullPointerException if {@code src} is {@code null}
     */
    public Icon {
        Objects.requireNonNull(src, "src");
        sizes = sizes == null ? null : List.copyOf(sizes);
    }
}
