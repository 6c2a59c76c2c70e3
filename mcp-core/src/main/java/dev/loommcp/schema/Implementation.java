package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The name and version of an MCP implementation: {@code clientInfo} and {@code serverInfo} (MCP 2025-11-25
 * "Implementation"; {@code title} from 2025-06-18, {@code description}, {@code websiteUrl} and {@code icons} from
 * 2025-11-25).
 *
 * @param name        the programmatic name, not {@code null}
 * @param version     the version, not {@code null}
 * @param title       a display name, or {@code null}
 * @param description a description, or {@code null}
 * @param websiteUrl  a website, or {@code null}
 * @param icons       icons, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Implementation(String name, String version, @Nullable String title, @Nullable String description,
                             @Nullable String websiteUrl, @Nullable List<Icon> icons) {

    /**
     * Creates the record.
     *
     * @throws NullPointerException if {@code name} or {@code version} is {@code null}
     */
    public Implementation {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(version, "version");
        icons = icons == null ? null : List.copyOf(icons);
    }

    /**
     * Returns an implementation with just a name and a version.
     *
     * @param name    the name
     * @param version the version
     * @return the record
     */
    public static Implementation of(String name, String version) {
        return new Implementation(name, version, null, null, null, null);
    }
}
