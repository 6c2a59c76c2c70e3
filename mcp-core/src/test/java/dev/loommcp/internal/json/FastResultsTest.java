package dev.loommcp.internal.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpProtocolException;
import dev.loommcp.internal.json.plain.FrozenJsonObject;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.schema.CallToolResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The fast paths ({@code tools/call} and {@code tools/list} results, the handshake's records) give exactly what the
 * general conversion gives, errors included.
 */
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
        assertSameAsTheGeneralConversion(json, CallToolResult.class, FastResults::callToolResult);
    }

    /**
     * The fast conversion of the JSON text gives what data binding gives: an equal record that writes the same plain
     * values, or the same error.
     */
    private static <T> void assertSameAsTheGeneralConversion(String json, Class<T> type,
                                                             java.util.function.BiFunction<Object, String, T> fast) {
        Object raw = Json.read(json);
        T general;
        try {
            general = Json.convert(raw, type, "r");
        } catch (McpProtocolException e) {
            assertThatThrownBy(() -> fast.apply(raw, "r")).isInstanceOf(McpProtocolException.class)
                    .hasMessage(e.getMessage());
            return;
        }
        T result = fast.apply(raw, "r");
        assertThat(result).isEqualTo(general);
        assertThat(Json.toPlain(result)).isEqualTo(Json.toPlain(general));
    }

    /** A null value and a record's missing required member are named, for every conversion. */
    @Test
    void nullAndAMissingMemberAreNamed() {
        assertThatThrownBy(() -> FastResults.initializeResult(null, "initialize result"))
                .isInstanceOf(McpProtocolException.class)
                .hasMessage("malformed initialize result: null instead of InitializeResult");
        assertThatThrownBy(() -> Json.convert(null, CallToolResult.class, "r")).isInstanceOf(McpProtocolException.class);
        assertThatThrownBy(() -> FastResults.listToolsResult(Json.read("{\"tools\":[{\"description\":\"d\"}]}"),
                "tools/list result")).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("at /tools/0")
                .hasMessageContaining("'name' is missing");
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

    /**
     * The common shapes really take the fast path (the tests above would pass if it always fell back): it keeps the
     * decoded nested objects, where data binding builds new ones.
     */
    @Test
    @SuppressWarnings("unchecked")
    void theCommonShapesTakeTheFastPath() {
        Map<String, Object> list = (Map<String, Object>) Json.read("{\"tools\":[{\"name\":\"echo\",\"inputSchema\":"
                + "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}}},\"annotations\":"
                + "{\"readOnlyHint\":true}}]}");
        Object properties = ((Map<String, Object>) ((Map<String, Object>) ((List<Object>) list.get("tools")).get(0))
                .get("inputSchema")).get("properties");
        assertThat(FastResults.listToolsResult(list, "r").tools().get(0).inputSchema().get("properties"))
                .isSameAs(properties);
        assertThat(Json.convert(list, dev.loommcp.schema.ListToolsResult.class, "r").tools().get(0).inputSchema()
                .get("properties")).isEqualTo(properties).isNotSameAs(properties);

        Map<String, Object> caps = (Map<String, Object>) Json.read("{\"tools\":{},\"experimental\":{\"x\":{}}}");
        Object x = ((Map<String, Object>) caps.get("experimental")).get("x");
        assertThat(FastResults.serverCapabilities(caps, "c").experimental().get("x")).isSameAs(x);
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
        assertSameAsTheGeneralConversion(json, dev.loommcp.schema.InitializeResult.class, FastResults::initializeResult);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"tools\":[{\"name\":\"echo\",\"description\":\"Echoes\",\"inputSchema\":{\"type\":\"object\","
            + "\"properties\":{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"]}}]}",
        "{\"tools\":[{\"name\":\"a\",\"title\":\"A\",\"inputSchema\":{\"type\":\"object\"},\"outputSchema\":"
            + "{\"type\":\"object\"},\"annotations\":{\"title\":\"T\",\"readOnlyHint\":true,\"destructiveHint\":"
            + "false,\"idempotentHint\":null,\"openWorldHint\":true},\"execution\":{\"taskSupport\":\"optional\"},"
            + "\"_meta\":{\"k\":[1]},\"unknown\":1},{\"name\":\"b\"}],\"nextCursor\":\"c2\",\"_meta\":{\"m\":{}}}",
        "{\"tools\":[]}",
        "{\"tools\":[{\"name\":\"i\",\"icons\":[{\"src\":\"data:x\"}]}]}",
        "{\"tools\":[{\"name\":\"x\",\"annotations\":{\"readOnlyHint\":\"yes\"}}]}",
        "{\"tools\":[{\"name\":\"x\",\"annotations\":{\"readOnlyHint\":\"true\"}}]}",
        "{\"tools\":[{\"name\":\"x\",\"description\":7}]}",
        "{\"tools\":[{\"name\":\"x\",\"inputSchema\":[]}]}",
        "{\"tools\":[{\"description\":\"no name\"}]}",
        "{\"tools\":[{\"name\":null}]}",
        "{\"tools\":[\"x\"]}",
        "{\"tools\":[{\"name\":\"x\"}],\"nextCursor\":5}",
        "{\"tools\":{}}",
        "{}"
    })
    void toolsListMatchesTheGeneralConversion(String json) {
        assertSameAsTheGeneralConversion(json, dev.loommcp.schema.ListToolsResult.class, FastResults::listToolsResult);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"tools\":{\"listChanged\":true},\"resources\":{\"subscribe\":false},\"prompts\":{},\"logging\":{},"
            + "\"completions\":{},\"tasks\":{\"list\":{}},\"extensions\":{\"x/y\":{}},\"experimental\":{\"e\":1}}",
        "{}",
        "{\"tools\":{\"listChanged\":\"yes\"}}",
        "{\"tools\":[]}",
        "[]"
    })
    void serverCapabilitiesMatchTheGeneralConversion(String json) {
        assertSameAsTheGeneralConversion(json, dev.loommcp.schema.ServerCapabilities.class, FastResults::serverCapabilities);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"name\":\"s\",\"version\":\"1\",\"title\":\"S\",\"description\":\"d\",\"websiteUrl\":\"https://x\"}",
        "{\"name\":\"s\",\"version\":\"1\",\"icons\":[{\"src\":\"data:x\",\"mimeType\":\"image/png\"}]}",
        "{\"name\":\"s\",\"version\":\"1\",\"title\":3}",
        "{\"version\":\"1\"}"
    })
    void implementationMatchesTheGeneralConversion(String json) {
        assertSameAsTheGeneralConversion(json, dev.loommcp.schema.Implementation.class, FastResults::implementation);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"progressToken\":7,\"progress\":1}",
        "{\"progressToken\":\"t-1\",\"progress\":0.5,\"total\":2,\"message\":\"half\"}",
        "{\"progressToken\":9007199254740993,\"progress\":3,\"total\":4.5}",
        "{\"progressToken\":7,\"progress\":1,\"_meta\":{\"a\":1},\"extra\":true}",
        "{\"progressToken\":7.5,\"progress\":1}",
        "{\"progressToken\":7,\"progress\":\"1\"}",
        "{\"progressToken\":7,\"progress\":1,\"message\":3}",
        "{\"progressToken\":7}",
        "{\"progressToken\":null,\"progress\":1}",
        "{\"progress\":1}"
    })
    void progressNotificationMatchesTheGeneralConversion(String json) {
        assertSameAsTheGeneralConversion(json, dev.loommcp.schema.ProgressNotification.class,
                FastResults::progressNotification);
    }

    @Test
    void handshakeRecordsWriteAsDataBindingWould() {
        var caps = new dev.loommcp.schema.ClientCapabilities(Map.of("x", Map.of()),
                new dev.loommcp.schema.RootsCapability(true), new dev.loommcp.schema.SamplingCapability(null, null),
                new dev.loommcp.schema.ElicitationCapability(Map.of(), Map.of()), null, null);
        assertThat(FastResults.plain(caps)).isEqualTo(Json.toPlain(caps));
        var info = new dev.loommcp.schema.Implementation("n", "1", "T", null, "https://x", null);
        assertThat(FastResults.plain(info)).isEqualTo(Json.toPlain(info));
    }

    /**
     * A result's frozen {@code _meta} (the codec's repeated result {@code _meta}, which nothing can change) is shared by
     * the record as it is; any other map is copied, so a later change of the source does not reach the record.
     */
    @Test
    @SuppressWarnings("unchecked")
    void aFrozenMetaIsSharedAndAnyOtherMetaIsCopied() {
        String meta = "{\"io.modelcontextprotocol/serverInfo\":{\"name\":\"frozen-share\",\"version\":\"1\"}}";
        String line = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[],\"_meta\":" + meta + "}}";
        Map<String, Object> result = (Map<String, Object>) JsonRpcCodec.plainResult(
                ((JsonRpcMessage.Response) JsonRpcCodec.decode(line).get(0)).result());
        assertThat(result.get("_meta")).isInstanceOf(FrozenJsonObject.class);
        CallToolResult shared = FastResults.callToolResult(result, "r");
        assertThat(shared.meta()).isSameAs(result.get("_meta")).isEqualTo(Json.read(meta));
        assertThatThrownBy(() -> shared.meta().put("k", 1)).isInstanceOf(UnsupportedOperationException.class);

        Map<String, Object> plain = new LinkedHashMap<>((Map<String, Object>) Json.read(
                "{\"content\":[]}"));
        Map<String, Object> source = new LinkedHashMap<>(Map.of("k", 1));
        plain.put("_meta", source);
        CallToolResult copied = FastResults.callToolResult(plain, "r");
        source.put("later", 2);
        assertThat(copied.meta()).isNotSameAs(source).isEqualTo(Map.of("k", 1));
    }
}
