package dev.loommcp.schema;

import java.util.Objects;

/**
 * A reference to a resource or resource template, {@code type: "ref/resource"} (MCP 2025-11-25
 * "ResourceTemplateReference").
 *
 * @param uri the URI or URI template, not {@code null}
 */
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
}
