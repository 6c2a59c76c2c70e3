package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.loommcp.McpProtocolException;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The client's answer to {@code sampling/createMessage} (MCP 2025-11-25 "CreateMessageResult"; SPEC-NOTES section
 * 10). Like {@link SamplingMessage}, its {@code content} is one block or an array of blocks, held as plain JSON.
 *
 * @param role       the role of the sampled message, normally {@code "assistant"}
 * @param content    a JSON object (one block) or array (blocks) as plain JSON; {@link ContentBlock} records passed in
 *                   (alone or in a list) are converted to plain JSON
 * @param model      the name of the model that produced the message
 * @param stopReason why sampling stopped: {@code "endTurn"}, {@code "stopSequence"}, {@code "maxTokens"},
 *                   {@code "toolUse"} or a provider-specific string; or {@code null} (unknown)
 * @param meta       the {@code _meta} object, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CreateMessageResult(@Nullable String role, @Nullable Object content, @Nullable String model,
                                  @Nullable String stopReason,
                                  @JsonProperty("_meta") @Nullable Map<String, @Nullable Object> meta) {

    /** Creates the record; {@code content} is converted to plain JSON and copied, {@code meta} copied. */
    public CreateMessageResult {
        content = SamplingContent.plain(content);
        meta = Copies.map(meta);
    }

    /**
     * Returns an assistant message with one text block and no stop reason.
     *
     * @param model the model's name
     * @param text  the text
     * @return the result
     * @throws NullPointerException if {@code text} is {@code null}
     */
    public static CreateMessageResult ofText(String model, String text) {
        return new CreateMessageResult("assistant", TextContent.of(text), model, null, null);
    }

    /**
     * Returns the content as blocks, whether it is one block or an array; {@code tool_use} blocks come back as
     * {@link UnknownContent}.
     *
     * @return the blocks; empty if there is no content
     * @throws McpProtocolException if the content is not a JSON object or an array of objects
     */
    public List<ContentBlock> contentBlocks() {
        return SamplingContent.blocks(content, "sampling result content");
    }
}
