package dev.loommcp.schema;

import static dev.loommcp.schema.JsonTrees.roundTrip;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every record read from a realistic 2025-11-25 JSON example and written back to the same JSON. */
class RoundTripTest {

    static final String ICONS = """
            [{"src":"https://example.com/icon.png","mimeType":"image/png","sizes":["48x48","any"],"theme":"dark"}]""";
    static final String META = """
            {"com.example/trace":"abc","io.modelcontextprotocol/related-task":{"taskId":"t-1"}}""";
    static final String ANNOTATIONS = """
            {"audience":["user","assistant"],"priority":0.8,"lastModified":"2025-01-12T15:00:58Z"}""";

    static final String TOOL = """
            {"name":"get_weather","title":"Weather","description":"Current weather for a city",
             "inputSchema":{"type":"object","properties":{"city":{"type":"string","description":"City"}},
                            "required":["city"],"$schema":"https://json-schema.org/draft/2020-12/schema"},
             "outputSchema":{"type":"object","properties":{"temperature":{"type":"number"},"unit":{"type":"string"}},
                             "required":["temperature"]},
             "annotations":{"title":"Weather lookup","readOnlyHint":true,"destructiveHint":false,
                            "idempotentHint":true,"openWorldHint":true},
             "icons":%s,
             "execution":{"taskSupport":"optional"},
             "_meta":%s}""".formatted(ICONS, META);

    static final String RESOURCE = """
            {"uri":"file:///project/README.md","name":"README.md","title":"Project readme",
             "description":"The readme","mimeType":"text/markdown","size":1024,"icons":%s,
             "annotations":%s,"_meta":%s}""".formatted(ICONS, ANNOTATIONS, META);

    static final String CONTENT_BLOCKS = """
            [{"type":"text","text":"Sunny, 21 C","annotations":%s,"_meta":%s},
             {"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"},
             {"type":"audio","data":"UklGRg==","mimeType":"audio/wav","annotations":{"priority":0.1}},
             {"type":"resource_link","uri":"file:///project/src/main.rs","name":"main.rs","title":"Main",
              "description":"entry point","mimeType":"text/x-rust","size":42,"icons":%s,"annotations":%s,"_meta":%s},
             {"type":"resource","resource":{"uri":"file:///a.txt","mimeType":"text/plain","text":"hello","_meta":{"k":1}},
              "annotations":%s},
             {"type":"resource","resource":{"uri":"file:///a.bin","mimeType":"application/octet-stream","blob":"AAEC"}},
             {"type":"x-future","payload":{"nested":[1,2,{"deep":null}]},"flag":true}]"""
            .formatted(ANNOTATIONS, META, ICONS, ANNOTATIONS, META, ANNOTATIONS);

