package dev.loommcp.internal.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpProtocolException;
import dev.loommcp.schema.CallToolResult;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The fast path for tools/call results gives exactly what the general conversion gives, errors included. */
class FastResultsTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"content\":[{\"type\":\"text\",\"text\":\"Echo: hi\"}]}",
        "{\"content\":[{\"type\":\"text\",\"text\":\"a\",\"_meta\":{\"k\":1}},{\"type\":\"image\",\"data\":\"AA==\","
            + "\"mimeType\":\"image/png\"},{\"type\":\"audio\",\"data\":\"AA==\",\"mimeType\":\"audio/wav\"}],"
            + "\"isError\":false,\"_meta\":{\"x\":[1,2]}}",
        "{\"content\":[],\"structuredContent\":{\"temperature\":21.5,\"nested\":{\"a\":null}},\"isError\":true}",
        "{\"content\":[{\"type\":\"text\",\"text\":\"x\",\"annotations\":{\"priority\":0.5}}]}",
        "{\"content\":[{\"type\":\"resource_link\",\"uri\":\"demo://a\",\"name\":\"a\"},{\"type\":\"future\",\"z\":1}]}",
        "{\"content\":[{\"type\":\"image\",\"data\":\"AA==\"}]}",
        "{\"isError\":\"yes\",\"content\":[]}",
        "{}"
    })
    void matchesTheGeneralConversion(String json) {
        Object raw = Json.read(json);
        CallToolResult general;
        try {
            general = Json.convert(raw, CallToolResult.class, "r");
        } catch (McpProtocolException e) {
            assertThatThrownBy(() -> FastResults.callToolResult(raw, "r")).isInstanceOf(McpProtocolException.class);
            return;
        }
        CallToolResult fast = FastResults.callToolResult(raw, "r");
        assertThat(fast).isEqualTo(general);
        assertThat(Json.toPlain(fast)).isEqualTo(Json.toPlain(general));
    }

    @Test
    void textOfTheCommonCase() {
        CallToolResult r = FastResults.callToolResult(Json.read("{\"content\":[{\"type\":\"text\",\"text\":\"hi\"}]}"),
                "r");
        assertThat(r.text()).isEqualTo("hi");
        assertThat(r.content()).hasSize(1);
        assertThat(r.error()).isFalse();
        assertThat(List.copyOf(r.content())).isEqualTo(r.content());
    }
    @ParameterizedTest
    @ValueSource(strings = {
        "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{\"listChanged\":true},\"resources\":"
            + "{\"subscribe\":true,\"listChanged\":true},\"prompts\":{},\"logging\":{},\"completions\":{},"
            + "\"tasks\":{\"list\":{}}},\"serverInfo\":{\"name\":\"s\",\"title\":\"S\",\"version\":\"1\"},"
            + "\"instructions\":\"hi\",\"_meta\":{\"a\":1}}",
        "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"serverInfo\":{\"name\":\"s\",\"version\":\"1\","
            + "\"icons\":[{\"src\":\"data:x\"}]}}",
        "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{\"listChanged\":\"yes\"}},"
            + "\"serverInfo\":{\"name\":\"s\",\"version\":\"1\"}}",
        "{\"protocolVersion\":7,\"capabilities\":{},\"serverInfo\":{\"name\":\"s\",\"version\":\"1\"}}",
        "{\"capabilities\":[],\"serverInfo\":{\"version\":\"1\"}}"
    })
    void initializeResultMatchesTheGeneralConversion(String json) {
        Object raw = Json.read(json);
        dev.loommcp.schema.InitializeResult general;
        try {
            general = Json.convert(raw, dev.loommcp.schema.InitializeResult.class, "r");
        } catch (McpProtocolException e) {
            assertThatThrownBy(() -> FastResults.initializeResult(raw, "r")).isInstanceOf(McpProtocolException.class);
            return;
        }
        assertThat(FastResults.initializeResult(raw, "r")).isEqualTo(general);
    }

    @Test
    void handshakeRecordsWriteAsDataBindingWould() {
        var caps = new dev.loommcp.schema.ClientCapabilities(java.util.Map.of("x", java.util.Map.of()),
                new dev.loommcp.schema.RootsCapability(true), new dev.loommcp.schema.SamplingCapability(null, null),
                new dev.loommcp.schema.ElicitationCapability(java.util.Map.of(), java.util.Map.of()), null, null);
        assertThat(FastResults.plain(caps)).isEqualTo(Json.toPlain(caps));
        var info = new dev.loommcp.schema.Implementation("n", "1", "T", null, "https://x", null);
        assertThat(FastResults.plain(info)).isEqualTo(Json.toPlain(info));
    }
}
