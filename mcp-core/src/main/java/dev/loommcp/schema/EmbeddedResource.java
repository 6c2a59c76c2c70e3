package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The contents of a resource embedded in content, {@code type: "resource"} (MCP 2025-11-25 "EmbeddedResource").
 *
 * @param resource    the contents, text or blob, not {@code null}
 * @param annotations hints for the client, or {@code null}
 * @param meta        the {@code _meta} object, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"type"})
@JsonIgnoreProperties(value = "type", allowGetters = true)
public record EmbeddedResource(ResourceContents resource, @Nullable Annotations annotations,
                               @JsonProperty("_meta") @Nullable Map<String, @Nullable Object> meta)
        implements ContentBlock {

    /** The wire value of {@code type} for this block: {@value}. */
    public static final String TYPE = "resource";

    /**
     * Creates the record; {@code meta} is copied.
     *
     * @throws NullPointerException if {@code resource} is {@code null}
     */
    public EmbeddedResource {
        Objects.requireNonNull(resource, "resource");
        meta = Copies.map(meta);
    }

    /**
     * Returns an embedded resource without annotations or {@code _meta}.
     *
     * @param resource the contents
     * @return the block
     * @throws NullPointerException if {@code resource} is {@code null}
     */
    public static EmbeddedResource of(ResourceContents resource) {
        return new EmbeddedResource(resource, null, null);
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
