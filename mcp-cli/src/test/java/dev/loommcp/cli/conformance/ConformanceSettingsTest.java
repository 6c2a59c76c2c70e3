package dev.loommcp.cli.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.config.Era;
import dev.loommcp.config.ProtocolMode;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How the conformance client reads what the suite puts in its environment. */
class ConformanceSettingsTest {

    private final Map<String, String> env = new HashMap<>();

    private ConformanceSettings read() {
        return ConformanceSettings.fromEnvironment(env::get);
    }

    @Test
    void theProtocolVersionPicksTheEra() {
        assertThat(ConformanceSettings.protocolMode("2026-07-28")).isEqualTo(ProtocolMode.pinned("2026-07-28"));
        assertThat(ConformanceSettings.protocolMode("2026-07-28").forcedEra()).contains(Era.MODERN);
        assertThat(ConformanceSettings.protocolMode("2025-11-25")).isEqualTo(ProtocolMode.pinned("2025-11-25"));
        assertThat(ConformanceSettings.protocolMode("2025-11-25").forcedEra()).contains(Era.LEGACY);
        assertThat(ConformanceSettings.protocolMode(" 2025-06-18 ").pinnedVersion()).contains("2025-06-18");
    }

    @Test
    void noProtocolVersionMeansAuto() {
        assertThat(ConformanceSettings.protocolMode(null)).isEqualTo(ProtocolMode.AUTO);
        assertThat(ConformanceSettings.protocolMode("  ")).isEqualTo(ProtocolMode.AUTO);
        env.put(ConformanceSettings.SCENARIO_ENV, "initialize");
        assertThat(read().protocolMode()).isEqualTo(ProtocolMode.AUTO);
    }

    @Test
    void aProtocolVersionTheClientDoesNotSpeakIsRefusedByName() {
        assertThatThrownBy(() -> ConformanceSettings.protocolMode("2099-01-01"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("MCP_CONFORMANCE_PROTOCOL_VERSION").hasMessageContaining("2099-01-01");
        assertThatThrownBy(() -> ConformanceSettings.protocolMode("modern"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("MCP_CONFORMANCE_PROTOCOL_VERSION").hasMessageContaining("'modern'");
    }

    @Test
    void theScenarioIsRequired() {
        assertThatThrownBy(this::read).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("MCP_CONFORMANCE_SCENARIO is not set");
        env.put(ConformanceSettings.SCENARIO_ENV, " ");
        assertThatThrownBy(this::read).isInstanceOf(IllegalArgumentException.class);
        env.put(ConformanceSettings.SCENARIO_ENV, " tools_call\n");
        assertThat(read().scenario()).isEqualTo("tools_call");
    }

    @Test
    void theContextsToolCallsKeepTheirOrderAndNullArguments() {
        env.put(ConformanceSettings.SCENARIO_ENV, "http-custom-headers");
        env.put(ConformanceSettings.PROTOCOL_VERSION_ENV, "2026-07-28");
        env.put(ConformanceSettings.CONTEXT_ENV, """
                {"name":"http-custom-headers","toolCalls":[
                  {"name":"b","arguments":{"z":1,"a":"x","empty":"","tab":"\\tindented"}},
                  {"name":"a","arguments":{"verbose":null,"region":"us-east1"}},
                  {"name":"c"}]}""");
        ConformanceSettings s = read();
        assertThat(s.protocolMode()).isEqualTo(ProtocolMode.pinned("2026-07-28"));
        List<ConformanceSettings.ToolCall> calls = s.toolCalls();
        assertThat(calls).extracting(ConformanceSettings.ToolCall::name).containsExactly("b", "a", "c");
        assertThat(calls.get(0).arguments()).containsExactly(Map.entry("z", 1), Map.entry("a", "x"),
                Map.entry("empty", ""), Map.entry("tab", "\tindented"));
        Map<String, Object> withNull = new LinkedHashMap<>();
        withNull.put("verbose", null);
        withNull.put("region", "us-east1");
        assertThat(calls.get(1).arguments()).isEqualTo(withNull).containsKey("verbose");
        assertThat(calls.get(2).arguments()).isEmpty();
    }

    @Test
    void noContextMeansNoToolCalls() {
        env.put(ConformanceSettings.SCENARIO_ENV, "http-custom-headers");
        assertThat(read().context()).isEmpty();
        assertThat(read().toolCalls()).isEmpty();
        env.put(ConformanceSettings.CONTEXT_ENV, "{\"name\":\"x\"}");
        assertThat(read().toolCalls()).isEmpty();
    }

    @Test
    void aBadContextIsRefusedSayingWhatIsWrong() {
        assertThatThrownBy(() -> ConformanceSettings.context("{"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("MCP_CONFORMANCE_CONTEXT is not valid JSON");
        assertThatThrownBy(() -> ConformanceSettings.context("[1]"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be a JSON object, not a list");
        env.put(ConformanceSettings.SCENARIO_ENV, "http-custom-headers");
        env.put(ConformanceSettings.CONTEXT_ENV, "{\"toolCalls\":{}}");
        assertThatThrownBy(() -> read().toolCalls()).hasMessageContaining("toolCalls must be a list, not an object");
        env.put(ConformanceSettings.CONTEXT_ENV, "{\"toolCalls\":[{\"arguments\":{}}]}");
        assertThatThrownBy(() -> read().toolCalls()).hasMessageContaining("toolCalls[0] has no tool name");
        env.put(ConformanceSettings.CONTEXT_ENV, "{\"toolCalls\":[{\"name\":\"t\"},{\"name\":\"u\",\"arguments\":[]}]}");
        assertThatThrownBy(() -> read().toolCalls())
                .hasMessageContaining("toolCalls[1].arguments must be an object, not a list");
        env.put(ConformanceSettings.CONTEXT_ENV, "{\"toolCalls\":[\"t\"]}");
        assertThatThrownBy(() -> read().toolCalls()).hasMessageContaining("toolCalls[0] must be an object, not a string");
    }
}
