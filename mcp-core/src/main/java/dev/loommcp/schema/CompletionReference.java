package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import org.jspecify.annotations.Nullable;

/**
 * What a {@code completion/complete} request completes an argument of (MCP 2025-11-25
 * "CompleteRequestParams.ref"): a prompt ({@code type: "ref/prompt"}) or a resource template
 * ({@code type: "ref/resource"}). Both are always written with their {@code type}, whatever the static type of
 * the value being written (for example inside a {@code Map<String, @Nullable Object>} of request params).
 *
 * <p>Instances are immutable and thread-safe.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.EXISTING_PROPERTY, property = "type",
        visible = true)
@JsonSubTypes({
        @JsonSubTypes.Type(value = PromptReference.class, name = PromptReference.TYPE),
        @JsonSubTypes.Type(value = ResourceTemplateReference.class, name = ResourceTemplateReference.TYPE)
})
public sealed interface CompletionReference permits PromptReference, ResourceTemplateReference {

    /**
     * Returns the reference's {@code type}: {@code "ref/prompt"} or {@code "ref/resource"}.
     *
     * @return the type
     */
    String type();
}
