package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The result of {@code resources/read} (MCP 2025-11-25 "ReadResourceResult"). There may be several contents (for
 * example a directory's files); an empty list does not mean not-found.
 *
 * @param contents the contents (required by the spec; kept {@code null} if a peer omits it)
 * @param meta     the {@code _meta} object, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReadResourceResult(@Nullable List<ResourceContents> contents,
                                 @JsonProperty("_meta") @Nullable Map<String, @Nullable Object> meta) {

    /** Creates the record; {@code contents} and {@code meta} are copied. */
    public ReadResourceResult {
        contents = Copies.list(contents);
        meta = Copies.map(meta);
    }
}
