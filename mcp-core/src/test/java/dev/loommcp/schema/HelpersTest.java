package dev.loommcp.schema;

import static dev.loommcp.schema.JsonTrees.assertSameJson;
import static dev.loommcp.schema.JsonTrees.tree;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpProtocolException;
import dev.loommcp.internal.json.Json;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The helper methods and factories of the records. */
class HelpersTest {

    /** A caller's type for {@code structuredContentAs}; the test package is open to Jackson. */
    record Weather(double temperature, String unit, List<String> tags) {
    }

    private static <T> T read(String json, Class<T> type) {
        return Json.convert(Json.read(json), type, type.getSimpleName());
    }

    // --- elicitation defaults (SEP-1034) ---

    private static final String SEP_1034_REQUEST = """
            {"message":"please accept with defaults",
             "requestedSchema":{"type":"object","properties":{
               "name":{"type":"string","description":"User name","default":"John Doe"},
               "age":{"type":"integer","description":"User age","default":30},
               "score":{"type":"number","description":"User score","default":95.5},
               "status":{"type":"string","enum":["active","inactive","pending"],"default":"active"},
               "verified":{"type":"boolean","default":true},
               "colors":{"type":"array","items":{"type":"string","enum":["r","g","b"]},"default":["r","g"]},
               "nickname":{"type":"string"}},
              "required":[]}}""";

    @Test
    void applyDefaultsFillsEveryAbsentPropertyThatHasADefault() {
        ElicitRequest request = read(SEP_1034_REQUEST, ElicitRequest.class);
        assertThat(request.isUrlMode()).isFalse();

        Map<String, Object> filled = request.applyDefaults(Map.of());

        assertThat(filled).containsExactly(
                Map.entry("name", "John Doe"),
                Map.entry("age", 30),
                Map.entry("score", 95.5),
                Map.entry("status", "active"),
                Map.entry("verified", true),
                Map.entry("colors", List.of("r", "g")));
        assertThat(filled).doesNotContainKey("nickname");
        // written as the conformance scenario expects: numbers stay numbers, booleans booleans
        assertSameJson(tree(ElicitResult.accept(filled)), tree("""
                {"action":"accept","content":{"name":"John Doe","age":30,"score":95.5,"status":"active",
                 "verified":true,"colors":["r","g"]}}"""));
    }

    @Test
    void applyDefaultsNeverOverridesWhatTheUserEntered() {
        ElicitRequest request = read(SEP_1034_REQUEST, ElicitRequest.class);
        Map<String, Object> entered = new LinkedHashMap<>();
        entered.put("age", 41);
        entered.put("verified", false);
        entered.put("name", null);
        entered.put("extra", "kept");

        Map<String, Object> filled = request.applyDefaults(entered);

        assertThat(filled).containsEntry("age", 41).containsEntry("verified", false)
                .containsEntry("name", "John Doe").containsEntry("extra", "kept")
                .containsEntry("score", 95.5);
        assertThat(entered).hasSize(4).containsEntry("name", null);   // input untouched
        filled.put("more", 1);                                       // the result is a new, modifiable map
        assertThat(request.applyDefaults(null)).hasSize(6);
    }

    @Test
    void applyDefaultsCopiesArrayDefaults() {
        ElicitRequest request = read(SEP_1034_REQUEST, ElicitRequest.class);
        @SuppressWarnings("unchecked")
        List<Object> colors = (List<Object>) request.applyDefaults(null).get("colors");
        colors.add("b");
        assertThat(request.applyDefaults(null).get("colors")).isEqualTo(List.of("r", "g"));
    }

    @Test
    void applyDefaultsOnlyCopiesInUrlModeOrWithoutASchema() {
        ElicitRequest url = read("""
                {"mode":"url","message":"m","url":"https://example.com","elicitationId":"1",
                 "requestedSchema":{"type":"object","properties":{"a":{"type":"string","default":"x"}}}}""",
                ElicitRequest.class);
        assertThat(url.isUrlMode()).isTrue();
        assertThat(url.applyDefaults(Map.of("k", 1))).containsExactly(Map.entry("k", 1));

        assertThat(ElicitRequest.form("m", null).applyDefaults(Map.of("k", 1))).containsExactly(Map.entry("k", 1));
        assertThat(ElicitRequest.form("m", Map.of("type", "object", "properties", "bogus")).applyDefaults(null))
                .isEmpty();
        ElicitRequest odd = ElicitRequest.form("m", Map.of("properties", Map.of("a", "not a schema",
                "b", Map.of("type", "string"))));
        assertThat(odd.applyDefaults(null)).isEmpty();
    }

