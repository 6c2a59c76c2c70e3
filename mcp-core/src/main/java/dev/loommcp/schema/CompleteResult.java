package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The result of {@code completion/complete} (MCP 2025-11-25 "CompleteResult"; SPEC-NOTES section 9).
 *
 * @param completion the completion values (required by the spec; kept {@code null} if a peer omits it)
 * @param meta       the {@code _meta} object, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CompleteResult(@Nullable Completion completion,
                             @JsonProperty("_meta") @Nullable Map<String, @Nullable Object> meta) {

    /** Creates the record; {@code meta} is copied. */
    public CompleteResult {
        meta = Copies.map(meta);
    }
}
