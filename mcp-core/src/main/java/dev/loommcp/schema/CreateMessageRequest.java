package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The params of {@code sampling/createMessage}, the server asking the client's LLM for a completion (MCP 2025-11-25
 * "CreateMessageRequestParams"; SPEC-NOTES section 10; deprecated in 2026-07-28). The client MAY change or ignore
 * {@code systemPrompt}, {@code includeContext}, {@code temperature}, {@code stopSequences} and {@code metadata}.
 *
 * @param messages         the conversation
 * @param modelPreferences the server's model preferences, or {@code null}
 * @param systemPrompt     a system prompt, or {@code null}
 * @param includeContext   {@code "none"}, {@code "thisServer"} or {@code "allServers"} (the last two need the
 *                         {@code sampling.context} capability), or {@code null} (none)
 * @param temperature      the sampling temperature, or {@code null}
 * @param maxTokens        the maximum number of tokens to sample; the client MUST respect it (0 if a peer omits it)
 * @param stopSequences    stop sequences, or {@code null}
 * @param metadata         provider-specific metadata, as plain JSON; or {@code null}
 * @param tools            tools the model may use (2025-11-25, needs the {@code sampling.tools} capability), or
 *                         {@code null}
 * @param toolChoice       how the model uses tools, such as {@code {"mode":"auto"}} (2025-11-25), as plain JSON; or
 *                         {@code null}
 * @param meta             the {@code _meta} object, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CreateMessageRequest(@Nullable List<SamplingMessage> messages,
                                   @Nullable ModelPreferences modelPreferences, @Nullable String systemPrompt,
                                   @Nullable String includeContext, @Nullable Double temperature, int maxTokens,
                                   @Nullable List<String> stopSequences,
                                   @Nullable Map<String, @Nullable Object> metadata, @Nullable List<Tool> tools,
                                   @Nullable Map<String, @Nullable Object> toolChoice,
                                   @JsonProperty("_meta") @Nullable Map<String, @Nullable Object> meta) {

    /** Creates the record; lists and maps are copied (shallowly). */
    public CreateMessageRequest {
        messages = Copies.list(messages);
        stopSequences = Copies.list(stopSequences);
        metadata = Copies.map(metadata);
        tools = Copies.list(tools);
        toolChoice = Copies.map(toolChoice);
        meta = Copies.map(meta);
    }

    /**
     * Returns a request with just messages and a token limit.
     *
     * @param messages  the conversation
     * @param maxTokens the token limit
     * @return the request
     */
    public static CreateMessageRequest of(List<SamplingMessage> messages, int maxTokens) {
        return new CreateMessageRequest(messages, null, null, null, null, maxTokens, null, null, null, null, null);
    }
}
