package dev.loommcp.opentelemetry;

import dev.loommcp.RequestOptions;
import dev.loommcp.hosts.McpServers;
import dev.loommcp.hosts.StdioServerConfig;
import dev.loommcp.it.servers.TasksFixture;
import dev.loommcp.tasks.McpTasks;
import dev.loommcp.testing.LeakCheck;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.opentelemetry.sdk.testing.assertj.OpenTelemetryAssertions.assertThat;
import static io.opentelemetry.sdk.testing.assertj.OpenTelemetryAssertions.equalTo;

/**
 * Telemetry on every server of an {@link McpServers}, registered as docs/telemetry.md shows (the client customizer),
 * against the tasks fixture (test-servers/tasks-fixture.mjs over stdio, 2026-07-28 tasks extension): a
 * task-augmented {@code tools/call} and its polls are spans of their own, children of the caller's span, and each
 * poll links to the call's span.
 */
@ExtendWith(LeakCheck.class)
class McpServersTelemetryTest {

    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    @Test
    void theTaskPollsOfACallLinkToTheCallsSpan() throws Exception {
        McpTelemetry telemetry = McpTelemetry.create(OTEL.getOpenTelemetry());
        McpTasks tasks = McpTasks.create();
        Span caller = OTEL.getOpenTelemetry().getTracer("test").spanBuilder("caller").startSpan();
        try (McpServers servers = McpServers.newBuilder()
                .add(StdioServerConfig.of("jobs", TasksFixture.stdioCommand()))
                .clientCustomizer((config, b) -> telemetry.instrument(b.taskSupport(tasks.support())))
                .build()) {
            servers.startAll();
            try (Scope ignored = caller.makeCurrent()) {
                servers.callTool("jobs__slow_compute", Map.of("seconds", 0.5, "pollMs", 100),
                        RequestOptions.ofTimeout(Duration.ofSeconds(60)));
            } finally {
                caller.end();
            }
        }

        SpanData call = OTEL.getSpans().stream().filter(s -> s.getName().equals("tools/call slow_compute"))
                .findFirst().orElseThrow();
        assertThat(call).hasKind(SpanKind.CLIENT).hasParentSpanId(caller.getSpanContext().getSpanId())
                .hasAttributesSatisfying(equalTo(AttributeKey.stringKey("gen_ai.tool.name"), "slow_compute"),
                        equalTo(AttributeKey.stringKey("network.transport"), "pipe"));
        List<SpanData> polls = OTEL.getSpans().stream().filter(s -> s.getName().equals("tasks/get")).toList();
        assertThat(polls).isNotEmpty().allSatisfy(poll -> assertThat(poll).hasKind(SpanKind.CLIENT)
                .hasParentSpanId(caller.getSpanContext().getSpanId())
                .hasLinksSatisfying(links -> assertThat(links).extracting(LinkData::getSpanContext)
                        .containsExactly(call.getSpanContext())));
        // the registry's client closed: its session was recorded
        assertThat(OTEL.getMetrics()).anySatisfy(m -> assertThat(m).hasName("mcp.client.session.duration")
                .hasHistogramSatisfying(h -> h.hasPointsSatisfying(p -> p.hasCount(1).hasAttributesSatisfying(
                        equalTo(AttributeKey.stringKey("network.transport"), "pipe")))));
    }
}
