package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

/**
 * The server's {@code resources} capability (MCP 2025-11-25 "ServerCapabilities.resources").
 *
 * @param subscribe   whether {@code resources/subscribe} is supported, or {@code null} (false)
 * @param listChanged whether the server sends {@code notifications/resources/list_changed}, or {@code null} (false)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ResourcesCapability(@Nullable Boolean subscribe, @Nullable Boolean listChanged) {
}
