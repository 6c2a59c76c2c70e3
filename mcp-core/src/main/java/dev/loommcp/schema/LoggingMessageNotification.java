package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The params of {@code notifications/message}, a log message from the server (MCP 2025-11-25
 * "LoggingMessageNotificationParams"; SPEC-NOTES section 9). The level is kept as received so that an unknown level
 * never fails decoding.
 *
 * @param level  the severity as received, normally a {@link LoggingLevel#wireName()}
 * @param logger the name of the logger, or {@code null}
 * @param data   the message: any JSON value (a string or an object), as plain JSON
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LoggingMessageNotification(String level, String logger, Object data) {

    /**
     * Returns the severity as a {@link LoggingLevel}.
     *
     * @return the level, or {@code null} if it is missing or not a known level
     */
    public LoggingLevel levelOrNull() {
        if (level == null) {
            return null;
        }
        try {
            return LoggingLevel.fromWire(level);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
