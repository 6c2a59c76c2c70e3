package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Completion values for an argument (MCP 2025-11-25 "CompleteResult.completion").
 *
 * @param values  the values, at most 100 (required by the spec; kept {@code null} if a peer omits it)
 * @param total   the total number of values available, which may exceed the ones returned; or {@code null}
 * @param hasMore whether more values exist than returned, or {@code null} (unknown)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Completion(@Nullable List<String> values, @Nullable Integer total, @Nullable Boolean hasMore) {

    /** Creates the record; {@code values} is copied. */
    public Completion {
        values = Copies.list(values);
    }
}
