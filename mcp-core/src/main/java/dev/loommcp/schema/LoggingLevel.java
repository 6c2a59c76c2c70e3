package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * The severity of a log message, syslog order from least to most severe (MCP 2025-11-25 "LoggingLevel", RFC 5424).
 * On the wire the lower-case name is used.
 */
public enum LoggingLevel {
    /** Detailed debugging information. */
    DEBUG,
    /** Normal operational messages. */
    INFO,
    /** Normal but significant events. */
    NOTICE,
    /** Warning conditions. */
    WARNING,
    /** Error conditions. */
    ERROR,
    /** Critical conditions. */
    CRITICAL,
    /** Action must be taken immediately. */
    ALERT,
    /** The system is unusable. */
    EMERGENCY;

    /**
     * Returns the name used on the wire, for example {@code "warning"}.
     *
     * @return the lower-case name
     */
    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Returns the level of a wire name, ignoring case.
     *
     * @param wireName the name, for example {@code "warning"}
     * @return the level
     * @throws IllegalArgumentException if {@code wireName} is {@code null} or not a level (the message names it)
     */
    @JsonCreator
    public static LoggingLevel fromWire(String wireName) {
        if (wireName != null) {
            for (LoggingLevel level : values()) {
                if (level.name().equalsIgnoreCase(wireName)) {
                    return level;
                }
            }
        }
        throw new IllegalArgumentException("unknown logging level: " + wireName);
    }
}
