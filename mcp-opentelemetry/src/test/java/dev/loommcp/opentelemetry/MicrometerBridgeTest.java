package dev.loommcp.opentelemetry;

import dev.loommcp.McpClient;
import dev.loommcp.it.servers.ReferenceServer;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.transport.stdio.StdioTransport;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelBaggageManager;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;

import static io.opentelemetry.sdk.testing.assertj.OpenTelemetryAssertions.assertThat;

/**
 * The Micrometer example of docs/telemetry.md, as it stands there, against the reference server over stdio: with
 * Micrometer Tracing's OpenTelemetry bridge, the span of an {@code Observation} open around a call is the parent of
 * the MCP span (in the OpenTelemetry 1.55 run too: the bridge 1.7.2 works on Spring Boot 4.0's API).
 */
@ExtendWith(LeakCheck.class)
class MicrometerBridgeTest {

    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    @Test
    void anObservationAroundACallIsTheParentOfTheMcpSpan() throws Exception {
        OpenTelemetry openTelemetry = OTEL.getOpenTelemetry();
        McpTransport transport = StdioTransport.newBuilder(ReferenceServer.stdioCommand()).build();

        // --- docs/telemetry.md, section Micrometer
        OtelCurrentTraceContext current = new OtelCurrentTraceContext();
        OtelTracer tracer = new OtelTracer(openTelemetry.getTracer("my-agent"), current, event -> { },
                new OtelBaggageManager(current, List.of(), List.of()));
        ObservationRegistry observations = ObservationRegistry.create();
        observations.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer));

        McpClient client = McpTelemetry.create(openTelemetry).instrument(McpClient.newBuilder(transport)).build();
        client.connect();
        // the MCP span "tools/call echo" is a child of the observation's span
        Observation.createNotStarted("agent.turn", observations)
                .observeChecked(() -> client.callTool("echo", Map.of("message", "hi")));
        // --- end of the example
        client.close();

        SpanData turn = OTEL.getSpans().stream().filter(s -> s.getName().equals("agent.turn")).findFirst()
                .orElseThrow();
        SpanData call = OTEL.getSpans().stream().filter(s -> s.getName().equals("tools/call echo")).findFirst()
                .orElseThrow();
        assertThat(call).hasKind(SpanKind.CLIENT).hasTraceId(turn.getTraceId()).hasParentSpanId(turn.getSpanId());
    }
}
