package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import org.jspecify.annotations.Nullable;

/**
 * The contents of a resource, from {@code resources/read} or inside an {@link EmbeddedResource} (MCP 2025-11-25
 * "ResourceContents"): either {@link TextResourceContents} (has {@code text}) or {@link BlobResourceContents} (has
 * {@code blob}). Decoding an object that has neither fails with an error that names {@code ResourceContents}.
 *
 * <p>Instances are immutable and thread-safe.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.DEDUCTION)
@JsonSubTypes({
        @JsonSubTypes.Type(TextResourceContents.class),
        @JsonSubTypes.Type(BlobResourceContents.class)
})
public sealed interface ResourceContents permits TextResourceContents, BlobResourceContents {

    /**
     * Returns the URI of the resource.
     *
     * @return the URI
     */
    String uri();

    /**
     * Returns the MIME type.
     *
     * @return the MIME type, or {@code null} if not given
     */
    @Nullable String mimeType();
}
