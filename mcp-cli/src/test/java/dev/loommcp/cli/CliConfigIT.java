package dev.loommcp.cli;

import static dev.loommcp.cli.CliProcess.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.cli.CliProcess.Run;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.it.servers.CrashFixture;
import dev.loommcp.it.servers.HttpModernFixture;
import dev.loommcp.it.servers.ModernFixture;
import dev.loommcp.it.servers.ReferenceServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --config mcp.json} through the real main path ({@code java -jar mcp.jar} in a child process): the
 * {@code servers} table, the aggregated {@code tools}, {@code --server NAME} for a single-server command over stdio
 * and HTTP, and the usage errors of a bad file or a missing {@code --server}.
 */
@ExtendWith(LeakCheck.class)
class CliConfigIT {

    private static HttpModernFixture modern;

    @TempDir
    Path dir;

    @BeforeAll
    static void startHttpServer() throws Exception {
        modern = new HttpModernFixture(ModernFixture.Variant.DUAL_ERA);
    }

    @AfterAll
    static void stopHttpServer() {
        modern.close();
    }

    private static String json(List<String> argv) {
        return argv.stream().map(a -> "\"" + a.replace("\\", "\\\\").replace("\"", "\\\"") + "\"")
                .collect(Collectors.joining(", ", "[", "]"));
    }

    private static String stdioEntry(List<String> argv) {
        return "{\"command\": \"" + argv.getFirst() + "\", \"args\": " + json(argv.subList(1, argv.size())) + "}";
    }

    /** An mcp.json with server-everything and the crash fixture (never crashing) over stdio, plus {@code extra}. */
    private Path config(String extra) throws Exception {
        Path file = dir.resolve("mcp.json");
        Files.writeString(file, "{\"mcpServers\": {\n"
                + "\"everything\": " + stdioEntry(ReferenceServer.stdioCommand()) + ",\n"
                + "\"fixture\": " + stdioEntry(CrashFixture.stdioCommand(0))
                + (extra.isEmpty() ? "" : ",\n" + extra) + "}}");
        return file;
    }

