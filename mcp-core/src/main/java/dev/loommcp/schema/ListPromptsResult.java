package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One page of {@code prompts/list} (MCP 2025-11-25 "ListPromptsResult").
 *
 * @param prompts    the prompts of this page (required by the spec; kept {@code null} if a peer omits it)
 * @param nextCursor the opaque cursor of the next page, or {@code null} on the last page
 * @param meta       the {@code _meta} object, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ListPromptsResult(@Nullable List<Prompt> prompts, @Nullable String nextCursor,
                                @JsonProperty("_meta") @Nullable Map<String, @Nullable Object> meta) {

    /** Creates the record; {@code prompts} and {@code meta} are copied. */
    public ListPromptsResult {
        prompts = Copies.list(prompts);
        meta = Copies.map(meta);
    }
}
