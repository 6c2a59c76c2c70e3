package dev.loommcp.schema;

import static dev.loommcp.schema.JsonTrees.assertSameJson;
import static dev.loommcp.schema.JsonTrees.tree;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpProtocolException;
import dev.loommcp.internal.json.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Decoding rules: unknown content kept raw, unknown properties ignored, text versus blob, types written. */
class DecodingTest {

    private static <T> T read(String json, Class<T> type) {
        return Json.convert(Json.read(json), type, type.getSimpleName());
    }

    @Test
    void unknownContentTypeIsKeptRawAndWrittenBackUnchanged() {
        String json = """
                {"z":1,"type":"x-hologram","frames":[{"t":0,"data":"AA=="},null],"meta":{"a":{"b":[true,1.5]}},
                 "_meta":{"k":"v"}}""";

        ContentBlock block = read(json, ContentBlock.class);

        assertThat(block).isInstanceOf(UnknownContent.class);
        UnknownContent unknown = (UnknownContent) block;
        assertThat(unknown.type()).isEqualTo("x-hologram");
        assertThat(unknown.raw()).containsOnlyKeys("z", "type", "frames", "meta", "_meta");
        assertThat(unknown.raw().get("frames")).isEqualTo(framesWithNull());
        String written = Json.write(block);
        assertSameJson(tree(written), tree(json));
        // property order is kept too
        assertThat(written).isEqualTo(Json.write(Json.read(json)));
    }

    private static List<Object> framesWithNull() {
        List<Object> frames = new ArrayList<>();
        frames.add(Map.of("t", 0, "data", "AA=="));
        frames.add(null);
        return frames;
    }

    @Test
    void tool_useAndToolResultBlocksAreUnknownContentInsideSampling() {
        SamplingMessage message = read("""
                {"role":"assistant","content":[{"type":"text","text":"calling"},
                  {"type":"tool_use","id":"c1","name":"lookup","input":{"q":"x"}}]}""", SamplingMessage.class);

        List<ContentBlock> blocks = message.contentBlocks();

        assertThat(blocks).hasSize(2);
        assertThat(blocks.get(0)).isEqualTo(TextContent.of("calling"));
        assertThat(blocks.get(1)).isInstanceOfSatisfying(UnknownContent.class, u -> {
            assertThat(u.type()).isEqualTo("tool_use");
            assertThat(u.raw()).containsEntry("input", Map.of("q", "x"));
        });
    }

    @Test
    void contentWithoutTypeOrWithNonStringTypeDecodesAsUnknown() {
        ContentBlock noType = read("{\"text\":\"hi\"}", ContentBlock.class);
        assertThat(noType).isEqualTo(new UnknownContent(null, Map.of("text", "hi")));
        assertSameJson(tree(noType), tree("{\"text\":\"hi\"}"));

        ContentBlock numericType = read("{\"type\":5,\"text\":\"hi\"}", ContentBlock.class);
        assertThat(numericType).isInstanceOf(UnknownContent.class);
        assertThat(numericType.type()).isEqualTo("5");
        assertSameJson(tree(numericType), tree("{\"type\":\"5\",\"text\":\"hi\"}"));
    }

    @Test
    void unknownPropertiesAreIgnoredEverywhere() {
        CallToolResult result = read("""
                {"content":[{"type":"text","text":"hi","future":{"x":1},"annotations":{"priority":1,"glow":true}}],
                 "isError":false,"resultType":"complete","ttlMs":5}""", CallToolResult.class);
        assertThat(result.content()).containsExactly(new TextContent("hi", new Annotations(null, 1.0, null), null));

        Tool tool = read("""
                {"name":"t","inputSchema":{"type":"object"},"x-vendor":[1],"annotations":{"shiny":true}}""",
                Tool.class);
        assertThat(tool.annotations()).isEqualTo(new ToolAnnotations(null, null, null, null, null));

        InitializeResult init = read("""
                {"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true,"paging":1},"foo":{}},
                 "serverInfo":{"name":"s","version":"1","vendor":"x"},"extra":1}""", InitializeResult.class);
        assertThat(init.capabilities().tools().sendsListChanged()).isTrue();

        ResourceContents contents = read("""
                {"uri":"u","text":"t","encoding":"utf-8"}""", ResourceContents.class);
        assertThat(contents).isEqualTo(TextResourceContents.of("u", null, "t"));
    }

