package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One page of {@code resources/templates/list} (MCP 2025-11-25 "ListResourceTemplatesResult").
 *
 * @param resourceTemplates the templates of this page (required by the spec; kept {@code null} if a peer omits it)
 * @param nextCursor        the opaque cursor of the next page, or {@code null} on the last page
 * @param meta              the {@code _meta} object, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ListResourceTemplatesResult(@Nullable List<ResourceTemplate> resourceTemplates,
                                          @Nullable String nextCursor,
                                          @JsonProperty("_meta") @Nullable Map<String, @Nullable Object> meta) {

    /** Creates the record; {@code resourceTemplates} and {@code meta} are copied. */
    public ListResourceTemplatesResult {
        resourceTemplates = Copies.list(resourceTemplates);
        meta = Copies.map(meta);
    }
}
