package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.loommcp.McpProtocolException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;
import org.jspecify.annotations.Nullable;

/**
 * The result of {@code tools/call} (MCP 2025-11-25 "CallToolResult"; SPEC-NOTES section 8). A tool that failed is a
 * normal result with {@code isError: true}, not an exception.
 *
 * @param content           the unstructured result (required by the spec; kept {@code null} if a peer omits it)
 * @param structuredContent the structured result (a JSON object in 2025-11-25), as plain JSON; or {@code null}
 * @param isError           whether the tool call ended in an error, or {@code null} (false); the JSON name is
 *                          {@code isError}
 * @param meta              the {@code _meta} object, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CallToolResult(@Nullable List<ContentBlock> content,
                             @Nullable Map<String, @Nullable Object> structuredContent,
                             @JsonProperty("isError") @Nullable Boolean isError,
                             @JsonProperty("_meta") @Nullable Map<String, @Nullable Object> meta) {

    /** Creates the record; {@code content}, {@code structuredContent} and {@code meta} are copied (shallowly). */
    public CallToolResult {
        content = Copies.list(content);
        structuredContent = Copies.map(structuredContent);
        meta = Copies.map(meta);
    }

    /**
     * Returns a successful result with the given blocks.
     *
     * @param content the blocks
     * @return the result
     */
    public static CallToolResult of(List<ContentBlock> content) {
        return new CallToolResult(content, null, null, null);
    }

    /**
     * Returns a successful result with one text block.
     *
     * @param text the text
     * @return the result
     * @throws NullPointerException if {@code text} is {@code null}
     */
    public static CallToolResult ofText(String text) {
        return new CallToolResult(List.of(TextContent.of(text)), null, null, null);
    }

    /**
     * Returns whether the tool reported an error.
     *
     * @return {@code isError == TRUE}
     */
    public boolean error() {
        return Boolean.TRUE.equals(isError);
    }

    /**
     * Returns the text of every {@link TextContent} block, in order, joined with {@code "\n"}.
     *
     * @return the text; empty if there is none
     */
    public String text() {
        if (content == null) {
            return "";
        }
        StringJoiner joiner = new StringJoiner("\n");
        for (ContentBlock block : content) {
            if (block instanceof TextContent t) {
                joiner.add(t.text());
            }
        }
        return joiner.toString();
    }

    /**
     * Converts {@code structuredContent} into the caller's type, for example a record. The type must be readable by
     * Jackson databind: a record or bean in a package that is open to {@code tools.jackson.databind} (or exported,
     * for public types with public accessors). Unknown properties are ignored.
     *
     * @param type the type to convert to
     * @param <T>  the type
     * @return the converted value
     * @throws NullPointerException if {@code type} is {@code null}
     * @throws McpProtocolException if there is no {@code structuredContent}, or it does not fit {@code type} (the
     *                              message names the type and the JSON path of the mismatch, never a value of the
     *                              content)
     */
    public <T> T structuredContentAs(Class<T> type) {
        Objects.requireNonNull(type, "type");
        if (structuredContent == null) {
            throw new McpProtocolException("tool result has no structuredContent to convert to " + type.getName());
        }
        return Conversions.convert(structuredContent, type, "tool result structuredContent");
    }
}