    @Test
    void resourceContentsAreToldApartByTextOrBlob() {
        ReadResourceResult result = read("""
                {"contents":[{"uri":"a","mimeType":"text/plain","text":""},
                             {"blob":"AQID","uri":"b"},
                             {"uri":"c","mimeType":"application/json","text":"{}","_meta":{"x":1}}]}""",
                ReadResourceResult.class);

        assertThat(result.contents()).containsExactly(
                TextResourceContents.of("a", "text/plain", ""),
                BlobResourceContents.of("b", null, "AQID"),
                new TextResourceContents("c", "application/json", "{}", Map.of("x", 1)));
        assertThat(result.contents()).extracting(ResourceContents::uri).containsExactly("a", "b", "c");
        assertThat(result.contents()).extracting(ResourceContents::mimeType)
                .containsExactly("text/plain", null, "application/json");
    }

    @Test
    void resourceContentsWithNeitherTextNorBlobFailClearly() {
        assertThatThrownBy(() -> read("{\"uri\":\"a\",\"mimeType\":\"text/plain\"}", ResourceContents.class))
                .isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("malformed ResourceContents")
                .hasMessageContaining("ResourceContents");
        assertThatThrownBy(() -> read("{\"contents\":[{\"uri\":\"a\"}]}", ReadResourceResult.class))
                .isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("ResourceContents");
    }

    @Test
    void missingRequiredIdentifiersFailAsProtocolErrors() {
        assertThatThrownBy(() -> read("{\"inputSchema\":{}}", Tool.class))
                .isInstanceOf(McpProtocolException.class).hasMessageContaining("malformed Tool");
        assertThatThrownBy(() -> read("{\"type\":\"text\"}", ContentBlock.class))
                .isInstanceOf(McpProtocolException.class);
        assertThatThrownBy(() -> read("{\"tools\":[null]}", ListToolsResult.class))
                .isInstanceOf(McpProtocolException.class);
    }

    @Test
    void contentBlocksAreWrittenWithTheirTypeWhateverTheStaticType() {
        assertSameJson(tree(Json.write(TextContent.of("hi"))), tree("{\"type\":\"text\",\"text\":\"hi\"}"));
        assertThat(Json.write(TextContent.of("hi"))).startsWith("{\"type\":\"text\"");
        assertSameJson(tree(Json.write(ImageContent.of("AA==", "image/png"))),
                tree("{\"type\":\"image\",\"data\":\"AA==\",\"mimeType\":\"image/png\"}"));
        assertSameJson(tree(Json.write(new AudioContent("AA==", "audio/wav", null, null))),
                tree("{\"type\":\"audio\",\"data\":\"AA==\",\"mimeType\":\"audio/wav\"}"));
        assertSameJson(tree(Json.write(ResourceLink.of("file:///x", "x"))),
                tree("{\"type\":\"resource_link\",\"uri\":\"file:///x\",\"name\":\"x\"}"));
        assertSameJson(tree(Json.write(EmbeddedResource.of(BlobResourceContents.of("u", null, "AA==")))),
                tree("{\"type\":\"resource\",\"resource\":{\"uri\":\"u\",\"blob\":\"AA==\"}}"));
        assertSameJson(tree(Json.write(List.<ContentBlock>of(TextContent.of("a")))),
                tree("[{\"type\":\"text\",\"text\":\"a\"}]"));
        assertSameJson(tree(Json.toPlain(CallToolResult.ofText("a"))),
                tree("{\"content\":[{\"type\":\"text\",\"text\":\"a\"}]}"));
    }

    @Test
    void completionReferencesAreWrittenWithTheirType() {
        assertSameJson(tree(Json.write(PromptReference.of("p"))), tree("{\"type\":\"ref/prompt\",\"name\":\"p\"}"));
        assertSameJson(tree(Json.write(ResourceTemplateReference.of("file:///{p}"))),
                tree("{\"type\":\"ref/resource\",\"uri\":\"file:///{p}\"}"));
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("ref", PromptReference.of("p"));
        assertSameJson(tree(Json.toPlain(params)), tree("{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"p\"}}"));
        assertThat(read("{\"type\":\"ref/resource\",\"uri\":\"x\"}", CompletionReference.class))
                .isEqualTo(ResourceTemplateReference.of("x"));
    }

