package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A prompt template the server offers (MCP 2025-11-25 "Prompt"; SPEC-NOTES section 9).
 *
 * @param name        the programmatic name, not {@code null}
 * @param title       a display name, or {@code null}
 * @param description a description, or {@code null}
 * @param arguments   the arguments the template takes, or {@code null}
 * @param icons       icons, or {@code null}
 * @param meta        the {@code _meta} object, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Prompt(String name, @Nullable String title, @Nullable String description,
                     @Nullable List<PromptArgument> arguments, @Nullable List<Icon> icons,
                     @JsonProperty("_meta") @Nullable Map<String, @Nullable Object> meta) {

    /**
     * Creates the record; lists and {@code meta} are copied.
     *
     * @throws NullPointerException if {@code name} is {@code null}
     */
    public Prompt {
        Objects.requireNonNull(name, "name");
        arguments = Copies.list(arguments);
        icons = Copies.list(icons);
        meta = Copies.map(meta);
    }

    /**
     * Returns the name to show people: {@code title}, else {@code name}.
     *
     * @return the display name, never {@code null}
     */
    public String displayName() {
        return title != null ? title : name;
    }
}
