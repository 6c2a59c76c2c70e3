package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * An image, {@code type: "image"} (MCP 2025-11-25 "ImageContent").
 *
 * @param data        the base64-encoded image data (not decoded by loom-mcp)
 * @param mimeType    the image's MIME type, such as {@code "image/png"}
 * @param annotations hints for the client, or {@code null}
 * @param meta        the {@code _meta} object, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"type"})
@JsonIgnoreProperties(value = "type", allowGetters = true)
public record ImageContent(@Nullable String data, @Nullable String mimeType, @Nullable Annotations annotations,
                           @JsonProperty("_meta") @Nullable Map<String, @Nullable Object> meta)
        implements ContentBlock {

    /** The wire value of {@code type} for this block: {@value}. */
    public static final String TYPE = "image";

    /** Creates the record; {@code meta} is copied. */
    public ImageContent {
        meta = Copies.map(meta);
    }

    /**
     * Returns an image block without annotations or {@code _meta}.
     *
     * @param data     the base64-encoded data
     * @param mimeType the MIME type
     * @return the block
     */
    public static ImageContent of(String data, String mimeType) {
        return new ImageContent(data, mimeType, null, null);
    }

    /**
     * Returns {@value #TYPE}.
     *
     * @return {@value #TYPE}
     */
    @Override
    @JsonProperty("type")
    public String type() {
        return TYPE;
    }
}
