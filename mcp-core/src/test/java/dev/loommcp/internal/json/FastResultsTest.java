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
}
