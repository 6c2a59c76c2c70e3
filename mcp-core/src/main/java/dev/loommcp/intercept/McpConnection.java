package dev.loommcp.intercept;

import dev.loommcp.config.Era;
import dev.loommcp.schema.Implementation;
import dev.loommcp.spi.TransportInfo;

import java.util.Optional;

/**
 * What a client knows of its connection when an interceptor runs, read at that moment: the era and protocol version,
 * the session id of a legacy HTTP session, the transport's kind and server address, the server's description and
 * identity. The facts telemetry records for each request (OpenTelemetry's {@code mcp.protocol.version},
 * {@code mcp.session.id}, {@code network.transport}, {@code server.address}, {@code server.port}).
 *
 * <p>Implemented by the client; thread-safe. Each accessor reads the current state (a renewed legacy session has a
 * new id; a {@code -32022} corrective retry may change the 2026 era's version).
 */
public interface McpConnection {

    /**
     * Returns the era of the connection (always present once connected, which every intercepted request is).
     *
     * @return the era, or empty before {@code connect()} completed
     */
    Optional<Era> era();

    /**
     * Returns the protocol version in use: the negotiated one (2025 era) or the one the requests carry (2026 era).
     *
     * @return the version, or empty before {@code connect()} completed
     */
    Optional<String> protocolVersion();

    /**
     * Returns the id of the session the server assigned: the legacy Streamable HTTP {@code Mcp-Session-Id}. Empty on
     * stdio, in the 2026 era (no sessions; OpenTelemetry's {@code mcp.session.id} must not be set then) and before
     * the server assigned one.
     *
     * @return the session id, or empty
     */
    Optional<String> sessionId();

    /**
     * Returns the transport's kind and the server's address and port where known ({@code McpTransport.info()}).
     *
     * @return the transport info
     */
    TransportInfo transport();

    /**
     * Returns the server as the user knows it: the client's {@code McpClient.Builder.serverName} when it has one (a
     * hosted server's name in {@code McpServers}), else the transport's description of the server (the command or
     * the endpoint's origin; never secrets). The transport's own view is {@link #transport()}.
     *
     * @return the name or description
     */
    String server();

    /**
     * Returns the server's identity as it stated it ({@code initialize}, or the 2026 era's result {@code _meta}).
     *
     * @return the identity, or empty when the server gave none
     */
    Optional<Implementation> serverInfo();
}
