package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

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
public record LoggingMessageNotification(@Nullable String level, @Nullable String logger, @Nullable Object data) {

    /**
     * Returns the severity as a {@link LoggingLevel}.
     *
     * @return the level, or empty if it is missing or not a known level
     */
    public Optional<LoggingLevel> knownLevel() {
        if (level == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(LoggingLevel.fromWire(level));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
