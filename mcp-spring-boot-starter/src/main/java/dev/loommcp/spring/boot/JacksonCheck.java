package dev.loommcp.spring.boot;

import tools.jackson.core.Version;
import tools.jackson.databind.json.JsonMapper;

/** Fails the context start with a clear message when Jackson 3 on the class path is older than loom-mcp supports. */
final class JacksonCheck {

    /** The oldest Jackson 3 line loom-mcp is tested with: 3.1 (Spring Boot 4.0.x manages 3.1.4). */
    static final int MIN_MINOR = 1;

    private JacksonCheck() {
    }

    static void requireSupported() {
        requireSupported(JsonMapper.builder().build().version());
    }

    static void requireSupported(Version version) {
        if (version.getMajorVersion() != 3 || version.getMinorVersion() < MIN_MINOR) {
            throw new IllegalStateException("loom-mcp needs Jackson 3.1 or newer (tools.jackson), but "
                    + version.toFullString() + " is on the class path: set <jackson-bom.version>3.3.0"
                    + "</jackson-bom.version> in your Spring Boot project's properties (docs/frameworks.md)");
        }
    }
}
