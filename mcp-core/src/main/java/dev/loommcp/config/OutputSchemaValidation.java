package dev.loommcp.config;

import dev.loommcp.McpProtocolException;

/**
 * What the client does with a tool result whose {@code structuredContent} does not match the tool's
 * {@code outputSchema} (MCP 2025-06-18+ "Tools: output schema": clients SHOULD validate). Validation uses JSON
 * Schema 2020-12 (the default dialect of 2025-11-25), never fetches remote {@code $ref}s, never applies to results with
 * {@code isError: true}, and is skipped for a tool whose cached definition is stale (after
 * {@code notifications/tools/list_changed}, until the tool list is read again).
 */
public enum OutputSchemaValidation {
    /** No validation. */
    OFF,
    /** Validate; on a mismatch log a WARNING naming the tool and the failing locations, and return the result. The default. */
    WARN,
    /** Validate; on a mismatch throw {@link McpProtocolException} naming the tool and the failing locations. */
    FAIL
}
