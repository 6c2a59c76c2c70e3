package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The server's advisory preferences for choosing a model in sampling (MCP 2025-11-25 "ModelPreferences").
 *
 * @param hints                model hints such as {@code {"name":"claude-3-5-sonnet"}}, to try in order (names
 *                             match as substrings), as plain JSON; or {@code null}
 * @param costPriority         how much cost matters, 0 to 1; or {@code null}
 * @param speedPriority        how much latency matters, 0 to 1; or {@code null}
 * @param intelligencePriority how much capability matters, 0 to 1; or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ModelPreferences(@Nullable List<Map<String, @Nullable Object>> hints, @Nullable Double costPriority,
                               @Nullable Double speedPriority, @Nullable Double intelligencePriority) {

    /** Creates the record; {@code hints} is copied (shallowly). */
    public ModelPreferences {
        hints = Copies.list(hints);
    }
}
