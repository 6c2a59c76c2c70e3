package dev.loommcp;

/**
 * The protocol era of a connection (DESIGN.md section 5, SPEC-NOTES section 2).
 */
public enum Era {
    /** 2024-11-05 .. 2025-11-25: {@code initialize} handshake, sessions, server-to-client requests. */
    LEGACY,
    /** 2026-07-28: stateless, {@code server/discover}, multi round-trip requests. */
    MODERN
}
