package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A tool the client can call (MCP 2025-11-25 "Tool"; SPEC-NOTES section 8). Also used for {@code tools} in sampling
 * requests.
 *
 * @param name         the programmatic name, not {@code null}
 * @param title        a display name, or {@code null}
 * @param description  a description, a hint for the model; or {@code null}
 * @param inputSchema  the JSON Schema of the arguments (root {@code type: "object"}), as plain JSON; required by the
 *                     spec, kept {@code null} if a peer omits it
 * @param outputSchema the JSON Schema of {@code structuredContent}, as plain JSON; or {@code null}
 * @param annotations  behaviour hints, or {@code null}
 * @param icons        icons, or {@code null}
 * @param execution    execution properties such as {@code {"taskSupport":"optional"}} (2025-11-25 only), as plain
 *                     JSON; or {@code null}
 * @param meta         the {@code _meta} object, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Tool(String name, @Nullable String title, @Nullable String description,
                   @Nullable Map<String, @Nullable Object> inputSchema,
                   @Nullable Map<String, @Nullable Object> outputSchema, @Nullable ToolAnnotations annotations,
                   @Nullable List<Icon> icons, @Nullable Map<String, @Nullable Object> execution,
                   @JsonProperty("_meta") @Nullable Map<String, @Nullable Object> meta) {

    /**
     * Creates the record; maps and lists are copied (shallowly).
     *
     * @throws NullPointerException if {@code name} is {@code null}
     */
    public Tool {
        Objects.requireNonNull(name, "name");
        inputSchema = Copies.map(inputSchema);
        outputSchema = Copies.map(outputSchema);
        icons = Copies.list(icons);
        execution = Copies.map(execution);
        meta = Copies.map(meta);
    }

    /**
     * Returns a tool with a name, a description and an input schema.
     *
     * @param name        the name
     * @param description the description, or {@code null}
     * @param inputSchema the input schema, or {@code null}
     * @return the tool
     * @throws NullPointerException if {@code name} is {@code null}
     */
    public static Tool of(String name, @Nullable String description,
                          @Nullable Map<String, @Nullable Object> inputSchema) {
        return new Tool(name, null, description, inputSchema, null, null, null, null, null);
    }

    /**
     * Returns the name to show people: {@code title}, else {@code annotations.title}, else {@code name} (spec
     * "Tool", display name precedence).
     *
     * @return the display name, never {@code null}
     */
    public String displayName() {
        if (title != null) {
            return title;
        }
        if (annotations != null && annotations.title() != null) {
            return annotations.title();
        }
        return name;
    }
}
