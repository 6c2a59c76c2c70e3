package dev.loommcp.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.loommcp.internal.json.Json;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.it.servers.ReferenceServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI end to end, in this JVM (picocli's {@code execute} with captured output), against the reference server
 * {@code @modelcontextprotocol/server-everything} over stdio and against small shell commands that misbehave.
 */
@ExtendWith(LeakCheck.class)
class CliReferenceServerTest {

    /** What one run of the CLI produced. */
    record Run(int code, String out, String err) {
    }

    private final Map<String, String> env = new HashMap<>();

    private Run mcp(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out), new PrintWriter(err), env::get, args);
        return new Run(code, out.toString(), err.toString());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> obj(Object value) {
        assertThat(value).isInstanceOf(Map.class);
        return (Map<String, Object>) value;
    }

    /** The {@code --stdio} value that starts the reference server over stdio, loopback only. */
    static String server() {
        return ReferenceServer.stdioCommand().stream().map(ShellWords::quote).collect(Collectors.joining(" "));
    }

    private Run withServer(String... args) {
        List<String> all = new ArrayList<>(List.of("--stdio", server()));
        all.addAll(List.of(args));
        return mcp(all.toArray(String[]::new));
    }

    // ------------------------------------------------------------------------------------------------ commands

    @Test
    void toolsListsEchoWithItsTitle() {
        Run r = withServer("tools");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out().lines().findFirst()).hasValueSatisfying(h -> assertThat(h).startsWith("NAME")
                .contains("TITLE").contains("DESCRIPTION"));
        assertThat(r.out().lines().filter(l -> l.startsWith("echo ")).findFirst())
                .hasValueSatisfying(l -> assertThat(l).contains("Echo Tool").contains("Echoes back the input"));
        assertThat(r.err()).isEmpty();
    }

    @Test
    void callEchoPrintsTheText() {
        Run r = withServer("call", "echo", "{\"message\":\"hi\"}");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("Echo: hi\n");
        assertThat(r.err()).isEmpty();
    }

    @Test
    void jsonOutputIsWhatTheServerReturnedAndParses() {
        Run call = withServer("--json", "call", "echo", "{\"message\":\"hi\"}");
        assertThat(call.code()).as(call.err()).isZero();
        assertThat(Json.read(call.out())).isEqualTo(Map.of("content",
                List.of(Map.of("type", "text", "text", "Echo: hi"))));

        // options may follow the command too
        Run tools = withServer("tools", "--json");
        assertThat(tools.code()).as(tools.err()).isZero();
        Map<String, Object> list = obj(Json.read(tools.out()));
        assertThat(list).doesNotContainKey("nextCursor");
        assertThat((List<?>) list.get("tools")).anySatisfy(t -> assertThat(((Map<?, ?>) t).get("name"))
                .isEqualTo("echo"));
        // the full definitions, as sent (including fields the typed records do not model)
        assertThat((List<?>) list.get("tools")).allSatisfy(t -> assertThat(obj(t)).containsKey("inputSchema"));

        Run info = withServer("--json", "info");
        assertThat(info.code()).as(info.err()).isZero();
        Map<?, ?> init = (Map<?, ?>) Json.read(info.out());
        assertThat(((Map<?, ?>) init.get("serverInfo")).get("name")).isEqualTo("mcp-servers/everything");
        assertThat(init.get("protocolVersion")).isEqualTo("2025-11-25");
    }

    @Test
    void aToolResultWithIsErrorExitsOne() {
        // server-everything answers a call of an unknown tool with an isError result, not a JSON-RPC error
        Run r = withServer("call", "no-such-tool");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).contains("Tool no-such-tool not found");
        assertThat(r.err()).contains("isError");

        Run json = withServer("--json", "call", "no-such-tool");
        assertThat(json.code()).isEqualTo(1);
        assertThat(((Map<?, ?>) Json.read(json.out())).get("isError")).isEqualTo(true);
    }

    @Test
    void aJsonRpcErrorExitsFour() {
        Run r = withServer("prompt", "no-such-prompt");
        assertThat(r.code()).isEqualTo(4);
        assertThat(r.err()).contains("prompts/get").contains("-32602").contains("no-such-prompt");
        assertThat(r.out()).isEmpty();

        Run json = withServer("--json", "read", "demo://no/such/resource");
        assertThat(json.code()).isEqualTo(4);
        Map<?, ?> error = (Map<?, ?>) ((Map<?, ?>) Json.read(json.out())).get("error");
        assertThat(error.get("code")).isEqualTo(-32602);
        assertThat((String) error.get("message")).contains("demo://no/such/resource");
    }

    @Test
    void aServerThatExitsFailsWithExitThreeShowingItsCodeAndStderr() {
        Run r = mcp("--stdio", "sh -c 'echo boom >&2; exit 7'", "tools");
        assertThat(r.code()).isEqualTo(3);
        assertThat(r.err()).contains("exited with code 7").contains("boom");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void aCallPastItsTimeoutExitsFive() {
        Run r = withServer("--timeout", "1s", "call", "trigger-long-running-operation",
                "{\"duration\":5,\"steps\":5}");
        assertThat(r.code()).as(r.err()).isEqualTo(5);
        assertThat(r.err()).contains("timed out").contains("--timeout 1s").contains("tools/call");
    }

    @Test
    void progressIsDrawnOnStderrWhenAskedFor() {
        env.put("MCP_PROGRESS", "always");
        Run r = withServer("call", "trigger-long-running-operation", "{\"duration\":2,\"steps\":2}");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).contains("\r[").contains("50%");
        assertThat(r.out()).contains("Long running operation completed");
    }

    @Test
    void noProgressIsDrawnWithoutATerminal() {
        env.put("MCP_PROGRESS", "never");
        Run r = withServer("call", "trigger-long-running-operation", "{\"duration\":1,\"steps\":2}");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
    }

    @Test
    void infoShowsTheServer() {
        Run r = withServer("info");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("Everything Reference Server (mcp-servers/everything ")
                .contains("Protocol:      2025-11-25")
                .contains("tools (listChanged)").contains("resources (subscribe, listChanged)")
                .contains("Instructions:");
    }

    @Test
    void structuredContentAndImagesArePrintedReadably() {
        Run s = withServer("call", "get-structured-content", "{\"location\":\"Chicago\"}");
        assertThat(s.code()).as(s.err()).isZero();
        assertThat(s.out()).contains("structuredContent:\n{\n").contains("\"temperature\" :");

        Run v = withServer("call", "--validate", "get-structured-content", "{\"location\":\"Chicago\"}");
        assertThat(v.code()).as(v.err()).isZero();
        assertThat(v.err()).isEmpty();
        assertThat(withServer("--json", "call", "--validate", "echo").code()).isEqualTo(2);

        Run i = withServer("call", "get-tiny-image");
        assertThat(i.code()).as(i.err()).isZero();
        assertThat(i.out()).containsPattern("\\[image: image/png, [0-9,]+ bytes\\]");
        assertThat(i.out()).doesNotContain("iVBOR");
    }

    @Test
    void resourcesAreListedAndRead() {
        Run list = withServer("resources");
        assertThat(list.code()).as(list.err()).isZero();
        assertThat(list.out()).contains("demo://resource/static/document/architecture.md");

        Run templates = withServer("resources", "--templates");
        assertThat(templates.code()).as(templates.err()).isZero();
        assertThat(templates.out()).startsWith("URI TEMPLATE").contains("{");

        Run read = withServer("read", "demo://resource/static/document/architecture.md");
        assertThat(read.code()).as(read.err()).isZero();
        assertThat(read.out()).isNotBlank().doesNotStartWith("[");
    }

    @Test
    void promptsAreListedAndRendered() {
        Run list = withServer("prompts");
        assertThat(list.code()).as(list.err()).isZero();
        assertThat(list.out().lines().filter(l -> l.startsWith("args-prompt ")).findFirst())
                .hasValueSatisfying(l -> assertThat(l).contains("city* state"));

        Run get = withServer("prompt", "args-prompt", "{\"city\":\"Paris\",\"state\":\"TX\"}");
        assertThat(get.code()).as(get.err()).isZero();
        assertThat(get.out()).contains("[user]").contains("Paris");
    }

    @Test
    void ping() {
        Run r = withServer("ping");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("pong (").endsWith(" ms)\n");
        Run json = withServer("ping", "--json");
        assertThat(json.code()).as(json.err()).isZero();
        assertThat(Json.read(json.out())).isEqualTo(Map.of());
    }

    // ------------------------------------------------------------------------------------------------ environment

    @Test
    void envSetsAndPassesVariablesToTheServer() {
        env.put("LOOM_CLI_PASSED", "from-our-environment");
        // repeatable, before and after the command name
        Run r = withServer("--env", "LOOM_CLI_SET=set-value", "--env", "LOOM_CLI_EQ=a=b", "call", "get-env",
                "--env", "LOOM_CLI_PASSED");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("LOOM_CLI_SET").contains("set-value").contains("\"LOOM_CLI_EQ\": \"a=b\"")
                .contains("LOOM_CLI_PASSED").contains("from-our-environment");
    }

    @Test
    void theWholeEnvironmentIsPassedOnlyWhenAskedFor() {
        String name = System.getenv().keySet().stream()
                .filter(n -> n.equals("JAVA_HOME") || n.equals("MAVEN_PROJECTBASEDIR") || n.equals("JAVA_MAIN_CLASS"))
                .findFirst().orElse(null);
        assumeTrue(name != null, "no variable outside the safe list to look for");
        Run plain = withServer("--json", "call", "get-env");
        assertThat(plain.code()).as(plain.err()).isZero();
        assertThat(plain.out()).doesNotContain(name);
        Run inherit = withServer("--inherit-env", "--json", "call", "get-env");
        assertThat(inherit.code()).as(inherit.err()).isZero();
        assertThat(inherit.out()).contains(name);
    }

    @Test
    void badVariablesAreUsageErrorsThatNeverShowTheValue() {
        Run nul = mcp("--stdio", "true", "--env", "BAD\0NAME=secret-value-1", "ping");
        assertThat(nul.code()).isEqualTo(2);
        assertThat(nul.err()).doesNotContain("secret-value-1");

        Run empty = mcp("--stdio", "true", "--env", "=secret-value-2", "ping");
        assertThat(empty.code()).isEqualTo(2);
        assertThat(empty.err()).contains("empty variable name").doesNotContain("secret-value-2");

        Run missing = mcp("--stdio", "true", "--env", "sk-live-LOOM_CLI_NOT_SET", "ping");
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).contains("no such variable").doesNotContain("sk-live-LOOM_CLI_NOT_SET");
    }

    @Test
    void cwdAndStderrEcho(@TempDir Path dir) throws Exception {
        Path real = dir.toRealPath();
        Run r = mcp("--stderr", "--cwd", real.toString(), "--stdio", "sh -c 'pwd >&2; exit 3'", "ping");
        assertThat(r.code()).isEqualTo(3);
        assertThat(r.err()).contains(real.toString()).contains("exited with code 3");
        // echoed as it came: not repeated as a tail
        assertThat(r.err()).doesNotContain("stderr ended with");

        Run missing = mcp("--cwd", real.resolve("missing").toString(), "--stdio", "true", "ping");
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).contains("does not exist");
    }

    // ------------------------------------------------------------------------------------------------ usage

    @Test
    void usageErrorsExitTwo() {
        assertThat(mcp("tools").code()).isEqualTo(2);
        assertThat(mcp("tools").err()).contains("--stdio");
        assertThat(mcp("--stdio", "x", "--http", "http://127.0.0.1:1/mcp", "tools").err())
                .contains("either --stdio or --http");
        assertThat(mcp("--stdio", "true", "no-such-command").code()).isEqualTo(2);
        assertThat(mcp("--stdio", "true", "--timeout", "soon", "ping").code()).isEqualTo(2);
        Run badJson = mcp("--stdio", "true", "call", "echo", "{not json");
        assertThat(badJson.code()).isEqualTo(2);
        assertThat(badJson.err()).contains("not valid JSON");
        Run repeated = mcp("--stdio", "true", "call", "echo", "{\"message\":\"a\",\"message\":\"b\"}");
        assertThat(repeated.code()).isEqualTo(2);
        assertThat(repeated.err()).contains("not valid JSON").contains("\"message\"");
        Run notObject = mcp("--stdio", "true", "call", "echo", "[1,2]");
        assertThat(notObject.code()).isEqualTo(2);
        assertThat(notObject.err()).contains("must be a JSON object");
        Run pipe = mcp("--stdio", "server | tee log", "tools");
        assertThat(pipe.code()).isEqualTo(2);
        assertThat(pipe.err()).contains("unquoted '|'");
        Run notFound = mcp("--stdio", "loom-no-such-program-xyz --flag", "tools");
        assertThat(notFound.code()).isEqualTo(2);
        assertThat(notFound.err()).contains("loom-no-such-program-xyz");
        Run header = mcp("--stdio", "true", "--header", "Authorization: Bearer secret-token", "tools");
        assertThat(header.code()).isEqualTo(2);
        assertThat(header.err()).doesNotContain("secret-token");
    }

    @Test
    void helpListsTheExitCodes() {
        Run r = mcp("--help");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("Exit codes:").contains("130").contains("isError").contains("JSON-RPC error")
                .contains("timeout");
    }

    @Test
    void conformanceNeedsTheScenario() {
        Run r = mcp("conformance", "http://127.0.0.1:9/mcp");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("MCP_CONFORMANCE_SCENARIO");
    }

    @Test
    void conformanceRunsTheConformanceClient() {
        env.put("MCP_CONFORMANCE_SCENARIO", "no-such-scenario");
        Run r = mcp("conformance", "http://127.0.0.1:9/mcp");
        assertThat(r.code()).as("an unknown scenario is refused with 2").isEqualTo(2);
    }
}
