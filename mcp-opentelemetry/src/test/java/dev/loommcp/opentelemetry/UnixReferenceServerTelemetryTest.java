package dev.loommcp.opentelemetry;

import dev.loommcp.it.servers.UnixSocketServer;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.transport.http.HttpTransport;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link ReferenceServerTelemetryContract} over Streamable HTTP on a unix domain socket ({@code unix:} endpoint,
 * mcp-transport-unix; one reference server for the class): {@code network.transport=unix},
 * {@code network.protocol.name=http}, the socket's path as {@code server.address}, no port, and the legacy session's
 * {@code mcp.session.id}.
 */
class UnixReferenceServerTelemetryTest extends ReferenceServerTelemetryContract {

    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    private static UnixSocketServer server;

    @BeforeAll
    static void start() throws Exception {
        server = UnixSocketServer.referenceServer();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Override
    OpenTelemetryExtension otel() {
        return OTEL;
    }

    @Override
    McpTransport newTransport() {
        return HttpTransport.newBuilder(server.endpoint()).build();
    }

    @Override
    Attributes connectionAttributes() {
        return Attributes.builder().put("network.transport", "unix").put("network.protocol.name", "http")
                .put("server.address", server.socket().toString()).build();
    }

    @Override
    boolean hasSession() {
        return true;
    }
}
