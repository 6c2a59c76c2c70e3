package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * A reference to a resource or resource template, {@code type: "ref/resource"} (MCP 2025-11-25
 * "ResourceTemplateReference").
 *
 * @param uri the URI or URI template, not {@code null}
 */
@JsonPropertyOrder({"type"})
@JsonIgnoreProperties(value = "type", allowGetters = true)
public record ResourceTemplateReference(String uri) implements CompletionReference {

    /** The wire value of {@code type}: {@value}. */
    public static final String TYPE = "ref/resource";

    /**
     * Creates the record.
     *
     * @throws NullPointerException if {@code uri} is {@code null}
     */
    public ResourceTemplateReference {
        Objects.requireNonNull(uri, "uri");
    }

    /**
     * Returns a reference to the URI or URI template.
     *
     * @param uri the URI or URI template
     * @return the reference
     * @throws NullPointerException if {@code uri} is {@code null}
     */
    public static ResourceTemplateReference of(String uri) {
        return new ResourceTemplateReference(uri);
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
