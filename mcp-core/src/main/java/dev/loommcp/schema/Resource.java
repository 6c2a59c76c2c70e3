package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A resource the server can read (MCP 2025-11-25 "Resource"; SPEC-NOTES section 9).
 *
 * @param uri         the URI, not {@code null}
 * @param name        the programmatic name (required by the spec; kept {@code null} if a peer omits it)
 * @param title       a display name, or {@code null}
 * @param description a description, or {@code null}
 * @param mimeType    the MIME type, or {@code null}
 * @param size        the raw size in bytes (before base64 encoding), or {@code null}
 * @param icons       icons, or {@code null}
 * @param annotations hints for the client, or {@code null}
 * @param meta        the {@code _meta} object, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Resource(String uri, @Nullable String name, @Nullable String title, @Nullable String description,
                       @Nullable String mimeType, @Nullable Long size, @Nullable List<Icon> icons,
                       @Nullable Annotations annotations,
                       @JsonProperty("_meta") @Nullable Map<String, @Nullable Object> meta) {

    /**
     * Creates the record; {@code icons} and {@code meta} are copied.
     *
     * @throws NullPointerException if {@code uri} is {@code null}
     */
    public Resource {
        Objects.requireNonNull(uri, "uri");
        icons = Copies.list(icons);
        meta = Copies.map(meta);
    }

    /**
     * Returns a resource with just a URI and a name.
     *
     * @param uri  the URI
     * @param name the name
     * @return the resource
     * @throws NullPointerException if {@code uri} is {@code null}
     */
    public static Resource of(String uri, String name) {
        return new Resource(uri, name, null, null, null, null, null, null, null);
    }
}
