package dev.loommcp.opentelemetry;

import dev.loommcp.CancellationToken;
import dev.loommcp.McpCancelledException;
import dev.loommcp.McpClient;
import dev.loommcp.McpRpcException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.RequestOptions;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.RecordingTransport;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static io.opentelemetry.sdk.testing.assertj.OpenTelemetryAssertions.assertThat;
import static io.opentelemetry.sdk.testing.assertj.OpenTelemetryAssertions.equalTo;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The telemetry of a client of the reference server (server-everything, a real process), per outcome: the span of
 * one {@code tools/call} attribute by attribute and its place in the caller's trace, the trace context on the wire, a
 * JSON-RPC error, a tool's {@code isError}, a cancelled call, a timeout, and both histograms. Subclasses give the
 * transport (stdio: {@code pipe}; Streamable HTTP: {@code tcp}).
 */
@ExtendWith(LeakCheck.class)
abstract class ReferenceServerTelemetryContract {

    static final String TRACEPARENT = "^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$";
    static final List<Double> BUCKETS = List.of(0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0,
            120.0, 300.0);

    private McpClient client;
    RecordingTransport wire;

    /**
     * The class's SDK with in-memory exporters (a static field of each test class: the extension shuts its SDK down
     * after its class).
     */
    abstract OpenTelemetryExtension otel();

    /** A new transport to a new reference server (stdio) or to the class's server (HTTP). */
    abstract McpTransport newTransport();

    /** The attributes every request's span and metric carry on this transport ({@code network.*}, server). */
    abstract Attributes connectionAttributes();

    /** Whether requests carry a legacy session id ({@code mcp.session.id}). */
    abstract boolean hasSession();

    McpClient connect() throws Exception {
        wire = new RecordingTransport(newTransport());
        client = McpTelemetry.create(otel().getOpenTelemetry())
                .instrument(McpClient.newBuilder(wire).requestTimeout(Duration.ofSeconds(30))).build();
        client.connect();
        return client;
    }

    @AfterEach
    void closeClient() {
        if (client != null) {
            client.close();
        }
    }

    @Test
    void theSpanOfOneToolCallAttributeByAttributeAsAChildOfTheCallersSpan() throws Exception {
        McpClient c = connect();
        Span caller = otel().getOpenTelemetry().getTracer("test").spanBuilder("caller").startSpan();
        try (Scope ignored = caller.makeCurrent()) {
            assertThat(c.callTool("echo", Map.of("message", "hi")).text()).isEqualTo("Echo: hi");
        } finally {
            caller.end();
        }

        JsonRpcMessage.Request sent = sentRequest("tools/call");
        SpanData span = span("tools/call echo");
        assertThat(span).hasKind(SpanKind.CLIENT)
                .hasParentSpanId(caller.getSpanContext().getSpanId())
                .hasTraceId(caller.getSpanContext().getTraceId())
                .hasStatus(io.opentelemetry.sdk.trace.data.StatusData.unset())
                .hasAttributes(withSession(Attributes.builder()
                        .put("mcp.method.name", "tools/call")
                        .put("gen_ai.tool.name", "echo")
                        .put("gen_ai.operation.name", "execute_tool")
                        .put("jsonrpc.request.id", String.valueOf(sent.id().value()))
                        .put("mcp.protocol.version", c.protocolVersion().orElseThrow())
                        .putAll(connectionAttributes()).build(), span));
        // the trace context on the wire is the span's: the server's span would be its child
        Object traceparent = meta(sent).get("traceparent");
        assertThat(traceparent).asString().matches(TRACEPARENT)
                .startsWith("00-" + span.getTraceId() + "-" + span.getSpanId() + "-");
        // the handshake is not a request of the application: no span
        assertThat(otel().getSpans()).extracting(SpanData::getName).doesNotContain("initialize");
    }

    @Test
    void aJsonRpcErrorIsItsCodeAsErrorTypeAndStatusCodeWithTheServersMessage() throws Exception {
        McpClient c = connect();
        McpRpcException e = (McpRpcException) catchThrowable(() -> c.getPrompt("no-such-prompt", Map.of()));
        String code = Integer.toString(e.code());
        assertThat(span("prompts/get no-such-prompt")).hasKind(SpanKind.CLIENT)
                .hasStatus(io.opentelemetry.sdk.trace.data.StatusData.create(StatusCode.ERROR, e.errorMessage()))
                .hasAttributesSatisfying(equalTo(AttributeKey.stringKey("error.type"), code),
                        equalTo(AttributeKey.stringKey("rpc.response.status_code"), code),
                        equalTo(AttributeKey.stringKey("gen_ai.prompt.name"), "no-such-prompt"),
                        equalTo(AttributeKey.stringKey("jsonrpc.request.id"),
                                String.valueOf(sentRequest("prompts/get").id().value())));
        assertThat(code).startsWith("-");
    }

    @Test
    void aToolResultWithIsErrorIsToolError() throws Exception {
        McpClient c = connect();
        // the reference server answers arguments its schema refuses with an isError result
        CallToolResult r = c.callTool("get-sum", Map.of("a", "not a number", "b", 1));
        assertThat(r.isError()).isTrue();
        assertThat(span("tools/call get-sum"))
                .hasStatusSatisfying(s -> s.hasCode(StatusCode.ERROR))
                .hasAttributesSatisfying(equalTo(AttributeKey.stringKey("error.type"), "tool_error"))
                .satisfies(s -> assertThat(s.getAttributes().get(AttributeKey.stringKey("rpc.response.status_code")))
                        .isNull());
    }

