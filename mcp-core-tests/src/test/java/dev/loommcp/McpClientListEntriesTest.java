package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.config.ProtocolMode;
import dev.loommcp.schema.Prompt;
import dev.loommcp.schema.Resource;
import dev.loommcp.schema.ResourceTemplate;
import dev.loommcp.schema.Tool;
import dev.loommcp.testing.LogCapture;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One malformed entry of a list result costs the server that entry only (break test 40, finding 1): it is left out
 * with one WARNING naming the method, the index and what was wrong (never the entry's content), the well-formed
 * entries are kept; a result whose envelope is malformed still fails whole. Every list the client decodes, in both
 * eras.
 */
class McpClientListEntriesTest {

    /** A value the WARNINGs must never show (it stands for payload). */
    private static final String SECRET = "s3cret-payload";

    @RegisterExtension
    final Sessions sessions = new Sessions();

    @RegisterExtension
    final LogCapture logs = new LogCapture("dev.loommcp.client");

    /** A client of a server that answers each method with its result, in the modern or the legacy era. */
    private Session client(boolean modern, Map<String, Map<String, Object>> results) throws InterruptedException {
        UnaryOperator<Map<String, Object>> wrap = modern ? McpClientModernEraTest::complete : r -> r;
        return sessions.connected(Mode.INLINE, t -> {
            if (modern) {
                McpClientModernEraTest.modern(t);
            }
            results.forEach((method, result) -> t.on(method, r -> wrap.apply(result)));
        }, b -> b.protocolMode(modern ? ProtocolMode.MODERN : ProtocolMode.LEGACY));
    }

    private static Map<String, Object> tool(String name, Object inputSchema) {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("name", name);
        t.put("inputSchema", inputSchema);
        return t;
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aMalformedToolIsLeftOutAndTheOthersAreKept(boolean modern) throws Exception {
        Session s = client(modern, Map.of("tools/list", Map.of("tools", List.of(
                tool("good", Map.of("type", "object")),
                tool("sloppy", SECRET), // inputSchema a string
                Map.of("description", SECRET), // no name
                SECRET, // not an object
                tool("fine", Map.of("type", "object"))))));

        assertThat(s.client().tools()).extracting(McpTool::name).containsExactly("good", "fine");
        assertThat(s.client().listTools(null).tools()).extracting(Tool::name).containsExactly("good", "fine");

        List<String> warnings = logs.messages().stream().filter(m -> m.contains("left out")).toList();
        assertThat(warnings).hasSize(6); // three entries, two listings
        assertThat(warnings).allSatisfy(m -> assertThat(m).startsWith("tools/list: entry ").doesNotContain(SECRET));
        assertThat(warnings.subList(0, 3)).satisfiesExactly(
                m -> assertThat(m).contains("entry 1 ").contains("inputSchema"),
                m -> assertThat(m).contains("entry 2 ").contains("name"),
                m -> assertThat(m).contains("entry 3 ").contains("a string, not an object"));
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aMalformedPromptResourceOrTemplateIsLeftOutAndTheOthersAreKept(boolean modern) throws Exception {
        Session s = client(modern, Map.of(
                "prompts/list", Map.of("prompts", List.of(Map.of("name", "p1"),
                        Map.of("name", "p2", "arguments", SECRET), Map.of("name", "p3"))),
                "resources/list", Map.of("resources", List.of(Map.of("uri", "file:///a", "name", "a"),
                        Map.of("uri", "file:///b", "name", "b", "annotations", SECRET))),
                "resources/templates/list", Map.of("resourceTemplates", List.of(
                        Map.of("uriTemplate", SECRET, "name", List.of()),
                        Map.of("uriTemplate", "file:///{p}", "name", "files")))));

        assertThat(s.client().listAllPrompts()).extracting(Prompt::name).containsExactly("p1", "p3");
        assertThat(s.client().listPrompts(null).prompts()).extracting(Prompt::name).containsExactly("p1", "p3");
        assertThat(s.client().listAllResources()).extracting(Resource::name).containsExactly("a");
        assertThat(s.client().listResources(null).resources()).extracting(Resource::name).containsExactly("a");
        assertThat(s.client().listAllResourceTemplates()).extracting(ResourceTemplate::name)
                .containsExactly("files");
        assertThat(s.client().listResourceTemplates(null).resourceTemplates()).extracting(ResourceTemplate::name)
                .containsExactly("files");

        assertThat(logs.messages()).filteredOn(m -> m.contains("left out"))
                .allSatisfy(m -> assertThat(m).doesNotContain(SECRET))
                .anySatisfy(m -> assertThat(m).startsWith("prompts/list: entry 1 of \"prompts\" left out"))
                .anySatisfy(m -> assertThat(m).startsWith("resources/list: entry 1 of \"resources\" left out"))
                .anySatisfy(m -> assertThat(m)
                        .startsWith("resources/templates/list: entry 0 of \"resourceTemplates\" left out"));
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aMalformedEnvelopeStillFailsTheListing(boolean modern) throws Exception {
        Map<String, Object> badCursor = new LinkedHashMap<>();
        badCursor.put("prompts", List.of(Map.of("name", "p1")));
        badCursor.put("nextCursor", 7);
        Session s = client(modern, Map.of("tools/list", Map.of("tools", "none"),
                "resources/list", Map.of("resources", Map.of("uri", "file:///a")),
                "prompts/list", badCursor));

        assertThatThrownBy(() -> s.client().tools()).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("malformed tools/list result: \"tools\" is a string, not an array");
        assertThatThrownBy(() -> s.client().listTools(null)).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("not an array");
        assertThatThrownBy(() -> s.client().listAllResources()).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("\"resources\" is an object, not an array");
        assertThatThrownBy(() -> s.client().listResources(null)).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("resources/list");
        assertThatThrownBy(() -> s.client().listAllPrompts()).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("nextCursor");
        assertThat(s.client().isConnected()).isTrue();
        assertThat(logs.messages()).noneMatch(m -> m.contains("left out"));
    }

}
