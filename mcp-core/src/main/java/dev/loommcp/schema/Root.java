package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A root the client exposes to the server, a directory or file the server may work in (MCP 2025-11-25 "Root").
 *
 * @param uri  the URI, a {@code file://} URI in 2025-11-25; not {@code null}
 * @param name a display name, or {@code null}
 * @param meta the {@code _meta} object, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Root(String uri, @Nullable String name,
                   @JsonProperty("_meta") @Nullable Map<String, @Nullable Object> meta) {

    /**
     * Creates the record; {@code meta} is copied.
     *
     * @throws NullPointerException if {@code uri} is {@code null}
     */
    public Root {
        Objects.requireNonNull(uri, "uri");
        meta = Copies.map(meta);
    }

    /**
     * Returns a root with a URI and a name.
     *
     * @param uri  the URI
     * @param name the name, or {@code null}
     * @return the root
     * @throws NullPointerException if {@code uri} is {@code null}
     */
    public static Root of(String uri, @Nullable String name) {
        return new Root(uri, name, null);
    }
}
