package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A reference to a prompt, {@code type: "ref/prompt"} (MCP 2025-11-25 "PromptReference").
 *
 * @param name  the prompt's name, not {@code null}
 * @param title a display name, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"type"})
@JsonIgnoreProperties(value = "type", allowGetters = true)
public record PromptReference(String name, @Nullable String title) implements CompletionReference {

    /** The wire value of {@code type}: {@value}. */
    public static final String TYPE = "ref/prompt";

    /**
     * Creates the record.
     *
     * @throws NullPointerException if {@code name} is {@code null}
     */
    public PromptReference {
        Objects.requireNonNull(name, "name");
    }

    /**
     * Returns a reference to the named prompt.
     *
     * @param name the prompt's name
     * @return the reference
     * @throws NullPointerException if {@code name} is {@code null}
     */
    public static PromptReference of(String name) {
        return new PromptReference(name, null);
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
