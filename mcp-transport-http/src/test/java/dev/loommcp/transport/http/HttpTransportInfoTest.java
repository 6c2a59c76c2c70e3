package dev.loommcp.transport.http;

import dev.loommcp.spi.TransportInfo;
import org.junit.jupiter.api.Test;

import java.net.URI;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code McpTransport.info()} of the HTTP transports (issue 30: what an interceptor and telemetry read as
 * {@code network.transport}, {@code server.address} and {@code server.port}): TCP with the endpoint's host and port,
 * the scheme's default port when it names none; and no session id before the server assigned one.
 */
class HttpTransportInfoTest {

    @Test
    void streamableHttpIsTcpWithTheEndpointsHostAndPortOrTheSchemesDefault() {
        try (HttpTransport https = HttpTransport.newBuilder(URI.create("https://mcp.example.com/mcp?x=1")).build();
             HttpTransport http = HttpTransport.newBuilder(URI.create("http://127.0.0.1:8931/mcp")).build();
             HttpTransport plain = HttpTransport.newBuilder(URI.create("http://localhost/mcp")).build()) {
            assertThat(https.info()).isEqualTo(new TransportInfo(TransportInfo.Kind.TCP, "mcp.example.com", 443));
            assertThat(http.info()).isEqualTo(new TransportInfo(TransportInfo.Kind.TCP, "127.0.0.1", 8931));
            assertThat(plain.info()).isEqualTo(new TransportInfo(TransportInfo.Kind.TCP, "localhost", 80));
            assertThat(https.sessionId()).isEmpty();
        }
    }

    @Test
    void theLegacySseTransportIsTcpToo() {
        try (SseTransport sse = SseTransport.newBuilder(URI.create("https://legacy.example.com:8443/sse")).build()) {
            assertThat(sse.info()).isEqualTo(new TransportInfo(TransportInfo.Kind.TCP, "legacy.example.com", 8443));
            assertThat(sse.sessionId()).isEmpty();
        }
    }
}
