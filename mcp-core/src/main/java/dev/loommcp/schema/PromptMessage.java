package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

/**
 * One message of a prompt (MCP 2025-11-25 "PromptMessage").
 *
 * @param role    {@code "user"} or {@code "assistant"}
 * @param content the content block
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PromptMessage(@Nullable String role, @Nullable ContentBlock content) {
}
