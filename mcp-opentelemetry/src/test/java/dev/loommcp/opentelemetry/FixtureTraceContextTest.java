package dev.loommcp.opentelemetry;

import dev.loommcp.McpClient;
import dev.loommcp.RequestOptions;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.it.servers.HttpModernFixture;
import dev.loommcp.it.servers.ModernFixture;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.ElicitResult;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.transport.http.HttpTransport;
import dev.loommcp.transport.stdio.StdioTransport;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.opentelemetry.sdk.testing.assertj.OpenTelemetryAssertions.assertThat;
import static io.opentelemetry.sdk.testing.assertj.OpenTelemetryAssertions.equalTo;
import static org.awaitility.Awaitility.await;

/**
 * The trace context a server RECEIVES, and the spans of the other request kinds, against loom's own modern fixture
 * (test-servers/modern-fixture.mjs, a real Node process on the reference SDK; its {@code trace-meta} tool answers the
 * {@code traceparent}, {@code tracestate} and {@code baggage} of its request's {@code params._meta}), over stdio and
 * Streamable HTTP, in both eras (2025-11-25 and 2026-07-28).
 */
@ExtendWith(LeakCheck.class)
class FixtureTraceContextTest {

    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    private static final Pattern TRACEPARENT = Pattern.compile("\"traceparent\":\"(00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2})\"");

    private static HttpModernFixture http;
    private McpClient client;

    enum Wire { STDIO, HTTP }

    static List<Object[]> wiresAndEras() {
        return List.of(new Object[]{Wire.STDIO, ProtocolMode.LEGACY}, new Object[]{Wire.STDIO, ProtocolMode.MODERN},
                new Object[]{Wire.HTTP, ProtocolMode.LEGACY}, new Object[]{Wire.HTTP, ProtocolMode.MODERN});
    }

    @BeforeAll
    static void startHttpFixture() throws Exception {
        http = new HttpModernFixture(ModernFixture.Variant.DUAL_ERA);
    }

    @AfterAll
    static void stopHttpFixture() {
        if (http != null) {
            http.close();
        }
    }

    @AfterEach
    void closeClient() {
        if (client != null) {
            client.close();
        }
    }

