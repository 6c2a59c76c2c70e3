package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The contents of a text resource (MCP 2025-11-25 "TextResourceContents").
 *
 * @param uri      the URI of the resource, not {@code null}
 * @param mimeType the MIME type, or {@code null}
 * @param text     the text, not {@code null}
 * @param meta     the {@code _meta} object, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TextResourceContents(String uri, @Nullable String mimeType, String text,
                                   @JsonProperty("_meta") @Nullable Map<String, @Nullable Object> meta)
        implements ResourceContents {
    /**
     * Creates the record; {@code meta} is copied.
     *
     * @throws NullPointerException if {@code uri} or {@code text} is {@code null}
     */
    public TextResourceContents {
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(text, "text");
        meta = Copies.map(meta);
    }

    /**
     * Returns text contents without {@code _meta}.
     *
     * @param uri      the URI
     * @param mimeType the MIME type, or {@code null}
     * @param text     the text
     * @return the contents
     * @throws NullPointerException if {@code uri} or {@code text} is {@code null}
     */
    public static TextResourceContents of(String uri, @Nullable String mimeType, String text) {
        return new TextResourceContents(uri, mimeType, text, null);
    }
}
