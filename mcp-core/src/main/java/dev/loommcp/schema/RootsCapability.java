package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

/**
 * The client's {@code roots} capability (MCP 2025-11-25 "ClientCapabilities.roots"): present when the client answers
 * {@code roots/list}.
 *
 * @param listChanged whether the client sends {@code notifications/roots/list_changed}, or {@code null} (false)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RootsCapability(@Nullable Boolean listChanged) {

    /**
     * Returns the capability.
     *
     * @param listChanged whether the client sends {@code notifications/roots/list_changed}
     * @return the capability
     */
    public static RootsCapability of(boolean listChanged) {
        return new RootsCapability(listChanged);
    }
}
