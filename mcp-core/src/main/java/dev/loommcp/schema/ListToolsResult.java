package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One page of {@code tools/list} (MCP 2025-11-25 "ListToolsResult").
 *
 * @param tools      the tools of this page (required by the spec; kept {@code null} if a peer omits it)
 * @param nextCursor the opaque cursor of the next page, or {@code null} on the last page (an empty string is a valid
 *                   cursor)
 * @param meta       the {@code _meta} object, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ListToolsResult(@Nullable List<Tool> tools, @Nullable String nextCursor,
                              @JsonProperty("_meta") @Nullable Map<String, @Nullable Object> meta) {

    /** Creates the record; {@code tools} and {@code meta} are copied. */
    public ListToolsResult {
        tools = Copies.list(tools);
        meta = Copies.map(meta);
    }
}
