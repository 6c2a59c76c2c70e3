package dev.loommcp.opentelemetry;

import dev.loommcp.McpClient;
import dev.loommcp.testing.ScriptedTransport;
import io.opentelemetry.api.OpenTelemetry;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The entry point's argument checks and the JSON the opt-in capture writes. */
class McpTelemetryTest {

    @Test
    void nullsAreRefusedNamingTheParameter() {
        assertThatThrownBy(() -> McpTelemetry.create(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("openTelemetry");
        assertThatThrownBy(() -> McpTelemetry.newBuilder(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("openTelemetry");
        assertThatThrownBy(() -> McpTelemetry.create(OpenTelemetry.noop()).instrument(null))
                .isInstanceOf(NullPointerException.class).hasMessage("builder");
    }

    @Test
    void theInterceptorsAreSharedAndInstrumentReturnsTheBuilder() {
        McpTelemetry telemetry = McpTelemetry.create(OpenTelemetry.noop());
        assertThat(telemetry.interceptor()).isSameAs(telemetry.interceptor());
        assertThat(telemetry.serverRequestInterceptor()).isSameAs(telemetry.serverRequestInterceptor());
        McpClient.Builder builder = McpClient.newBuilder(ScriptedTransport.create(ScriptedTransport.Mode.INLINE));
        assertThat(telemetry.instrument(builder)).isSameAs(builder);
        builder.build().close();
    }

    @Test
    void captureWritesPlainJsonWithEscapes() {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("s", "a\"b\\c\n\t\u0001");
        value.put("n", 1.5);
        value.put("b", true);
        value.put("null", null);
        value.put("list", Arrays.asList(1, "x", null, List.of()));
        value.put("map", Map.of());
        assertThat(PlainJson.write(value)).isEqualTo(
                "{\"s\":\"a\\\"b\\\\c\\n\\t\\u0001\",\"n\":1.5,\"b\":true,\"null\":null,\"list\":[1,\"x\",null,[]],"
                        + "\"map\":{}}");
    }
}
