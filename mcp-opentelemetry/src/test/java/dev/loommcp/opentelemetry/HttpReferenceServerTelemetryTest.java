package dev.loommcp.opentelemetry;

import dev.loommcp.it.servers.HttpReferenceServer;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.transport.http.HttpTransport;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link ReferenceServerTelemetryContract} over Streamable HTTP (one reference server for the class):
 * {@code network.transport=tcp}, {@code network.protocol.name=http}, the server's loopback address and port, and the
 * legacy session's {@code mcp.session.id} on spans.
 */
class HttpReferenceServerTelemetryTest extends ReferenceServerTelemetryContract {

    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    @Override
    OpenTelemetryExtension otel() {
        return OTEL;
    }

    private static HttpReferenceServer server;

    @BeforeAll
    static void start() throws Exception {
        server = new HttpReferenceServer();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Override
    McpTransport newTransport() {
        return HttpTransport.newBuilder(server.endpoint()).build();
    }

    @Override
    Attributes connectionAttributes() {
        return Attributes.builder().put("network.transport", "tcp").put("network.protocol.name", "http")
                .put("server.address", server.endpoint().getHost())
                .put("server.port", (long) server.endpoint().getPort()).build();
    }

    @Override
    boolean hasSession() {
        return true;
    }
}
