package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Text content, {@code type: "text"} (MCP 2025-11-25 "TextContent").
 *
 * @param text        the text, not {@code null}
 * @param annotations hints for the client, or {@code null}
 * @param meta        the {@code _meta} object, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"type"})
@JsonIgnoreProperties(value = "type", allowGetters = true)
public record TextContent(String text, @Nullable Annotations annotations,
                          @JsonProperty("_meta") @Nullable Map<String, @Nullable Object> meta)
        implements ContentBlock {

    /** The wire value of {@code type} for this block: {@value}. */
    public static final String TYPE = "text";

    /**
     * Creates the record; {@code meta} is copied.
     *
     * @throws NullPointerException if {@code text} is {@code null}
     */
    public TextContent {
        Objects.requireNonNull(text, "text");
        meta = Copies.map(meta);
    }

    /**
     * Returns a text block without annotations or {@code _meta}.
     *
     * @param text the text
     * @return the block
     * @throws NullPointerException if {@code text} is {@code null}
     */
    public static TextContent of(String text) {
        return new TextContent(text, null, null);
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