    @Test
    void formModeIsTheDefaultMode() {
        assertThat(read("{\"message\":\"m\",\"requestedSchema\":{}}", ElicitRequest.class).isUrlMode()).isFalse();
        assertThat(read("{\"mode\":\"form\",\"message\":\"m\"}", ElicitRequest.class).isUrlMode()).isFalse();
        assertThat(read("{\"mode\":\"url\",\"message\":\"m\"}", ElicitRequest.class).isUrlMode()).isTrue();
    }

    @Test
    void elicitResultFactories() {
        assertSameJson(tree(ElicitResult.accept(Map.of("a", "b"))),
                tree("{\"action\":\"accept\",\"content\":{\"a\":\"b\"}}"));
        assertSameJson(tree(ElicitResult.accept(null)), tree("{\"action\":\"accept\"}"));
        assertSameJson(tree(ElicitResult.decline()), tree("{\"action\":\"decline\"}"));
        assertSameJson(tree(ElicitResult.cancel()), tree("{\"action\":\"cancel\"}"));
    }

    // --- tool results ---

    @Test
    void structuredContentConvertsToTheCallersType() {
        CallToolResult result = read("""
                {"content":[{"type":"text","text":"{\\"temperature\\":21.5}"}],
                 "structuredContent":{"temperature":21.5,"unit":"C","tags":["sunny"],"humidity":40}}""",
                CallToolResult.class);

        assertThat(result.structuredContentAs(Weather.class))
                .isEqualTo(new Weather(21.5, "C", List.of("sunny")));
        @SuppressWarnings("unchecked")
        Map<String, Object> asMap = result.structuredContentAs(Map.class);
        assertThat(asMap).containsEntry("humidity", 40);
    }

    @Test
    void structuredContentThatDoesNotFitFailsNamingTheType() {
        CallToolResult result = read("{\"content\":[],\"structuredContent\":{\"temperature\":\"hot-secret\"}}",
                CallToolResult.class);

        assertThatThrownBy(() -> result.structuredContentAs(Weather.class))
                .isInstanceOf(McpProtocolException.class)
                .hasMessageContaining(Weather.class.getName())
                .hasMessageContaining("at /temperature")
                .hasMessageNotContaining("hot-secret")
                .hasNoCause();
        CallToolResult nested = read("{\"content\":[],\"structuredContent\":{\"tags\":[\"a\",{\"b\":\"secret\"}]}}",
                CallToolResult.class);
        assertThatThrownBy(() -> nested.structuredContentAs(Weather.class))
                .isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("at /tags/1")
                .hasMessageNotContaining("secret");
        assertThatThrownBy(() -> CallToolResult.ofText("x").structuredContentAs(Weather.class))
                .isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("no structuredContent")
                .hasMessageContaining(Weather.class.getName());
    }

    @Test
    void textJoinsTheTextBlocks() {
        CallToolResult result = read("""
                {"content":[{"type":"text","text":"one"},{"type":"image","data":"AA==","mimeType":"image/png"},
                            {"type":"text","text":"two"},{"type":"x","text":"not text"}]}""", CallToolResult.class);
        assertThat(result.text()).isEqualTo("one\ntwo");
        assertThat(CallToolResult.of(List.of()).text()).isEmpty();
        assertThat(new CallToolResult(null, null, null, null).text()).isEmpty();
    }

    @Test
    void toolDisplayNamePrefersTitleThenAnnotationTitleThenName() {
        ToolAnnotations annotated = new ToolAnnotations("From annotations", null, null, null, null);
        assertThat(new Tool("n", "Title", null, null, null, annotated, null, null, null).displayName())
                .isEqualTo("Title");
        assertThat(new Tool("n", null, null, null, null, annotated, null, null, null).displayName())
                .isEqualTo("From annotations");
        assertThat(new Tool("n", null, null, null, null, new ToolAnnotations(null, true, null, null, null), null,
                null, null).displayName()).isEqualTo("n");
        assertThat(Tool.of("n", "d", Map.of("type", "object")).displayName()).isEqualTo("n");
        assertThat(new Prompt("p", null, null, null, null, null).displayName()).isEqualTo("p");
        assertThat(new Prompt("p", "P", null, null, null, null).displayName()).isEqualTo("P");
    }

