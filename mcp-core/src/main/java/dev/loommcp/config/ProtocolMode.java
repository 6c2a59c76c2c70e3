package dev.loommcp.config;

import dev.loommcp.internal.session.era.Handshake;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import dev.loommcp.McpClient;

/**
 * How a client picks the protocol era of a connection (MCP 2026-07-28 "Versioning: backward compatibility with
 * initialization-based versions"; the TypeScript SDK calls it version negotiation).
 *
 * <ul>
 *   <li>{@link #AUTO} (the default): probe with {@code server/discover}; a valid {@code DiscoverResult} sharing a
 *       modern version, or a {@code -32022} naming one, means the modern era; the other recognized modern errors
 *       ({@code -32020}, {@code -32021}) mean it too, and {@code connect()} fails with them; anything else that is era
 *       evidence (any
 *       other JSON-RPC error, an HTTP 4xx other than 401/403, on stdio also silence within the probe timeout or an
 *       exiting process) means the legacy era and an {@code initialize} handshake follows. On HTTP, 401/403, 5xx,
 *       network errors and timeouts are not era evidence: {@code connect()} fails (a 5xx names {@link #LEGACY} as
 *       the way out); on HTTP a 2xx without a JSON-RPC answer is legacy evidence. On stdio the probe goes to the
 *       session's own process, which a legacy server goes on serving after its error; only when the probe ended the
 *       process (it exited) is a fresh one started, after the first is gone, so one process runs at a time. On
 *       HTTP the probe is one extra POST (a legacy server's refusal, then {@code initialize}). The
 *       verdict is cached per server (stdio command line, directory and environment; HTTP endpoint) for the life of
 *       the JVM, across JVMs with {@link McpClient.Builder#eraVerdictCache}, and probed again when it fails.</li>
 *   <li>{@link #LEGACY}: {@code initialize} at once, offering the newest legacy version; never probes.</li>
 *   <li>{@link #MODERN}: {@code server/discover} on the connection itself; fails when the server does not speak a
 *       modern version; never falls back.</li>
 *   <li>{@link #pinned(String)}: exactly one version; a legacy version behaves like {@link #LEGACY} offering only it,
 *       a modern one like {@link #MODERN} with only it.</li>
 * </ul>
 *
 * <p>Immutable and thread-safe.
 */
public final class ProtocolMode {

    /** The newest modern protocol version this client speaks. */
    public static final String MODERN_PROTOCOL_VERSION = "2026-07-28";

    /** Probe, then speak the modern era if the server does, else the legacy one. The default. */
    public static final ProtocolMode AUTO = new ProtocolMode(Kind.AUTO, null);
    /** Always the legacy era ({@code initialize}); never probe. */
    public static final ProtocolMode LEGACY = new ProtocolMode(Kind.LEGACY, null);
    /** Always the modern era ({@code server/discover}); never fall back. */
    public static final ProtocolMode MODERN = new ProtocolMode(Kind.MODERN, null);

    /** What kind of mode this is. */
    public enum Kind {
        /** See {@link ProtocolMode#AUTO}. */
        AUTO,
        /** See {@link ProtocolMode#LEGACY}. */
        LEGACY,
        /** See {@link ProtocolMode#MODERN}. */
        MODERN,
        /** See {@link ProtocolMode#pinned(String)}. */
        PINNED
    }

    private final Kind kind;
    private final String version;

    private ProtocolMode(Kind kind, String version) {
        this.kind = kind;
        this.version = version;
    }

    /**
     * Returns a mode that speaks exactly one protocol version.
     *
     * @param version a version this client supports: {@link #MODERN_PROTOCOL_VERSION} or one of
     *                {@link McpClient#SUPPORTED_PROTOCOL_VERSIONS}
     * @return the mode
     * @throws NullPointerException     if {@code version} is {@code null}
     * @throws IllegalArgumentException if this client does not speak {@code version} (the message lists what it
     *                                  speaks)
     */
    public static ProtocolMode pinned(String version) {
        Objects.requireNonNull(version, "version");
        if (!version.equals(MODERN_PROTOCOL_VERSION) && !Handshake.SUPPORTED_PROTOCOL_VERSIONS.contains(version)) {
            throw new IllegalArgumentException("protocol version '" + version + "' is not supported; this client "
                    + "speaks " + MODERN_PROTOCOL_VERSION + " and " + Handshake.SUPPORTED_PROTOCOL_VERSIONS);
        }
        return new ProtocolMode(Kind.PINNED, version);
    }

    /**
     * Parses a mode as the CLI's {@code --protocol} option spells it: {@code auto}, {@code legacy}, {@code modern}
     * (any case) or a version such as {@code 2025-06-18}.
     *
     * @param text the text
     * @return the mode
     * @throws NullPointerException     if {@code text} is {@code null}
     * @throws IllegalArgumentException if the text is none of these (the message lists what is accepted)
     */
    public static ProtocolMode parse(String text) {
        Objects.requireNonNull(text, "text");
        String t = text.trim();
        return switch (t.toLowerCase(Locale.ROOT)) {
            case "auto" -> AUTO;
            case "legacy" -> LEGACY;
            case "modern" -> MODERN;
            default -> {
                if (!t.matches("\\d{4}-\\d{2}-\\d{2}")) {
                    throw new IllegalArgumentException("protocol mode '" + text + "' is not one of auto, legacy, "
                            + "modern or a version such as " + MODERN_PROTOCOL_VERSION);
                }
                yield pinned(t);
            }
        };
    }

    /**
     * Returns the kind of this mode.
     *
     * @return the kind
     */
    public Kind kind() {
        return kind;
    }

    /**
     * Returns the pinned version.
     *
     * @return the version for a {@link Kind#PINNED} mode, else empty
     */
    public Optional<String> pinnedVersion() {
        return Optional.ofNullable(version);
    }

    /**
     * Returns which era this mode forces, if any.
     *
     * @return {@link Era#LEGACY} for {@link #LEGACY} and a pinned legacy version, {@link Era#MODERN} for
     *         {@link #MODERN} and a pinned modern version, empty for {@link #AUTO}
     */
    public Optional<Era> forcedEra() {
        return switch (kind) {
            case AUTO -> Optional.empty();
            case LEGACY -> Optional.of(Era.LEGACY);
            case MODERN -> Optional.of(Era.MODERN);
            case PINNED -> Optional.of(version.equals(MODERN_PROTOCOL_VERSION) ? Era.MODERN : Era.LEGACY);
        };
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ProtocolMode m && m.kind == kind && Objects.equals(m.version, version);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, version);
    }

    /** Returns the mode as {@link #parse} reads it: {@code auto}, {@code legacy}, {@code modern} or the version. */
    @Override
    public String toString() {
        return kind == Kind.PINNED ? version : kind.name().toLowerCase(Locale.ROOT);
    }
}