    @Test
    void helperMethodsAreNotWrittenAsProperties() {
        assertSameJson(tree(ElicitRequest.url("m", "https://x", "e1")),
                tree("{\"mode\":\"url\",\"message\":\"m\",\"url\":\"https://x\",\"elicitationId\":\"e1\"}"));
        assertSameJson(tree(CallToolResult.ofText("a")), tree("{\"content\":[{\"type\":\"text\",\"text\":\"a\"}]}"));
        assertSameJson(tree(new CallToolResult(List.of(), null, true, null)),
                tree("{\"content\":[],\"isError\":true}"));
        assertSameJson(tree(ServerCapabilities.of()), tree("{}"));
        assertSameJson(tree(new ElicitationCapability(null, null)), tree("{}"));
        assertSameJson(tree(ElicitationCapability.formOnly()), tree("{\"form\":{}}"));
        assertSameJson(tree(new Tool("t", null, null, Map.of("type", "object"), null,
                new ToolAnnotations("A", null, null, null, null), null, null, null)),
                tree("{\"name\":\"t\",\"inputSchema\":{\"type\":\"object\"},\"annotations\":{\"title\":\"A\"}}"));
        assertSameJson(tree(new LoggingMessageNotification("info", null, "x")),
                tree("{\"level\":\"info\",\"data\":\"x\"}"));
        assertSameJson(tree(new Prompt("p", "P", null, null, null, null)), tree("{\"name\":\"p\",\"title\":\"P\"}"));
    }

    @Test
    void isErrorUsesItsSpecName() {
        CallToolResult failed = read("{\"content\":[],\"isError\":true}", CallToolResult.class);
        assertThat(failed.isError()).isTrue();
        assertThat(failed.error()).isTrue();
        assertThat(read("{\"content\":[]}", CallToolResult.class).error()).isFalse();
        assertThat(read("{\"content\":[],\"isError\":false}", CallToolResult.class).error()).isFalse();
        assertThat(Json.write(failed)).contains("\"isError\":true").doesNotContain("\"error\"");
    }

    @Test
    void loggingLevelsMapToWireNamesAndUnknownLevelsNeverFail() {
        assertThat(LoggingLevel.WARNING.wireName()).isEqualTo("warning");
        assertThat(LoggingLevel.fromWire("emergency")).isEqualTo(LoggingLevel.EMERGENCY);
        assertThat(LoggingLevel.fromWire("Error")).isEqualTo(LoggingLevel.ERROR);
        assertThatThrownBy(() -> LoggingLevel.fromWire("verbose"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("verbose");
        assertThatThrownBy(() -> LoggingLevel.fromWire(null)).isInstanceOf(IllegalArgumentException.class);
        assertThat(Json.write(Map.of("level", LoggingLevel.NOTICE))).isEqualTo("{\"level\":\"notice\"}");
        assertThat(read("\"critical\"", LoggingLevel.class)).isEqualTo(LoggingLevel.CRITICAL);

        LoggingMessageNotification known = read("{\"level\":\"debug\",\"data\":{\"a\":1}}",
                LoggingMessageNotification.class);
        assertThat(known.knownLevel()).contains(LoggingLevel.DEBUG);
        assertThat(known.data()).isEqualTo(Map.of("a", 1));
        LoggingMessageNotification odd = read("{\"level\":\"trace\",\"logger\":\"x\",\"data\":null}",
                LoggingMessageNotification.class);
        assertThat(odd.level()).isEqualTo("trace");
        assertThat(odd.knownLevel()).isEmpty();
        assertThat(new LoggingMessageNotification(null, null, null).knownLevel()).isEmpty();
    }

    @Test
    void progressTokensKeepTheirJsonType() {
        ProgressNotification byString = read("{\"progressToken\":\"t\",\"progress\":1}", ProgressNotification.class);
        assertThat(byString.progressToken()).isEqualTo("t");
        assertThat(byString.progress()).isEqualTo(1.0);
        assertThat(byString.total()).isNull();
        ProgressNotification byNumber = read("{\"progressToken\":12,\"progress\":2.5,\"total\":10}",
                ProgressNotification.class);
        assertThat(byNumber.progressToken()).isInstanceOf(Number.class);
        assertThat(((Number) byNumber.progressToken()).longValue()).isEqualTo(12L);
        assertThat(byNumber.total()).isEqualTo(10.0);
    }
}
