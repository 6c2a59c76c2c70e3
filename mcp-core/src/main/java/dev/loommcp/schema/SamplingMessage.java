package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.loommcp.McpProtocolException;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A message in a sampling conversation (MCP 2025-11-25 "SamplingMessage"). Its {@code content} is one block or, from
 * 2025-11-25, an array of blocks (text, image, audio, {@code tool_use}, {@code tool_result}); it is held as plain
 * JSON so that every form round-trips, and {@link #contentBlocks()} reads it as blocks.
 *
 * @param role    {@code "user"} or {@code "assistant"}
 * @param content a JSON object (one block) or array (blocks) as plain JSON; {@link ContentBlock} records passed in
 *                (alone or in a list) are converted to plain JSON
 * @param meta    the {@code _meta} object, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SamplingMessage(@Nullable String role, @Nullable Object content,
                              @JsonProperty("_meta") @Nullable Map<String, @Nullable Object> meta) {

    /** Creates the record; {@code content} is converted to plain JSON and copied, {@code meta} copied. */
    public SamplingMessage {
        content = SamplingContent.plain(content);
        meta = Copies.map(meta);
    }

    /**
     * Returns a message with one block.
     *
     * @param role    {@code "user"} or {@code "assistant"}
     * @param content the block
     * @return the message
     */
    public static SamplingMessage of(String role, ContentBlock content) {
        return new SamplingMessage(role, content, null);
    }

    /**
     * Returns the content as blocks, whether it is one block or an array. Blocks that are not modelled here
     * ({@code tool_use}, {@code tool_result}) come back as {@link UnknownContent}.
     *
     * @return the blocks; empty if there is no content
     * @throws McpProtocolException if the content is not a JSON object or an array of objects
     */
    public List<ContentBlock> contentBlocks() {
        return SamplingContent.blocks(content, "sampling message content");
    }
}
