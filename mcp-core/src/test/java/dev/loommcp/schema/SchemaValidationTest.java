package dev.loommcp.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.loommcp.internal.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the records write is valid against the official MCP 2025-11-25 JSON schema ({@code $defs/<Type>}), checked with
 * json-schema-validator (draft 2020-12). The schema is read from the test resources; nothing is fetched.
 */
class SchemaValidationTest {

    private static JsonNode defs;
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

    @BeforeAll
    static void loadSchema() {
        try (InputStream in = SchemaValidationTest.class.getResourceAsStream("/schema/2025-11-25-schema.json")) {
            assertThat(in).as("test resource schema/2025-11-25-schema.json").isNotNull();
            defs = Json.mapper().readTree(in).get("$defs");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(defs).isNotNull();
    }

    /** Returns the errors of validating {@code value}, as written by the shared mapper, against {@code $defs/def}. */
    private static List<Error> errors(String def, Object value) {
        assertThat(defs.has(def)).as("$defs/%s exists", def).isTrue();
        ObjectNode wrapper = Json.mapper().createObjectNode();
        wrapper.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        wrapper.put("$ref", "#/$defs/" + def);
        wrapper.set("$defs", defs);
        Schema schema = REGISTRY.getSchema(wrapper);
        JsonNode written = Json.mapper().readTree(Json.write(value));
        return schema.validate(written);
    }

    private static void assertValid(String def, Object value) {
        assertThat(errors(def, value)).as("%s written as %s", def, Json.write(value)).isEmpty();
    }

    private static <T> T read(String json, Class<T> type) {
        return Json.convert(Json.read(json), type, type.getSimpleName());
    }

    @Test
    void callToolResultWithEveryContentBlock() {
        CallToolResult fromWire = read("{\"content\":" + RoundTripTest.CONTENT_BLOCKS.replace(
                ",\n {\"type\":\"x-future\",\"payload\":{\"nested\":[1,2,{\"deep\":null}]},\"flag\":true}", "")
                + ",\"structuredContent\":{\"t\":1},\"isError\":false,\"_meta\":" + RoundTripTest.META + "}",
                CallToolResult.class);
        assertThat(fromWire.content()).hasSize(6).noneMatch(UnknownContent.class::isInstance);
        assertValid("CallToolResult", fromWire);

        assertValid("CallToolResult", CallToolResult.ofText("hello"));
        assertValid("CallToolResult", new CallToolResult(List.of(
                new TextContent("t", new Annotations(List.of("user"), 0.5, "2025-01-12T15:00:58Z"), Map.of("a", 1)),
                ImageContent.of("AA==", "image/png"),
                new AudioContent("AA==", "audio/wav", null, null),
                new ResourceLink("file:///x", "x", "X", "d", "text/plain", 3L,
                        List.of(new Icon("https://example.com/i.png", "image/png", List.of("48x48"), "light")),
                        null, null),
                EmbeddedResource.of(TextResourceContents.of("file:///a", "text/plain", "a")),
                EmbeddedResource.of(BlobResourceContents.of("file:///b", null, "AQID"))),
                Map.of("temperature", 21.5), true, Map.of("k", "v")));
    }

    @Test
    void tool() {
        assertValid("Tool", read(RoundTripTest.TOOL, Tool.class));
        assertValid("Tool", Tool.of("echo", "Echoes", Map.of("type", "object",
                "properties", Map.of("text", Map.of("type", "string")), "required", List.of("text"))));
        assertValid("ListToolsResult", read("{\"tools\":[" + RoundTripTest.TOOL + "],\"nextCursor\":\"c\"}",
                ListToolsResult.class));
    }

    @Test
    void elicitation() {
        assertValid("ElicitResult", ElicitResult.accept(Map.of("name", "Ann", "age", 30, "ok", true,
                "colors", List.of("r"))));
        assertValid("ElicitResult", ElicitResult.decline());
        assertValid("ElicitResult", ElicitResult.cancel());
        assertValid("ElicitResult", ElicitResult.accept(null));
        ElicitRequest form = read("""
                {"message":"Who?","requestedSchema":{"type":"object","properties":{
                  "name":{"type":"string","default":"John Doe"},"age":{"type":"integer","default":30},
                  "score":{"type":"number","default":95.5},
                  "status":{"type":"string","enum":["active","inactive"],"default":"active"},
                  "verified":{"type":"boolean","default":true}}}}""", ElicitRequest.class);
        assertValid("ElicitRequestFormParams", form);
        // The generated 2025-11-25 schema.json types content values as string|integer|boolean|string[], while the
        // spec text (schema.ts: string | number | boolean | string[]) and the conformance scenario
        // elicitation-sep1034-client-defaults expect a number default (95.5) to be sent back as is. So the only
        // error allowed here is the one for that number.
        ElicitResult withDefaults = ElicitResult.accept(form.applyDefaults(Map.of()));
        assertThat(withDefaults.content()).containsEntry("score", 95.5);
        assertThat(errors("ElicitResult", withDefaults))
                .isNotEmpty()
                .allSatisfy(e -> assertThat(e.getInstanceLocation().toString()).contains("score"));
        Map<String, Object> withoutNumber = new LinkedHashMap<>(withDefaults.content());
        withoutNumber.remove("score");
        assertValid("ElicitResult", ElicitResult.accept(withoutNumber));
        assertValid("ElicitRequestURLParams", ElicitRequest.url("Sign in", "https://example.com/x", "e-1"));
    }

    @Test
    void sampling() {
        assertValid("CreateMessageResult", CreateMessageResult.ofText("test-model", "Paris"));
        assertValid("CreateMessageResult", new CreateMessageResult("assistant",
                List.of(TextContent.of("calling"),
                        Map.of("type", "tool_use", "id", "c1", "name", "lookup", "input", Map.of("q", "x"))),
                "m", "toolUse", Map.of("k", 1)));
        CreateMessageRequest request = new CreateMessageRequest(
                List.of(SamplingMessage.of("user", TextContent.of("What is the capital of France?"))),
                new ModelPreferences(List.of(Map.of("name", "claude")), 0.2, 0.5, 0.9),
                "Be brief.", "none", 0.7, 100, List.of("\n"), Map.of("p", 1),
                List.of(Tool.of("lookup", null, Map.of("type", "object"))), Map.of("mode", "auto"), null);
        assertValid("CreateMessageRequestParams", request);
        assertValid("SamplingMessage", SamplingMessage.of("assistant", ImageContent.of("AA==", "image/png")));
    }

    @Test
    void otherResultsAndParams() {
        assertValid("InitializeResult", new InitializeResult("2025-11-25",
                new ServerCapabilities(null, Map.of(), Map.of(), new ListChangedCapability(true),
                        new ResourcesCapability(true, false), new ListChangedCapability(null), null, null),
                Implementation.of("s", "1"), "Use echo.", null));
        assertValid("ClientCapabilities", new ClientCapabilities(Map.of("x", Map.of()), RootsCapability.of(true),
                new SamplingCapability(Map.of(), Map.of()), ElicitationCapability.formAndUrl(), null, null));
        assertValid("ReadResourceResult", new ReadResourceResult(List.of(
                TextResourceContents.of("file:///a", "text/plain", "a"),
                BlobResourceContents.of("file:///b", "application/octet-stream", "AQID")), null));
        assertValid("ListResourcesResult", new ListResourcesResult(List.of(Resource.of("file:///a", "a")), "n",
                null));
        assertValid("ListResourceTemplatesResult", new ListResourceTemplatesResult(List.of(
                new ResourceTemplate("file:///{p}", "files", null, null, "text/plain", null, null, null)), null,
                null));
        assertValid("GetPromptResult", new GetPromptResult("d", List.of(
                new PromptMessage("user", TextContent.of("hi")),
                new PromptMessage("assistant", ResourceLink.of("file:///x", "x"))), null));
        assertValid("ListPromptsResult", new ListPromptsResult(List.of(new Prompt("p", "P", "d",
                List.of(new PromptArgument("a", null, null, true)), null, null)), null, null));
        assertValid("CompleteResult", new CompleteResult(new Completion(List.of("a", "b"), 2, false), null));
        assertValid("PromptReference", new PromptReference("p", "P"));
        assertValid("ResourceTemplateReference", ResourceTemplateReference.of("file:///{p}"));
        assertValid("ListRootsResult", ListRootsResult.of(List.of(Root.of("file:///home/u/p", "p"))));
        assertValid("LoggingMessageNotificationParams",
                new LoggingMessageNotification("warning", "db", Map.of("error", "x")));
        assertValid("ProgressNotificationParams", new ProgressNotification("t", 0.5, 1.0, "half"));
        assertValid("ProgressNotificationParams", new ProgressNotification(3, 1, null, null));
    }

    @Test
    void theValidatorDoesRejectBadOutput() {
        assertThat(errors("ElicitResult", new ElicitResult("maybe", null, null))).isNotEmpty();
        assertThat(errors("CallToolResult", new CallToolResult(null, null, null, null))).isNotEmpty();
        assertThat(errors("Tool", new Tool("t", null, null, null, null, null, null, null, null))).isNotEmpty();
        assertThat(errors("CreateMessageResult", new CreateMessageResult("assistant", null, "m", null, null)))
                .isNotEmpty();
    }
}
