package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The result of {@code prompts/get} (MCP 2025-11-25 "GetPromptResult").
 *
 * @param description a description of the prompt, or {@code null}
 * @param messages    the prompt's messages (required by the spec; kept {@code null} if a peer omits it)
 * @param meta        the {@code _meta} object, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record GetPromptResult(@Nullable String description, @Nullable List<PromptMessage> messages,
                              @JsonProperty("_meta") @Nullable Map<String, @Nullable Object> meta) {

    /** Creates the record; {@code messages} and {@code meta} are copied. */
    public GetPromptResult {
        messages = Copies.list(messages);
        meta = Copies.map(meta);
    }
}