    private static Run mcp(String... args) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(CliProcess.javaJar(args));
        pb.environment().put("MODERN_URL", modern.endpoint().toString());
        pb.environment().remove("LOOM_UNSET_VARIABLE");
        return run(pb);
    }

    @Test
    void serversListsEveryServerWithTransportStateToolCountAndEra() throws Exception {
        Path file = config("\"modern\": {\"url\": \"${MODERN_URL}\"}");
        Run r = mcp("--config", file.toString(), "servers");
        assertThat(r.code()).as(r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines.getFirst()).containsSubsequence("NAME", "TRANSPORT", "STATE", "TOOLS", "ERA");
        assertThat(lines.get(1)).containsSubsequence("everything", "stdio", "ready").contains("legacy");
        assertThat(lines.get(2)).containsSubsequence("fixture", "stdio", "ready", "3", "legacy");
        assertThat(lines.get(3)).containsSubsequence("modern", "http", "ready").contains("modern");

        Run j = mcp("--config", file.toString(), "--json", "servers");
        assertThat(j.code()).as(j.err()).isZero();
        String compact = j.out().replaceAll("\\s+", "");
        assertThat(compact).contains("\"name\":\"fixture\",\"transport\":\"stdio\",\"state\":\"ready\",\"tools\":3,"
                + "\"era\":\"legacy\",\"error\":null").contains("\"era\":\"modern\"");
    }

    @Test
    void serversNamesAServerThatFailsAndExits3WhileTheOthersAreListed() throws Exception {
        Path file = config("\"broken\": {\"command\": \"/nonexistent/loom-mcp-no-such-program\"}");
        Run r = mcp("--config", file.toString(), "servers");
        assertThat(r.code()).isEqualTo(3);
        assertThat(r.out()).contains("everything").contains("fixture");
        assertThat(r.out().lines().filter(l -> l.startsWith("broken")).findFirst().orElseThrow())
                .containsSubsequence("broken", "stdio", "failed", "-", "-");
        assertThat(r.err()).startsWith("mcp: server 'broken' is failed: ").contains("loom-mcp-no-such-program")
                .hasLineCount(1); // the registry's own log line is not repeated
    }

    @Test
    void toolsWithoutServerListsTheNamespacedToolsOfEveryServer() throws Exception {
        Path file = config("\"modern\": {\"type\": \"http\", \"url\": \"${MODERN_URL}\"}");
        Run r = mcp("--config", file.toString(), "tools");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("everything__echo").contains("everything__get-sum")
                .contains("fixture__calls").contains("fixture__grow").contains("modern__echo");
        Run j = mcp("--json", "tools", "--config", file.toString());
        assertThat(j.code()).as(j.err()).isZero();
        assertThat(j.out().replaceAll("\\s+", ""))
                .contains("\"name\":\"fixture__echo\",\"server\":\"fixture\",\"tool\":{\"name\":\"echo\"");
    }

    @Test
    void serverNamesTheServerForEveryOtherCommand() throws Exception {
        Path file = config("\"modern\": {\"url\": \"${MODERN_URL}\"}");
        Run call = mcp("--config", file.toString(), "--server", "fixture", "call", "echo", "{\"message\":\"hi\"}");
        assertThat(call.code()).as(call.err()).isZero();
        assertThat(call.out()).contains("Echo: hi");
        Run tools = mcp("--config", file.toString(), "tools", "--server", "everything");
        assertThat(tools.code()).as(tools.err()).isZero();
        assertThat(tools.out()).contains("get-sum").doesNotContain("everything__");
        Run info = mcp("--config", file.toString(), "--server", "modern", "info");
        assertThat(info.code()).as(info.err()).isZero();
        assertThat(info.out()).contains("loom-modern-fixture");
        Run prompt = mcp("--config", file.toString(), "--server", "modern", "prompt", "greeting",
                "{\"name\":\"Ada\"}");
        assertThat(prompt.code()).as(prompt.err()).isZero();
        assertThat(prompt.out()).contains("Hello, Ada!");
    }

    @Test
    void anOptionsValueMayBeACommandsName() throws Exception {
        // a server named like a command (tasks), picked with --server before the command; --cwd and --root with a
        // directory named like one, --elicit with an answer that is one
        Path file = dir.resolve("named.json");
        Files.writeString(file, "{\"mcpServers\": {\"tasks\": " + stdioEntry(ReferenceServer.stdioCommand())
                + ", \"tools\": " + stdioEntry(CrashFixture.stdioCommand(0)) + "}}");
        Run byName = mcp("--config", file.toString(), "--server", "tasks", "call", "echo", "{\"message\":\"hi\"}");
        assertThat(byName.code()).as(byName.err()).isZero();
        assertThat(byName.out()).contains("Echo: hi");
        Run other = mcp("--config", file.toString(), "--server", "tools", "tools");
        assertThat(other.code()).as(other.err()).isZero();
        assertThat(other.out()).contains("echo");
        Files.createDirectories(dir.resolve("tools"));
        String server = ReferenceServer.stdioCommand().stream().map(ShellWords::quote)
                .collect(Collectors.joining(" "));
        Run options = run(new ProcessBuilder(CliProcess.javaJar("--stdio", server, "--cwd", "tools",
                "--root", "tools", "ping")).directory(dir.toFile()));
        assertThat(options.code()).as(options.err()).isZero();
        // "call" is no answer to an elicitation: the option's own check says so, not "Expected parameter"
        Run elicit = run(new ProcessBuilder(CliProcess.javaJar("--stdio", server, "--elicit", "call", "ping")));
        assertThat(elicit.code()).as(elicit.err()).isEqualTo(2);
        assertThat(elicit.err()).startsWith("mcp: --elicit: expected decline, cancel or a JSON object")
                .doesNotContain("Expected parameter");
    }

    @Test
    void aNamespacedCallWithKeyValueArgumentsAndTheInspectorCommandsRunThroughTheJar() throws Exception {
        Path file = config("");
        Run sum = mcp("--config", file.toString(), "call", "everything__get-sum", "a=1", "b=2");
        assertThat(sum.code()).as(sum.err()).isZero();
        assertThat(sum.out()).isEqualTo("The sum of 1 and 2 is 3.\n");
        Run typo = mcp("--config", file.toString(), "call", "everything__get-sum", "a=1", "c=2");
        assertThat(typo.code()).isEqualTo(2);
        assertThat(typo.err()).startsWith("mcp: tool 'everything__get-sum' has no argument 'c' (its arguments are: a, b;");
        Run complete = mcp("--config", file.toString(), "--server", "everything", "complete", "prompt",
                "completable-prompt", "department", "S");
        assertThat(complete.code()).as(complete.err()).isZero();
        assertThat(complete.out()).isEqualTo("Sales\nSupport\n");
        Run request = mcp("--config", file.toString(), "--server", "fixture", "request", "tools/list");
        assertThat(request.code()).as(request.err()).isZero();
        assertThat(request.out()).startsWith("{").contains("\"tools\"");
    }

    @Test
    void usageErrorsNameTheFileTheServerAndTheField() throws Exception {
        Path file = config("");
        Run several = mcp("--config", file.toString(), "ping");
        assertThat(several.code()).isEqualTo(2);
        assertThat(several.err()).startsWith("mcp: --config mcp.json has 2 servers: say which with --server NAME "
                + "(everything, fixture)");
        Run unknown = mcp("--config", file.toString(), "--server", "nope", "ping");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).startsWith("mcp: --server nope: there is no such server in mcp.json");
        Run noConfig = mcp("--server", "fixture", "ping");
        assertThat(noConfig.code()).isEqualTo(2);
        assertThat(noConfig.err()).startsWith("mcp: --server names a server of an mcpServers file: give --config");
        Run both = mcp("--config", file.toString(), "--stdio", "true", "--server", "fixture", "ping");
        assertThat(both.code()).isEqualTo(2);
        assertThat(both.err()).startsWith("mcp: give either --config or --stdio/--http/--sse, not both");
        Run serversNoConfig = mcp("servers");
        assertThat(serversNoConfig.code()).isEqualTo(2);
        assertThat(serversNoConfig.err()).startsWith("mcp: servers lists the servers of an mcpServers file");

        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{\"mcpServers\": {\"gh\": {\"url\": \"https://example.com/mcp\", "
                + "\"headers\": {\"Authorization\": \"Bearer ${LOOM_UNSET_VARIABLE}\"}}}}");
        Run unset = mcp("--config", bad.toString(), "servers");
        assertThat(unset.code()).isEqualTo(2);
        assertThat(unset.err()).startsWith("mcp: --config bad.json: server 'gh': headers.Authorization: "
                + "${LOOM_UNSET_VARIABLE} is not set in the environment");
        Run missing = mcp("--config", dir.resolve("none.json").toString(), "tools");
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).contains("none.json: cannot read it");
    }
}
