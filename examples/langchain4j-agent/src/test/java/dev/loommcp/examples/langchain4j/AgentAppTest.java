package dev.loommcp.examples.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.loommcp.hosts.ServerState;
import dev.loommcp.hosts.ServerStatus;
import dev.loommcp.hosts.StdioServerConfig;
import dev.loommcp.it.servers.ReferenceServer;
import dev.loommcp.it.servers.TasksFixture;
import dev.loommcp.testing.LeakCheck;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example app end to end against real servers over stdio (the pinned reference server, the tasks fixture), with
 * the scripted model: the plain run and its variants. No thread or process is left after each test.
 */
@ExtendWith(LeakCheck.class)
class AgentAppTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private static StdioServerConfig everything() {
        return StdioServerConfig.of("everything", ReferenceServer.stdioCommand());
    }

    @Test
    void theAppRunsFromAnMcpServersFileAndAnswersWithTheEcho(@TempDir Path dir) throws Exception {
        List<String> cmd = ReferenceServer.stdioCommand();
        Path file = dir.resolve("mcp.json");
        Files.writeString(file, "{\"mcpServers\":{\"everything\":{\"command\":\"node\",\"args\":["
                + cmd.subList(1, cmd.size()).stream().map(a -> "\"" + a.replace("\\", "\\\\") + "\"")
                .collect(Collectors.joining(",")) + "]}}}");
        PrintStream out = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            AgentApp.main(new String[] {file.toString()});
        } finally {
            System.setOut(out);
        }
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains("The server said Echo: hi");
    }

    @Test
    void aTaskBackedToolReturnsThroughTheSameExecutor(@TempDir Path dir) throws Exception {
        Path wire = dir.resolve("wire.log");
        try (AgentApp app = AgentApp.start(List.of(StdioServerConfig.of("jobs", tapped(wire,
                        TasksFixture.stdioCommand()))),
                new ScriptedChatModel("jobs__slow_compute", "{\"seconds\":0.2}"))) {
            assertThat(app.ask("compute")).startsWith("The server said ").contains("computed after");
        }
        // the server answered with a task, which the client followed to its result (tasks/get or a listen stream)
        assertThat(wireLines(wire)).anyMatch(l -> l.contains("\"tasks/get\"") || l.contains("\"taskIds\""));
    }

    @Test
    void anInterruptedCallIsCancelledOnTheWire(@TempDir Path dir) throws Exception {
        Path wire = dir.resolve("wire.log");
        try (AgentApp app = AgentApp.start(List.of(StdioServerConfig.of("everything",
                        tapped(wire, ReferenceServer.stdioCommand()))),
                new ScriptedChatModel("everything__trigger-long-running-operation",
                        "{\"duration\":60,\"steps\":60}"))) {
            CompletableFuture<String> answer = new CompletableFuture<>();
            Thread caller = Thread.ofVirtual().start(() -> {
                try {
                    answer.complete(app.ask("run the long operation"));
                } catch (Throwable e) {
                    answer.completeExceptionally(e);
                }
            });
            await().atMost(WAIT).until(() -> wireLines(wire).stream().anyMatch(l -> l.contains("\"tools/call\"")));
            caller.interrupt();
            caller.join(WAIT);
            assertThat(caller.isAlive()).isFalse();
            assertThat(answer).isCompletedExceptionally();
            String call = wireLines(wire).stream().filter(l -> l.contains("\"tools/call\"")).findFirst().orElseThrow();
            String id = call.replaceAll(".*\"id\":\\s*(\"[^\"]*\"|\\d+).*", "$1");
            await().atMost(WAIT).until(() -> wireLines(wire).stream()
                    .anyMatch(l -> l.contains("notifications/cancelled") && l.contains("\"requestId\":" + id)));
        }
    }

    @Test
    void aServerDownAtStartupLeavesTheAppWorkingAndItsToolExplainsWhy() {
        StdioServerConfig down = StdioServerConfig.of("down", List.of("node", "-e", "process.exit(3)"));
        try (AgentApp echo = AgentApp.start(List.of(down, everything()),
                new ScriptedChatModel("everything__echo", "{\"message\":\"hi\"}"))) {
            assertThat(echo.servers().statuses()).extracting(ServerStatus::state).containsOnly(ServerState.IDLE);
            assertThat(echo.ask("say hi")).isEqualTo("The server said Echo: hi");
            assertThat(echo.servers().server("down").state()).isEqualTo(ServerState.FAILED);
        }
        try (AgentApp broken = AgentApp.start(List.of(down, everything()),
                new ScriptedChatModel("down__echo", "{\"message\":\"hi\"}"))) {
            assertThat(broken.ask("use the down server"))
                    .contains("MCP tool 'down__echo' is not available: server 'down' is FAILED");
        }
    }

    @Test
    void aServerRestartedMidRunAnswersTheNextCall() {
        try (AgentApp app = AgentApp.start(List.of(everything()),
                new ScriptedChatModel("everything__echo", "{\"message\":\"hi\"}"))) {
            assertThat(app.ask("say hi")).isEqualTo("The server said Echo: hi");
            // the server process dies under the app (a crash, an OOM kill)
            List<ProcessHandle> server = ProcessHandle.current().descendants()
                    .filter(p -> p.info().commandLine().orElse("").contains("server-everything")).toList();
            assertThat(server).isNotEmpty();
            server.forEach(ProcessHandle::destroyForcibly);
            await().atMost(WAIT).until(() -> app.servers().server("everything").status().restarts() >= 1
                    && app.servers().server("everything").state() == ServerState.READY);
            assertThat(app.ask("say hi again")).isEqualTo("The server said Echo: hi");
        }
    }

    /** The server's command run under test-servers/wire-tap.cjs, which logs what the client sends. */
    private static List<String> tapped(Path wire, List<String> command) {
        List<String> tapped = new ArrayList<>(List.of("node",
                ReferenceServer.nodeDir().resolve("wire-tap.cjs").toString(), wire.toString()));
        tapped.addAll(command);
        return tapped;
    }

    private static List<String> wireLines(Path wire) throws java.io.IOException {
        return Files.exists(wire) ? Files.readAllLines(wire) : List.of();
    }
}
