package dev.loommcp.spi;

import org.jspecify.annotations.Nullable;

import java.util.Objects;

/**
 * What kind of wire a transport speaks and where its server is, for telemetry and policies
 * ({@link McpTransport#info()}; interceptors read it through {@code McpInterceptor.Chain.connection()}). The values
 * follow the OpenTelemetry attributes {@code network.transport}, {@code server.address} and {@code server.port}: no
 * reverse lookup, the host as the endpoint names it.
 *
 * @param kind    the kind of wire
 * @param address the server's host as the endpoint names it (HTTP), the socket file's path (unix socket); {@code null}
 *                where there is none (stdio) or the transport does not say
 * @param port    the server's TCP port (the scheme's default when the endpoint names none); {@code null} where there is
 *                none
 */
public record TransportInfo(Kind kind, @Nullable String address, @Nullable Integer port) {

    /** The kind of wire. */
    public enum Kind {
        /** A child process's standard input and output (OpenTelemetry {@code network.transport=pipe}). */
        PIPE,
        /** HTTP over TCP: Streamable HTTP or the legacy HTTP+SSE transport ({@code tcp}). */
        TCP,
        /** HTTP over a unix domain socket ({@code unix}). */
        UNIX,
        /** Anything else: an in-memory transport of tests, a transport that does not say. */
        OTHER
    }

    private static final TransportInfo OTHER = new TransportInfo(Kind.OTHER, null, null);
    private static final TransportInfo PIPE = new TransportInfo(Kind.PIPE, null, null);

    /**
     * Checks the components.
     *
     * @throws NullPointerException     if {@code kind} is {@code null}
     * @throws IllegalArgumentException if {@code port} is not within 1..65535
     */
    public TransportInfo {
        Objects.requireNonNull(kind, "kind");
        if (port != null && (port < 1 || port > 65_535)) {
            throw new IllegalArgumentException("port must be within 1..65535: " + port);
        }
    }

    /**
     * Returns the info of a transport that does not say what it is: {@link Kind#OTHER}, no address, no port.
     *
     * @return the info
     */
    public static TransportInfo other() {
        return OTHER;
    }

    /**
     * Returns the info of a stdio transport: {@link Kind#PIPE}, no address, no port.
     *
     * @return the info
     */
    public static TransportInfo pipe() {
        return PIPE;
    }
}
