package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The contents of a binary resource (MCP 2025-11-25 "BlobResourceContents").
 *
 * @param uri      the URI of the resource, not {@code null}
 * @param mimeType the MIME type, or {@code null}
 * @param blob     the base64-encoded data (not decoded by loom-mcp), not {@code null}
 * @param meta     the {@code _meta} object, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BlobResourceContents(String uri, @Nullable String mimeType, String blob,
                                   @JsonProperty("_meta") @Nullable Map<String, @Nullable Object> meta)
        implements ResourceContents {
    /**
     * Creates the record; {@code meta} is copied.
     *
     * @throws NullPointerException if {@code uri} or {@code blob} is {@code null}
     */
    public BlobResourceContents {
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(blob, "blob");
        meta = Copies.map(meta);
    }

    /**
     * Returns blob contents without {@code _meta}.
     *
     * @param uri      the URI
     * @param mimeType the MIME type, or {@code null}
     * @param blob     the base64-encoded data
     * @return the contents
     * @throws NullPointerException if {@code uri} or {@code blob} is {@code null}
     */
    public static BlobResourceContents of(String uri, @Nullable String mimeType, String blob) {
        return new BlobResourceContents(uri, mimeType, blob, null);
    }
}
