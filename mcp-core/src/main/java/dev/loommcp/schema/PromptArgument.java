package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An argument a prompt template takes (MCP 2025-11-25 "PromptArgument").
 *
 * @param name        the programmatic name, not {@code null}
 * @param title       a display name, or {@code null}
 * @param description a description, or {@code null}
 * @param required    whether the argument must be given, or {@code null} (false)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PromptArgument(String name, @Nullable String title, @Nullable String description,
                             @Nullable Boolean required) {

    /**
     * Creates the record.
     *
     * @throws NullPointerException if {@code name} is {@code null}
     */
    public PromptArgument {
        Objects.requireNonNull(name, "name");
    }
}