    private McpClient connect(Wire wire, ProtocolMode mode, McpTelemetry telemetry) throws Exception {
        McpTransport transport = wire == Wire.HTTP ? HttpTransport.newBuilder(http.endpoint()).build()
                : StdioTransport.newBuilder(ModernFixture.stdioCommand(ModernFixture.Variant.DUAL_ERA)).build();
        client = telemetry.instrument(McpClient.newBuilder(transport).protocolMode(mode)
                        .requestTimeout(Duration.ofSeconds(30))
                        .elicitationHandler(request -> ElicitResult.accept(Map.of("confirm", true))))
                .build();
        client.connect();
        return client;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("wiresAndEras")
    void theServerReceivesTheClientSpansTraceContext(Wire wire, ProtocolMode mode) throws Exception {
        McpClient c = connect(wire, mode, McpTelemetry.create(OTEL.getOpenTelemetry()));
        Span caller = OTEL.getOpenTelemetry().getTracer("test").spanBuilder("caller").startSpan();
        CallToolResult received;
        try (Scope ignored = caller.makeCurrent()) {
            received = c.callTool("trace-meta", Map.of());
        } finally {
            caller.end();
        }
        Matcher m = TRACEPARENT.matcher(received.text());
        assertThat(m.find()).as("the server got a traceparent: %s", received.text()).isTrue();
        SpanData span = span("tools/call trace-meta");
        assertThat(m.group(2)).isEqualTo(span.getTraceId()).isEqualTo(caller.getSpanContext().getTraceId());
        assertThat(m.group(3)).as("the server's parent is the client span").isEqualTo(span.getSpanId());
        assertThat(span).hasAttributesSatisfying(equalTo(AttributeKey.stringKey("mcp.protocol.version"),
                c.protocolVersion().orElseThrow()));
        // no session: stdio, the 2026 era (must not be set), the fixture's stateless 2025-era HTTP serving
        // (a legacy session's id is checked against the reference server: HttpReferenceServerTelemetryTest)
        assertThat(span.getAttributes().get(AttributeKey.stringKey("mcp.session.id"))).isNull();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("wiresAndEras")
    void theCallersOwnTraceparentIsKept(Wire wire, ProtocolMode mode) throws Exception {
        McpClient c = connect(wire, mode, McpTelemetry.create(OTEL.getOpenTelemetry()));
        String own = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        CallToolResult received = c.callTool("trace-meta", Map.of(),
                RequestOptions.newBuilder().putMeta("traceparent", own).build());
        assertThat(received.text()).contains("\"traceparent\":\"" + own + "\"");
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("wiresAndEras")
    void withoutPropagationTheServerGetsNoTraceContextButTheSpanIsRecorded(Wire wire, ProtocolMode mode)
            throws Exception {
        McpClient c = connect(wire, mode, McpTelemetry.newBuilder(OTEL.getOpenTelemetry())
                .propagateTraceContext(false).build());
        assertThat(c.callTool("trace-meta", Map.of()).text()).isEqualTo("{}");
        assertThat(span("tools/call trace-meta")).hasKind(SpanKind.CLIENT);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("wiresAndEras")
    void promptsResourcesAndInputRequestsHaveTheirSpans(Wire wire, ProtocolMode mode) throws Exception {
        McpClient c = connect(wire, mode, McpTelemetry.newBuilder(OTEL.getOpenTelemetry())
                .resourceUriInSpanName(true).build());
        c.getPrompt("greeting", Map.of("name", "Ada"));
        assertThat(span("prompts/get greeting")).hasKind(SpanKind.CLIENT)
                .hasAttributesSatisfying(equalTo(AttributeKey.stringKey("gen_ai.prompt.name"), "greeting"),
                        equalTo(AttributeKey.stringKey("mcp.method.name"), "prompts/get"))
                .satisfies(s -> assertThat(s.getAttributes().get(AttributeKey.stringKey("gen_ai.operation.name")))
                        .as("execute_tool is for tools/call only").isNull())
                .satisfies(s -> assertThat(s.getAttributes().get(
                        AttributeKey.stringKey("gen_ai.prompt.variable.name"))).as("not captured by default").isNull());

        c.readResource("notes://all");
        assertThat(span("resources/read notes://all")).hasAttributesSatisfying(
                equalTo(AttributeKey.stringKey("mcp.resource.uri"), "notes://all"));

        // deploy asks to confirm: a 2025-era elicitation/create server request (SERVER span) or a 2026-era input
        // request inside the call (INTERNAL span, a child of the call's span); the fixture's stateless 2025-era HTTP
        // serving cannot send server requests
        if (wire == Wire.HTTP && mode == ProtocolMode.LEGACY) {
            return;
        }
        assertThat(c.callTool("deploy", Map.of("env", "prod")).text()).isEqualTo("Deployed to prod");
        SpanData call = span("tools/call deploy");
        SpanData elicitation = span("elicitation/create");
        assertThat(elicitation).hasAttributesSatisfying(
                equalTo(AttributeKey.stringKey("mcp.method.name"), "elicitation/create"));
        if (mode == ProtocolMode.MODERN) {
            assertThat(elicitation).hasKind(SpanKind.INTERNAL).hasParentSpanId(call.getSpanId());
        } else {
            assertThat(elicitation).hasKind(SpanKind.SERVER).satisfies(s -> assertThat(s.getAttributes()
                    .get(AttributeKey.stringKey("jsonrpc.request.id"))).isNotBlank());
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("wiresAndEras")
    void argumentsAndResultsAreCapturedOnlyWhenAskedFor(Wire wire, ProtocolMode mode) throws Exception {
        McpClient c = connect(wire, mode, McpTelemetry.create(OTEL.getOpenTelemetry()));
        c.callTool("echo", Map.of("message", "secret"));
        SpanData plain = span("tools/call echo");
        assertThat(plain.getAttributes().asMap().keySet()).extracting(AttributeKey::getKey)
                .doesNotContain("gen_ai.tool.call.arguments", "gen_ai.tool.call.result");
        c.close();
        OTEL.clearSpans();

        c = connect(wire, mode, McpTelemetry.newBuilder(OTEL.getOpenTelemetry()).captureArguments(true)
                .captureResults(true).build());
        c.callTool("echo", Map.of("message", "say \"hi\""));
        c.getPrompt("greeting", Map.of("name", "Ada"));
        assertThat(span("tools/call echo")).hasAttributesSatisfying(
                equalTo(AttributeKey.stringKey("gen_ai.tool.call.arguments"), "{\"message\":\"say \\\"hi\\\"\"}"))
                .satisfies(s -> assertThat(s.getAttributes().get(AttributeKey.stringKey("gen_ai.tool.call.result")))
                        .as("the result object as JSON").startsWith(
                                "{\"content\":[{\"type\":\"text\",\"text\":\"Echo: say \\\"hi\\\"\"}]"));
        assertThat(span("prompts/get greeting")).hasAttributesSatisfying(
                equalTo(AttributeKey.stringKey("gen_ai.prompt.variable.name"), "Ada"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("wiresAndEras")
    void aDeclinedDeployIsAToolError(Wire wire, ProtocolMode mode) throws Exception {
        McpTransport transport = wire == Wire.HTTP ? HttpTransport.newBuilder(http.endpoint()).build()
                : StdioTransport.newBuilder(ModernFixture.stdioCommand(ModernFixture.Variant.DUAL_ERA)).build();
        client = McpTelemetry.create(OTEL.getOpenTelemetry()).instrument(McpClient.newBuilder(transport)
                .protocolMode(mode).requestTimeout(Duration.ofSeconds(30))
                .elicitationHandler(request -> ElicitResult.decline())).build();
        client.connect();
        assertThat(client.callTool("deploy", Map.of("env", "prod")).isError()).isTrue();
        assertThat(span("tools/call deploy")).hasStatusSatisfying(s -> s.hasCode(StatusCode.ERROR))
                .hasAttributesSatisfying(equalTo(AttributeKey.stringKey("error.type"), "tool_error"));
    }

    private static SpanData span(String name) {
        await().atMost(Duration.ofSeconds(10)).until(() -> OTEL.getSpans().stream()
                .anyMatch(s -> s.getName().equals(name)));
        return OTEL.getSpans().stream().filter(s -> s.getName().equals(name)).reduce((a, b) -> b).orElseThrow();
    }
}
