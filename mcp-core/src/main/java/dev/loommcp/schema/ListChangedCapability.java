package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

/**
 * A server capability that only says whether list-changed notifications are sent: {@code prompts} and {@code tools}
 * (MCP 2025-11-25 "ServerCapabilities.prompts", "ServerCapabilities.tools").
 *
 * @param listChanged whether the server sends {@code notifications/…/list_changed}, or {@code null} (false)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ListChangedCapability(@Nullable Boolean listChanged) {

    /**
     * Returns whether list-changed notifications are declared.
     *
     * @return {@code listChanged == TRUE}
     */
    public boolean sendsListChanged() {
        return Boolean.TRUE.equals(listChanged);
    }
}
