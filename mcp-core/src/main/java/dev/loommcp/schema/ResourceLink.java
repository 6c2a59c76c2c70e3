package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A link to a resource the server can read, {@code type: "resource_link"} (MCP 2025-11-25 "ResourceLink", from
 * 2025-06-18): a {@link Resource} inside content. The resource need not appear in {@code resources/list}.
 *
 * @param uri         the resource URI, not {@code null}
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
@JsonPropertyOrder({"type"})
@JsonIgnoreProperties(value = "type", allowGetters = true)
public record ResourceLink(String uri, @Nullable String name, @Nullable String title, @Nullable String description,
                           @Nullable String mimeType, @Nullable Long size, @Nullable List<Icon> icons,
                           @Nullable Annotations annotations,
                           @JsonProperty("_meta") @Nullable Map<String, @Nullable Object> meta)
        implements ContentBlock {

    /** The wire value of {@code type} for this block: {@value}. */
    public static final String TYPE = "resource_link";

    /**
     * Creates the record; lists and {@code meta} are copied.
     *
     * @throws NullPointerException if {@code uri} is {@code null}
     */
    public ResourceLink {
        Objects.requireNonNull(uri, "uri");
        icons = Copies.list(icons);
        meta = Copies.map(meta);
    }

    /**
     * Returns a link with just a URI and a name.
     *
     * @param uri  the URI
     * @param name the name
     * @return the block
     * @throws NullPointerException if {@code uri} is {@code null}
     */
    public static ResourceLink of(String uri, String name) {
        return new ResourceLink(uri, name, null, null, null, null, null, null, null);
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
