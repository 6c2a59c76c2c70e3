package dev.loommcp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.cli.InProcessCli.Run;
import dev.loommcp.internal.json.Json;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.it.servers.CrashFixture;
import dev.loommcp.it.servers.ReferenceServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the CLI offers next to the MCP Inspector's CLI mode, through {@link Main#run} in this JVM: {@code KEY=VALUE}
 * arguments typed by the tool's input schema ({@code call}) or kept as strings ({@code prompt}), the raw
 * {@code request} and {@code notify} commands, {@code complete}, and {@code call SERVER__TOOL} with {@code --config}.
 * Against the reference server over stdio, and against a recording HTTP server that shows exactly what was sent.
 */
@ExtendWith(LeakCheck.class)
class CliInspectorCommandsTest {

    private final Map<String, String> env = new HashMap<>();

    @TempDir
    Path dir;

    private Run mcp(String... args) {
        return InProcessCli.run(env::get, args);
    }

    private Run everything(String... args) {
        List<String> all = new ArrayList<>(List.of("--stdio", CliReferenceServerTest.server()));
        all.addAll(List.of(args));
        return mcp(all.toArray(String[]::new));
    }

    private static void usage(Run r, String message) {
        assertThat(r.code()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains(message).contains("Try 'mcp --help'");
        assertThat(r.out()).isEmpty();
    }

    // ------------------------------------------------------------------------------------------------ KEY=VALUE

    @Test
    void keyValueArgumentsAreTypedByTheToolsSchema() {
        Run sum = everything("call", "get-sum", "a=1", "b=2.5");
        assertThat(sum.code()).as(sum.err()).isZero();
        assertThat(sum.out()).isEqualTo("The sum of 1 and 2.5 is 3.5.\n");
        // "message" is a string: 42 stays the text "42" (sent as a number, the server would refuse it)
        Run echo = everything("call", "echo", "message=42");
        assertThat(echo.code()).as(echo.err()).isZero();
        assertThat(echo.out()).isEqualTo("Echo: 42\n");
        Run spaces = everything("call", "echo", "message=hi there = you");
        assertThat(spaces.out()).isEqualTo("Echo: hi there = you\n");
        Run bool = everything("call", "get-annotated-message", "messageType=success", "includeImage=false");
        assertThat(bool.code()).as(bool.err()).isZero();
        assertThat(bool.out()).contains("Operation completed successfully");
        // the JSON-object form is unchanged
        Run object = everything("call", "echo", "{\"message\":\"hi\"}");
        assertThat(object.out()).isEqualTo("Echo: hi\n");
    }

    @Test
    void callAsATaskTakesKeyValueArgumentsToo() {
        String fixture = dev.loommcp.it.servers.TasksFixture.stdioCommand().stream().map(ShellWords::quote)
                .collect(Collectors.joining(" "));
        Run r = mcp("--stdio", fixture, "call", "--task", "slow_compute", "seconds=0.2", "label=7");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("computed after 200 ms\n");
        usage(mcp("--stdio", fixture, "call", "--task", "slow_compute", "seconds=soon"),
                "argument 'seconds': expected a number, got 'soon'");
    }

    @Test
    void aKeyValueThatDoesNotFitIsAUsageErrorNamingKeyTypeAndValue() {
        usage(everything("call", "get-sum", "a=one", "b=2"), "mcp: argument 'a': expected a number, got 'one'");
        usage(everything("call", "get-annotated-message", "messageType=success", "includeImage=yes"),
                "argument 'includeImage': expected a boolean, got 'yes'");
        usage(everything("call", "echo", "mesage=hi"),
                "mcp: tool 'echo' has no argument 'mesage' (its arguments are: message; a JSON object is sent as it "
                        + "is)");
        usage(everything("call", "get-env", "x=1"), "tool 'get-env' has no argument 'x' (it takes none");
    }

    @Test
    void wordsThatAreNotOneFormAreRefusedBeforeTheServerStarts() {
        usage(mcp("--stdio", "true", "call", "echo", "message=a", "message=b"),
                "the tool arguments: 'message' is given twice");
        usage(mcp("--stdio", "true", "call", "echo", "message=a", "{\"message\":\"b\"}"),
                "the tool arguments: give either KEY=VALUE words or one JSON object (or - for stdin), not both");
        usage(mcp("--stdio", "true", "call", "echo", "message=a", "-"), "not both");
        usage(mcp("--stdio", "true", "call", "echo", "message=a", "oops"),
                "the tool arguments: 'oops' is not KEY=VALUE");
        usage(mcp("--stdio", "true", "call", "echo", "=a"), "'=a' has an empty key");
        usage(mcp("--stdio", "true", "prompt", "p", "a=1", "a=2"), "the prompt arguments: 'a' is given twice");
        // one word without '=' is still the JSON form, reported as JSON
        usage(mcp("--stdio", "true", "call", "echo", "{not json"), "the tool arguments are not valid JSON");
    }

    /** A tool whose schema has every JSON type, on the recording server. */
    private static Map<String, Function<Map<String, Object>, Object>> typedTool(Map<String, Object> extra) {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("tags", Map.of("type", "array"));
        props.put("opts", Map.of("type", "object"));
        props.put("n", Map.of("type", "integer"));
        props.put("x", Map.of("type", "number"));
        props.put("flag", Map.of("type", "boolean"));
        props.put("note", Map.of("type", List.of("string", "null")));
        props.put("id", Map.of("type", "string"));
        props.put("size", Map.of("anyOf", List.of(Map.of("type", "integer"), Map.of("type", "string"))));
        props.put("level", Map.of("enum", List.of("1", "2")));
        props.put("any", Map.of("description", "no type"));
        Map<String, Object> schema = new LinkedHashMap<>(Map.of("type", "object", "properties", props));
        schema.putAll(extra);
        Map<String, Object> tool = Map.of("name", "typed", "inputSchema", schema);
        return Map.of(
                "tools/list", params -> Map.of("tools", List.of(tool)),
                "tools/call", params -> Map.of("content", List.of(Map.of("type", "text", "text", "ok"))));
    }

    @SuppressWarnings("unchecked")
    private static List<Object> sentArguments(RecordingMcpServer server) {
        return server.messages().stream().filter(m -> "tools/call".equals(m.get("method")))
                .map(m -> ((Map<String, Object>) m.get("params")).get("arguments")).toList();
    }

    @Test
    void everyJsonTypeIsSentAsTheSchemaSays() throws Exception {
        try (RecordingMcpServer server = new RecordingMcpServer(typedTool(Map.of()))) {
            Run r = mcp("--http", server.endpoint(), "--protocol", "legacy", "call", "typed",
                    "tags=[\"a\",\"b\"]", "opts={\"k\":1}", "n=3", "x=2.5", "flag=true", "note=null", "id=007",
                    "size=12", "level=1", "any=[1]");
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(r.out()).isEqualTo("ok\n");
            assertThat(Json.write(sentArguments(server).getFirst())).isEqualTo("{\"tags\":[\"a\",\"b\"],"
                    + "\"opts\":{\"k\":1},\"n\":3,\"x\":2.5,\"flag\":true,\"note\":null,\"id\":\"007\",\"size\":12,"
                    + "\"level\":\"1\",\"any\":[1]}");
            Run strings = mcp("--http", server.endpoint(), "--protocol", "legacy", "call", "typed",
                    "note=hello", "size=big", "any=plain text", "n=2.0", "id=");
            assertThat(strings.code()).as(strings.err()).isZero();
            assertThat(Json.write(sentArguments(server).get(1))).isEqualTo("{\"note\":\"hello\",\"size\":\"big\","
                    + "\"any\":\"plain text\",\"n\":2,\"id\":\"\"}");
            usage(mcp("--http", server.endpoint(), "--protocol", "legacy", "call", "typed", "n=1.5"),
                    "argument 'n': expected an integer, got '1.5'");
            usage(mcp("--http", server.endpoint(), "--protocol", "legacy", "call", "typed", "tags=a,b"),
                    "argument 'tags': expected an array, got 'a,b' (give it as JSON, like tags='[\"a\",\"b\"]'");
            usage(mcp("--http", server.endpoint(), "--protocol", "legacy", "call", "typed", "opts=[1]"),
                    "argument 'opts': expected an object, got '[1]'");
            usage(mcp("--http", server.endpoint(), "--protocol", "legacy", "call", "typed", "other=1"),
                    "tool 'typed' has no argument 'other' (its arguments are: tags, opts, n, x, flag, note, id, "
                            + "size, level, any;");
            assertThat(sentArguments(server)).hasSize(2);
        }
    }

    @Test
    void extraKeysAreTakenWhenTheSchemaAllowsThem() throws Exception {
        Map<String, Object> extra = Map.of("patternProperties", Map.of("^x_", Map.of("type", "integer")),
                "additionalProperties", Map.of("type", "string"));
        try (RecordingMcpServer server = new RecordingMcpServer(typedTool(extra))) {
            Run r = mcp("--http", server.endpoint(), "--protocol", "legacy", "call", "typed", "x_count=5",
                    "label=5");
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(sentArguments(server)).containsExactly(Map.of("x_count", 5, "label", "5"));
            // a tool the list does not hold: noted, every value inferred (JSON when it parses, else a string)
            Run unlisted = mcp("--http", server.endpoint(), "--protocol", "legacy", "call", "other", "a=5",
                    "b=five", "c=\"5\"");
            assertThat(unlisted.code()).as(unlisted.err()).isZero();
            assertThat(unlisted.err()).contains("mcp: tool 'other' is not in the server's tool list; its KEY=VALUE "
                    + "arguments are sent as JSON where they parse as JSON, else as strings");
            assertThat(sentArguments(server).get(1)).isEqualTo(Map.of("a", 5, "b", "five", "c", "5"));
        }
    }

    @Test
    void promptArgumentsAsKeyValueAreStrings() {
        Run r = everything("prompt", "args-prompt", "city=Paris", "state=75");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("Paris").contains("75");
        usage(everything("prompt", "args-prompt", "town=Paris"),
                "mcp: prompt 'args-prompt' has no argument 'town' (its arguments are: city, state;");
        Run json = everything("--json", "prompt", "completable-prompt", "department=Sales", "name=007");
        assertThat(json.code()).as(json.err()).isZero();
        assertThat(json.out()).contains("Please promote 007 to the head of the Sales team.");
    }

    // ------------------------------------------------------------------------------------------------ request

    @Test
    void requestSendsAnyMethodAndPrintsTheResultAsJson() {
        Run list = everything("request", "tools/list");
        assertThat(list.code()).as(list.err()).isZero();
        assertThat(Json.read(list.out())).isInstanceOfSatisfying(Map.class,
                m -> assertThat(m.get("tools").toString()).contains("get-sum"));
        Run call = everything("request", "tools/call", "name=echo", "arguments={\"message\":\"hi\"}");
        assertThat(call.code()).as(call.err()).isZero();
        assertThat(call.out()).contains("\"text\" : \"Echo: hi\"");
        Run object = everything("request", "prompts/get", "{\"name\":\"simple-prompt\"}");
        assertThat(object.code()).as(object.err()).isZero();
        assertThat(object.out()).contains("\"messages\"");
        Run unknown = everything("request", "no/such/method");
        assertThat(unknown.code()).isEqualTo(4);
        assertThat(unknown.err()).contains("-32601");
        Run unknownJson = everything("--json", "request", "no/such/method");
        assertThat(unknownJson.code()).isEqualTo(4);
        assertThat(unknownJson.out()).contains("\"error\"").contains("-32601");
        usage(mcp("--stdio", "true", "request", " "), "METHOD must name a JSON-RPC method");
        usage(mcp("--stdio", "true", "request", "tools/list", "[1]"), "the params must be a JSON object");
    }

    @Test
    void notifySendsTheNotification() throws Exception {
        try (RecordingMcpServer server = new RecordingMcpServer(Map.of())) {
            Run r = mcp("--http", server.endpoint(), "--protocol", "legacy", "notify",
                    "notifications/roots/list_changed", "reason=test");
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(r.out()).isEmpty();
            assertThat(server.messages()).anySatisfy(m -> {
                assertThat(m.get("method")).isEqualTo("notifications/roots/list_changed");
                assertThat(m.get("params")).isEqualTo(Map.of("reason", "test"));
            });
        }
    }

    // ------------------------------------------------------------------------------------------------ complete

    @Test
    void completePrintsTheValuesOnePerLine() {
        Run all = everything("complete", "prompt", "completable-prompt", "department", "");
        assertThat(all.code()).as(all.err()).isZero();
        assertThat(all.out()).isEqualTo("Engineering\nSales\nMarketing\nSupport\n");
        Run typed = everything("complete", "prompt", "completable-prompt", "department", "S");
        assertThat(typed.out()).isEqualTo("Sales\nSupport\n");
        Run context = everything("complete", "prompt", "completable-prompt", "name", "--context",
                "department=Engineering");
        assertThat(context.code()).as(context.err()).isZero();
        assertThat(context.out()).isEqualTo("Alice\nBob\nCharlie\n");
        Run none = everything("complete", "prompt", "completable-prompt", "name", "Z");
        assertThat(none.out()).isEqualTo("(no values)\n");
        Run resource = everything("complete", "resource", "demo://resource/dynamic/text/{resourceId}",
                "resourceId", "3");
        assertThat(resource.code()).as(resource.err()).isZero();
        assertThat(resource.out()).isEqualTo("3\n");
        Run json = everything("--json", "complete", "prompt", "completable-prompt", "department", "E");
        assertThat(json.code()).as(json.err()).isZero();
        assertThat(Json.read(json.out())).isInstanceOfSatisfying(Map.class,
                m -> assertThat(m.get("completion")).isInstanceOfSatisfying(Map.class,
                        c -> assertThat(c.get("values")).isEqualTo(List.of("Engineering"))));
        usage(mcp("--stdio", "true", "complete", "tool", "x", "a", "b"),
                "complete: expected 'prompt NAME' or 'resource URI-TEMPLATE', not 'tool'");
        usage(mcp("--stdio", "true", "complete", "prompt", "p", "a", "--context", "nope"),
                "--context: expected KEY=VALUE, not 'nope'");
    }

    // ------------------------------------------------------------------------------------------------ --config

    private static String stdioEntry(List<String> argv) {
        return "{\"command\": " + Json.write(argv.getFirst()) + ", \"args\": " + Json.write(argv.subList(1,
                argv.size())) + "}";
    }

    @Test
    void callOfANamespacedNameGoesThroughTheRegistryWithKeyValueArguments() throws Exception {
        Path file = dir.resolve("mcp.json");
        Files.writeString(file, "{\"mcpServers\": {\"everything\": " + stdioEntry(ReferenceServer.stdioCommand())
                + ", \"fixture\": " + stdioEntry(CrashFixture.stdioCommand(0)) + "}}");
        Run sum = mcp("--config", file.toString(), "call", "everything__get-sum", "a=2", "b=3");
        assertThat(sum.code()).as(sum.err()).isZero();
        assertThat(sum.out()).isEqualTo("The sum of 2 and 3 is 5.\n");
        Run echo = mcp("--config", file.toString(), "call", "everything__echo", "{\"message\":\"hi\"}");
        assertThat(echo.code()).as(echo.err()).isZero();
        assertThat(echo.out()).isEqualTo("Echo: hi\n");
        Run json = mcp("--config", file.toString(), "--json", "call", "everything__echo", "message=7");
        assertThat(json.code()).as(json.err()).isZero();
        assertThat(json.out()).contains("\"text\" : \"Echo: 7\"");
        usage(mcp("--config", file.toString(), "call", "everything__get-sum", "a=x", "b=1"),
                "argument 'a': expected a number, got 'x'");
        usage(mcp("--config", file.toString(), "call", "nowhere__echo", "message=hi"),
                "there is no server 'nowhere' (the servers are: everything, fixture)");
        usage(mcp("--config", file.toString(), "call", "everything__nope", "{}"),
                "server 'everything' does not list a tool 'nope'");
        usage(mcp("--config", file.toString(), "call", "--task", "everything__echo", "message=hi"),
                "call --task needs one server: pick it with --server NAME");
        // --server still picks one server, whose own tool names are used
        Run picked = mcp("--config", file.toString(), "--server", "everything", "call", "get-sum", "a=1", "b=1");
        assertThat(picked.out()).isEqualTo("The sum of 1 and 1 is 2.\n");
    }
}