    // --- sampling ---

    @Test
    void samplingContentReadsAsBlocksInEitherForm() {
        SamplingMessage single = read("{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"hi\"}}",
                SamplingMessage.class);
        assertThat(single.content()).isInstanceOf(Map.class);
        assertThat(single.contentBlocks()).containsExactly(TextContent.of("hi"));

        SamplingMessage array = read("""
                {"role":"user","content":[{"type":"image","data":"AA==","mimeType":"image/png"},
                                          {"type":"tool_result","toolUseId":"c","content":[]}]}""",
                SamplingMessage.class);
        assertThat(array.contentBlocks()).hasSize(2).first().isEqualTo(ImageContent.of("AA==", "image/png"));
        assertThat(array.contentBlocks().get(1).type()).isEqualTo("tool_result");

        assertThat(new SamplingMessage("user", null, null).contentBlocks()).isEmpty();
        assertThatThrownBy(() -> new SamplingMessage("user", "just text", null).contentBlocks())
                .isInstanceOf(McpProtocolException.class).hasMessageContaining("sampling message content");
        assertThatThrownBy(() -> new SamplingMessage("user", List.of("x"), null).contentBlocks())
                .isInstanceOf(McpProtocolException.class);
    }

    @Test
    void samplingContentRecordsAreHeldAsPlainJson() {
        SamplingMessage message = SamplingMessage.of("user", TextContent.of("hi"));
        assertThat(message.content()).isEqualTo(Map.of("type", "text", "text", "hi"));
        assertThat(message).isEqualTo(read("{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"hi\"}}",
                SamplingMessage.class));

        SamplingMessage mixed = new SamplingMessage("assistant",
                List.of(TextContent.of("a"), Map.of("type", "tool_use", "id", "1", "name", "n", "input", Map.of())),
                null);
        assertSameJson(tree(mixed), tree("""
                {"role":"assistant","content":[{"type":"text","text":"a"},
                 {"type":"tool_use","id":"1","name":"n","input":{}}]}"""));
    }

    @Test
    void createMessageResultOfText() {
        CreateMessageResult result = CreateMessageResult.ofText("test-model", "Paris");
        assertSameJson(tree(result), tree("""
                {"role":"assistant","content":{"type":"text","text":"Paris"},"model":"test-model"}"""));
        assertThat(result.contentBlocks()).containsExactly(TextContent.of("Paris"));
        assertThat(CreateMessageRequest.of(List.of(SamplingMessage.of("user", TextContent.of("q"))), 10).maxTokens())
                .isEqualTo(10);
    }

    // --- capabilities ---

    @Test
    void capabilityFactoriesWriteTheSpecShapes() {
        ClientCapabilities caps = new ClientCapabilities(null, RootsCapability.of(true), SamplingCapability.of(),
                ElicitationCapability.formAndUrl(), null, null);
        assertSameJson(tree(caps), tree("""
                {"roots":{"listChanged":true},"sampling":{},"elicitation":{"form":{},"url":{}}}"""));
        assertSameJson(tree(ClientCapabilities.of()), tree("{}"));

        assertThat(new ElicitationCapability(null, null).supportsForm()).isTrue();
        assertThat(new ElicitationCapability(null, null).supportsUrl()).isFalse();
        assertThat(new ElicitationCapability(null, Map.of()).supportsForm()).isFalse();
        assertThat(ElicitationCapability.formAndUrl().supportsUrl()).isTrue();
    }

    // --- immutability ---

    @Test
    void listsAndMapsAreCopiedAndUnmodifiable() {
        List<ContentBlock> content = new ArrayList<>(List.of(TextContent.of("a")));
        Map<String, Object> structured = new HashMap<>();
        structured.put("k", null);
        CallToolResult result = new CallToolResult(content, structured, null, null);
        content.add(TextContent.of("b"));
        structured.put("x", 1);

        assertThat(result.content()).containsExactly(TextContent.of("a"));
        assertThat(result.structuredContent()).containsOnlyKeys("k").containsEntry("k", null);
        assertThatThrownBy(() -> result.content().add(TextContent.of("c")))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> result.structuredContent().put("y", 2))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(new Tool("t", null, null, null, null, null, null, null, null).icons()).isNull();
        assertThatThrownBy(() -> ListRootsResult.of(null)).isInstanceOf(NullPointerException.class);
    }
}