    static Stream<Arguments> examples() {
        return Stream.of(
                Arguments.of(ClientCapabilities.class, """
                        {"experimental":{"com.example/x":{"on":true}},"roots":{"listChanged":true},
                         "sampling":{"context":{},"tools":{}},"elicitation":{"form":{},"url":{}},
                         "tasks":{"list":{},"cancel":{},"requests":{"sampling":{"createMessage":{}},
                                                                    "elicitation":{"create":{}}}},
                         "extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html"]}}}"""),
                Arguments.of(ClientCapabilities.class, "{}"),
                Arguments.of(ClientCapabilities.class, """
                        {"roots":{},"sampling":{},"elicitation":{}}"""),
                Arguments.of(ServerCapabilities.class, """
                        {"experimental":{"com.example/y":{}},"logging":{},"completions":{},
                         "prompts":{"listChanged":true},"resources":{"subscribe":true,"listChanged":false},
                         "tools":{"listChanged":true},"tasks":{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}},
                         "extensions":{"io.modelcontextprotocol/tasks":{}}}"""),
                Arguments.of(InitializeResult.class, """
                        {"protocolVersion":"2025-11-25",
                         "capabilities":{"tools":{"listChanged":true},"logging":{}},
                         "serverInfo":{"name":"everything","version":"2.0.0","title":"Everything",
                                       "description":"Reference server","websiteUrl":"https://example.com",
                                       "icons":%s},
                         "instructions":"Use the echo tool first.","_meta":%s}""".formatted(ICONS, META)),
                Arguments.of(Tool.class, TOOL),
                Arguments.of(Tool.class, """
                        {"name":"echo","inputSchema":{"type":"object"}}"""),
                Arguments.of(ToolAnnotations.class, """
                        {"title":"t","readOnlyHint":false,"destructiveHint":true,"idempotentHint":false,
                         "openWorldHint":false}"""),
                Arguments.of(ListToolsResult.class, """
                        {"tools":[%s,{"name":"echo","inputSchema":{"type":"object"}}],"nextCursor":"","_meta":%s}"""
                        .formatted(TOOL, META)),
                Arguments.of(ListToolsResult.class, """
                        {"tools":[]}"""),
                Arguments.of(CallToolResult.class, """
                        {"content":%s,"structuredContent":{"temperature":21.5,"unit":"C","tags":["a",null],
                                                           "extra":null},
                         "isError":false,"_meta":%s}""".formatted(CONTENT_BLOCKS, META)),
                Arguments.of(CallToolResult.class, """
                        {"content":[{"type":"text","text":"boom"}],"isError":true}"""),
                Arguments.of(ContentBlock.class, """
                        {"type":"text","text":"hi"}"""),
                Arguments.of(Annotations.class, ANNOTATIONS),
                Arguments.of(ResourceContents.class, """
                        {"uri":"file:///a.txt","mimeType":"text/plain","text":"hello"}"""),
                Arguments.of(ResourceContents.class, """
                        {"uri":"file:///a.bin","blob":"AAEC","_meta":%s}""".formatted(META)),
                Arguments.of(Resource.class, RESOURCE),
                Arguments.of(ResourceTemplate.class, """
                        {"uriTemplate":"file:///{path}","name":"files","title":"Project files",
                         "description":"Any file","mimeType":"text/plain","icons":%s,"annotations":%s,"_meta":%s}"""
                        .formatted(ICONS, ANNOTATIONS, META)),
                Arguments.of(ListResourcesResult.class, """
                        {"resources":[%s,{"uri":"test://static/1","name":"Resource 1"}],"nextCursor":"abc","_meta":%s}"""
                        .formatted(RESOURCE, META)),
                Arguments.of(ListResourceTemplatesResult.class, """
                        {"resourceTemplates":[{"uriTemplate":"test://dynamic/{id}","name":"Dynamic"}],
                         "nextCursor":"2"}"""),
                Arguments.of(ReadResourceResult.class, """
                        {"contents":[{"uri":"test://static/1","mimeType":"text/plain","text":"one"},
                                     {"uri":"test://static/2","mimeType":"application/octet-stream","blob":"AQID"}],
                         "_meta":%s}""".formatted(META)),
                Arguments.of(Prompt.class, """
                        {"name":"code_review","title":"Code review","description":"Review code",
                         "arguments":[{"name":"code","title":"Code","description":"The code","required":true},
                                      {"name":"style"}],
                         "icons":%s,"_meta":%s}""".formatted(ICONS, META)),
                Arguments.of(PromptArgument.class, """
                        {"name":"code","required":false}"""),
                Arguments.of(ListPromptsResult.class, """
                        {"prompts":[{"name":"simple"}],"nextCursor":"p2","_meta":%s}""".formatted(META)),
                Arguments.of(GetPromptResult.class, """
                        {"description":"A prompt","messages":[
                           {"role":"user","content":{"type":"text","text":"Review this"}},
                           {"role":"assistant","content":{"type":"image","data":"AA==","mimeType":"image/png"}},
                           {"role":"user","content":{"type":"resource","resource":{"uri":"file:///x","text":"x"}}}],
                         "_meta":%s}""".formatted(META)),
                Arguments.of(PromptMessage.class, """
                        {"role":"user","content":{"type":"resource_link","uri":"file:///x","name":"x"}}"""),
                Arguments.of(CompleteResult.class, """
                        {"completion":{"values":["python","pytorch"],"total":10,"hasMore":true},"_meta":%s}"""
                        .formatted(META)),
                Arguments.of(Completion.class, """
                        {"values":[]}"""),
                Arguments.of(CompletionReference.class, """
                        {"type":"ref/prompt","name":"code_review","title":"Code review"}"""),
                Arguments.of(CompletionReference.class, """
                        {"type":"ref/resource","uri":"file:///{path}"}"""),
                Arguments.of(LoggingMessageNotification.class, """
                        {"level":"warning","logger":"db","data":{"error":"Connection failed","attempt":[1,2]}}"""),
                Arguments.of(LoggingMessageNotification.class, """
                        {"level":"info","data":"plain text"}"""),
                Arguments.of(ProgressNotification.class, """
                        {"progressToken":"tok-1","progress":50,"total":100,"message":"Halfway"}"""),
                Arguments.of(ProgressNotification.class, """
                        {"progressToken":7,"progress":0.25}"""),
                Arguments.of(Root.class, """
                        {"uri":"file:///home/user/project","name":"Project","_meta":%s}""".formatted(META)),
                Arguments.of(ListRootsResult.class, """
                        {"roots":[{"uri":"file:///a"},{"uri":"file:///b","name":"B"}],"_meta":%s}"""
                        .formatted(META)),
                Arguments.of(ElicitRequest.class, """
                        {"mode":"form","message":"Who are you?",
                         "requestedSchema":{"type":"object","properties":{
                            "name":{"type":"string","title":"Name","minLength":1,"default":"John Doe"},
                            "age":{"type":"integer","minimum":0,"default":30},
                            "colors":{"type":"array","items":{"anyOf":[{"const":"r","title":"Red"}]},"minItems":1}},
                           "required":["name"]},
                         "_meta":{"progressToken":3}}"""),
                Arguments.of(ElicitRequest.class, """
                        {"mode":"url","message":"Please sign in","url":"https://example.com/login?state=1",
                         "elicitationId":"e-42"}"""),
                Arguments.of(ElicitResult.class, """
                        {"action":"accept","content":{"name":"Ann","age":30,"ok":true,"colors":["r","g"]},
                         "_meta":%s}""".formatted(META)),
                Arguments.of(ElicitResult.class, """
                        {"action":"decline"}"""),
                Arguments.of(CreateMessageRequest.class, """
                        {"messages":[
                           {"role":"user","content":{"type":"text","text":"What is the capital of France?"}},
                           {"role":"assistant","content":[{"type":"tool_use","id":"call_1","name":"lookup",
                                                           "input":{"q":"France"}}]},
                           {"role":"user","content":[{"type":"tool_result","toolUseId":"call_1",
                                                      "content":[{"type":"text","text":"Paris"}],"isError":false}],
                            "_meta":{"k":"v"}}],
                         "modelPreferences":{"hints":[{"name":"claude-3-sonnet"},{"name":"claude"}],
                                             "costPriority":0.3,"speedPriority":0.8,"intelligencePriority":0.5},
                         "systemPrompt":"You are a helpful assistant.","includeContext":"thisServer",
                         "temperature":0.7,"maxTokens":100,"stopSequences":["\\n\\n"],
                         "metadata":{"provider":{"x":1}},
                         "tools":[{"name":"lookup","inputSchema":{"type":"object"}}],
                         "toolChoice":{"mode":"auto"},"_meta":{"progressToken":"p"}}"""),
                Arguments.of(SamplingMessage.class, """
                        {"role":"user","content":{"type":"audio","data":"AA==","mimeType":"audio/wav"}}"""),
                Arguments.of(ModelPreferences.class, """
                        {"hints":[{"name":"gpt"}],"intelligencePriority":1}"""),
                Arguments.of(CreateMessageResult.class, """
                        {"role":"assistant","content":{"type":"text","text":"Paris"},"model":"claude-3-sonnet",
                         "stopReason":"endTurn","_meta":%s}""".formatted(META)),
                Arguments.of(CreateMessageResult.class, """
                        {"role":"assistant","content":[{"type":"text","text":"Let me look"},
                                                       {"type":"tool_use","id":"c1","name":"lookup","input":{}}],
                         "model":"m","stopReason":"toolUse"}"""));
    }

