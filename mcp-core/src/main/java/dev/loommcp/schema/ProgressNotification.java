package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

/**
 * The params of {@code notifications/progress} (MCP 2025-11-25 "ProgressNotificationParams"; SPEC-NOTES section 7).
 *
 * @param progressToken the token of the request this is about: a {@code String} or an integer {@code Number}
 * @param progress      the progress so far; only ever increases, may be fractional
 * @param total         the total, if known; or {@code null}
 * @param message       a human-readable description of the progress (from 2025-03-26), or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ProgressNotification(@Nullable Object progressToken, double progress, @Nullable Double total,
                                   @Nullable String message) {
}
