package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A template for resource URIs (MCP 2025-11-25 "ResourceTemplate"; SPEC-NOTES section 9).
 *
 * @param uriTemplate the RFC 6570 URI template, not {@code null}
 * @param name        the programmatic name (required by the spec; kept {@code null} if a peer omits it)
 * @param title       a display name, or {@code null}
 * @param description a description, or {@code null}
 * @param mimeType    the MIME type of every matching resource, if they share one; or {@code null}
 * @param icons       icons, or {@code null}
 * @param annotations hints for the client, or {@code null}
 * @param meta        the {@code _meta} object, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ResourceTemplate(String uriTemplate, @Nullable String name, @Nullable String title,
                               @Nullable String description, @Nullable String mimeType, @Nullable List<Icon> icons,
                               @Nullable Annotations annotations,
                               @JsonProperty("_meta") @Nullable Map<String, @Nullable Object> meta) {

    /**
     * Creates the record; {@code icons} and {@code meta} are copied.
     *
     * @throws NullPointerException if {@code uriTemplate} is {@code null}
     */
    public ResourceTemplate {
        Objects.requireNonNull(uriTemplate, "uriTemplate");
        icons = Copies.list(icons);
        meta = Copies.map(meta);
    }
}