    @ParameterizedTest(name = "{index}: {0}")
    @MethodSource("examples")
    void roundTripsThroughTheSharedMapper(Class<?> type, String json) {
        roundTrip(json, type);
    }

    @Test
    void contentBlocksDecodeToTheirRecords() {
        CallToolResult result = roundTrip("{\"content\":" + CONTENT_BLOCKS + "}", CallToolResult.class);

        assertThat(result.content()).extracting(ContentBlock::type)
                .containsExactly("text", "image", "audio", "resource_link", "resource", "resource", "x-future");
        assertThat(result.content()).hasExactlyElementsOfTypes(TextContent.class, ImageContent.class,
                AudioContent.class, ResourceLink.class, EmbeddedResource.class, EmbeddedResource.class,
                UnknownContent.class);
        TextContent text = (TextContent) result.content().get(0);
        assertThat(text.annotations()).isEqualTo(
                new Annotations(List.of("user", "assistant"), 0.8, "2025-01-12T15:00:58Z"));
        assertThat(text.meta()).containsEntry("com.example/trace", "abc");
        ResourceLink link = (ResourceLink) result.content().get(3);
        assertThat(link.size()).isEqualTo(42L);
        assertThat(link.icons()).singleElement().extracting(Icon::src).isEqualTo("https://example.com/icon.png");
        assertThat(((EmbeddedResource) result.content().get(4)).resource())
                .isEqualTo(new TextResourceContents("file:///a.txt", "text/plain", "hello", Map.of("k", 1)));
        assertThat(((EmbeddedResource) result.content().get(5)).resource())
                .isEqualTo(BlobResourceContents.of("file:///a.bin", "application/octet-stream", "AAEC"));
    }

    @Test
    void initializeResultExposesCapabilities() {
        InitializeResult init = roundTrip("""
                {"protocolVersion":"2025-06-18","capabilities":{"tools":{},"resources":{"subscribe":true},
                 "completions":{}},"serverInfo":{"name":"s","version":"1"}}""", InitializeResult.class);

        ServerCapabilities caps = init.capabilities();
        assertThat(caps.hasTools()).isTrue();
        assertThat(caps.tools().sendsListChanged()).isFalse();
        assertThat(caps.hasResources()).isTrue();
        assertThat(caps.supportsResourceSubscribe()).isTrue();
        assertThat(caps.hasCompletions()).isTrue();
        assertThat(caps.hasPrompts()).isFalse();
        assertThat(caps.hasLogging()).isFalse();
        assertThat(ServerCapabilities.of().supportsResourceSubscribe()).isFalse();
        assertThat(init.serverInfo()).isEqualTo(Implementation.of("s", "1"));
    }
}