    @Test
    void aCancelledCallEndsItsSpanWithTheCancellation() throws Exception {
        McpClient c = connect();
        CancellationToken token = CancellationToken.create();
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            CompletableFuture<Throwable> call = CompletableFuture.supplyAsync(() -> catchThrowable(() ->
                    c.callTool("trigger-long-running-operation", Map.of("duration", 30, "steps", 30),
                            RequestOptions.ofToken(token))), threads);
            await().atMost(Duration.ofSeconds(20)).until(() -> wire.sent().stream()
                    .anyMatch(m -> m instanceof JsonRpcMessage.Request q && q.method().equals("tools/call")));
            token.cancel("the test gave up");
            assertThat(call.get(20, TimeUnit.SECONDS)).isInstanceOf(McpCancelledException.class);
        }
        assertThat(span("tools/call trigger-long-running-operation"))
                .hasStatusSatisfying(s -> s.hasCode(StatusCode.ERROR))
                .hasAttributesSatisfying(equalTo(AttributeKey.stringKey("error.type"), "cancelled"));
        assertThat(operationPoints()).anySatisfy(p -> assertThat(p.getAttributes().get(
                AttributeKey.stringKey("error.type"))).isEqualTo("cancelled"));
    }

    @Test
    void aTimeoutIsErrorTypeTimeout() throws Exception {
        McpClient c = connect();
        assertThatThrownBy(() -> c.callTool("trigger-long-running-operation", Map.of("duration", 30, "steps", 30),
                RequestOptions.ofTimeout(Duration.ofMillis(300)))).isInstanceOf(McpTimeoutException.class);
        assertThat(span("tools/call trigger-long-running-operation"))
                .hasStatusSatisfying(s -> s.hasCode(StatusCode.ERROR).hasDescription("the request's deadline passed"))
                .hasAttributesSatisfying(equalTo(AttributeKey.stringKey("error.type"), "timeout"));
    }

    @Test
    void theOperationAndSessionHistogramsWithTheBucketAdvice() throws Exception {
        McpClient c = connect();
        c.callTool("echo", Map.of("message", "one"));
        String version = c.protocolVersion().orElseThrow();
        c.close();

        assertThat(otel().getMetrics()).anySatisfy(m -> assertThat(m).hasName("mcp.client.operation.duration")
                .hasUnit("s").hasHistogramSatisfying(h -> h.hasPointsSatisfying(p -> p.hasCount(1)
                        .hasBucketBoundaries(BUCKETS.stream().mapToDouble(Double::doubleValue).toArray())
                        .hasAttributes(Attributes.builder()
                                .put("mcp.method.name", "tools/call")
                                .put("gen_ai.tool.name", "echo")
                                .put("gen_ai.operation.name", "execute_tool")
                                .put("mcp.protocol.version", version)
                                .putAll(connectionAttributes()).build()))));
        assertThat(otel().getMetrics()).anySatisfy(m -> assertThat(m).hasName("mcp.client.session.duration")
                .hasUnit("s").hasHistogramSatisfying(h -> h.hasPointsSatisfying(p -> p.hasCount(1)
                        .hasBucketBoundaries(BUCKETS.stream().mapToDouble(Double::doubleValue).toArray())
                        .hasAttributes(Attributes.builder()
                                .put("mcp.protocol.version", version)
                                .putAll(connectionAttributes()).build()))));
    }

    // --- helpers

    List<io.opentelemetry.sdk.metrics.data.HistogramPointData> operationPoints() {
        return otel().getMetrics().stream().filter(m -> m.getName().equals("mcp.client.operation.duration"))
                .flatMap(m -> m.getHistogramData().getPoints().stream()).toList();
    }

    /**
     * The attributes of a span: {@code attributes}, plus on a legacy HTTP session the span's own
     * {@code mcp.session.id}, checked to be there.
     */
    Attributes withSession(Attributes attributes, SpanData span) {
        if (!hasSession()) {
            return attributes;
        }
        String id = span.getAttributes().get(AttributeKey.stringKey("mcp.session.id"));
        assertThat(id).as("mcp.session.id").isNotBlank();
        return attributes.toBuilder().put("mcp.session.id", id).build();
    }

    SpanData span(String name) {
        await().atMost(Duration.ofSeconds(10)).until(() -> otel().getSpans().stream()
                .anyMatch(s -> s.getName().equals(name)));
        return otel().getSpans().stream().filter(s -> s.getName().equals(name)).findFirst().orElseThrow();
    }

    JsonRpcMessage.Request sentRequest(String method) {
        return wire.sent().stream().filter(m -> m instanceof JsonRpcMessage.Request r && r.method().equals(method))
                .map(JsonRpcMessage.Request.class::cast).reduce((a, b) -> b).orElseThrow();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> meta(JsonRpcMessage.Request request) {
        Map<String, Object> params = (Map<String, Object>) request.params();
        return (Map<String, Object>) params.get("_meta");
    }

    static Throwable catchThrowable(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
        return org.assertj.core.api.Assertions.catchThrowable(call);
    }
}
