package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

/**
 * Hints about a tool's behaviour (MCP 2025-11-25 "ToolAnnotations", from 2025-03-26). All are hints and untrusted
 * unless the server is trusted. {@code null} means not given; the spec's defaults apply then.
 *
 * @param title           a display name, or {@code null}
 * @param readOnlyHint    whether the tool changes nothing (default false), or {@code null}
 * @param destructiveHint whether changes may be destructive (default true; meaningful only if not read-only), or
 *                        {@code null}
 * @param idempotentHint  whether repeating a call with the same arguments has no further effect (default false), or
 *                        {@code null}
 * @param openWorldHint   whether the tool reaches an open world of entities such as the web (default true), or
 *                        {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ToolAnnotations(@Nullable String title, @Nullable Boolean readOnlyHint, @Nullable Boolean destructiveHint,
                              @Nullable Boolean idempotentHint, @Nullable Boolean openWorldHint) {
}
