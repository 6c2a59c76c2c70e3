package dev.loommcp.opentelemetry;

import dev.loommcp.it.servers.ReferenceServer;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.transport.stdio.StdioTransport;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link ReferenceServerTelemetryContract} over stdio: {@code network.transport=pipe}, no server address, no session. */
class StdioReferenceServerTelemetryTest extends ReferenceServerTelemetryContract {

    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    @Override
    OpenTelemetryExtension otel() {
        return OTEL;
    }

    @Override
    McpTransport newTransport() {
        return StdioTransport.newBuilder(ReferenceServer.stdioCommand()).build();
    }

    @Override
    Attributes connectionAttributes() {
        return Attributes.builder().put("network.transport", "pipe").build();
    }

    @Override
    boolean hasSession() {
        return false;
    }
}
