package dev.loommcp.config;

import dev.loommcp.McpClient;

/**
 * The protocol era of a connection (SPEC-NOTES section 2; MCP 2026-07-28 "Versioning"). {@link ProtocolMode} decides
 * how a client picks it; {@code McpClient.era()} reports the one in use.
 */
public enum Era {
    /** 2024-11-05 .. 2025-11-25: {@code initialize} handshake, sessions, server-to-client requests. */
    LEGACY,
    /**
     * 2026-07-28: stateless; {@code server/discover}; {@code _meta} with protocol version, client capabilities and
     * client info on every request; server input as {@code input_required} results (multi round-trip requests);
     * {@code subscriptions/listen}.
     */
    MODERN
}
