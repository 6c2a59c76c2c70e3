package dev.loommcp;

/**
 * The protocol era of a connection (DESIGN.md section 5, SPEC-NOTES section 2). This client speaks the legacy era
 * only; the stateless 2026-07-28 era gets its constant when the client speaks it.
 */
public enum Era {
    /** 2024-11-05 .. 2025-11-25: {@code initialize} handshake, sessions, server-to-client requests. */
    LEGACY
}
