package dev.loommcp.bench;

import dev.loommcp.McpClient;
import dev.loommcp.opentelemetry.McpTelemetry;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.trace.SdkTracerProvider;

/**
 * mcp-opentelemetry on an SDK that exports nowhere (the {@code loom-otel} client): spans are sampled, built and ended,
 * metrics recorded, the trace context injected, but no span processor or metric reader takes them (the cost of the
 * instrumentation, not of an exporter). Its one method takes the builder as an {@code Object} and returns a JDK type,
 * so that {@link LoomClient} still compiles against a build from before the module existed (the comparison's
 * adapter), which never calls it.
 */
final class BenchTelemetry {

    private BenchTelemetry() {
    }

    /**
     * Instruments {@code builder} (an {@code McpClient.Builder}) and returns what to close after the client.
     *
     * @return the SDK, to close
     */
    static AutoCloseable instrument(Object builder) {
        SdkTracerProvider tracing = SdkTracerProvider.builder().build();
        SdkMeterProvider metrics = SdkMeterProvider.builder().build();
        OpenTelemetrySdk sdk = OpenTelemetrySdk.builder().setTracerProvider(tracing).setMeterProvider(metrics)
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance())).build();
        McpTelemetry.create(sdk).instrument((McpClient.Builder) builder);
        return sdk::close;
    }
}
