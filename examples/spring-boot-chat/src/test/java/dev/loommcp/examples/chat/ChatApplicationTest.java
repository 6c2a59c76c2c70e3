package dev.loommcp.examples.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.hosts.McpServers;
import dev.loommcp.hosts.ServerState;
import dev.loommcp.hosts.ServerStatus;
import dev.loommcp.spring.ai.LoomToolCallbacks;
import dev.loommcp.spring.boot.McpServersHealthIndicator;
import dev.loommcp.testing.LeakCheck;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.tool.execution.ToolExecutionException;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.json.JsonMapper;

/**
 * The example application, started and closed per test against real servers over stdio (the pinned reference server,
 * the tasks fixture): the scripted model's tool call answered through loom-mcp, a task-backed tool, a call
 * interrupted mid-way (the cancel seen on the wire), a server down at startup, a server killed mid-run. Each test
 * checks that the start launched no server, and that after the context closes no {@code mcp-} thread and no child
 * process is left.
 */
class ChatApplicationTest {

    private static final Path NODE_DIR = Path.of(System.getProperty("loommcp.node.dir", "../../test-servers"))
            .toAbsolutePath().normalize();

    /** Starts the app with extra properties, runs the body, closes it and checks nothing is left. */
    private static void withApp(List<String> properties, Consumer<ConfigurableApplicationContext> body) {
        LeakCheck.Snapshot before = LeakCheck.snapshot();
        List<String> args = new ArrayList<>(List.of("--loommcp.node.dir=" + NODE_DIR, "--spring.main.banner-mode=off"));
        properties.forEach(p -> args.add("--" + p));
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(ChatApplication.class)
                .run(args.toArray(String[]::new))) {
            McpServers servers = app.getBean(McpServers.class);
            assertThat(servers.statuses()).as("the start launched no server").extracting(ServerStatus::state)
                    .containsOnly(ServerState.IDLE);
            assertThat(LeakCheck.descendants()).isEmpty();
            body.accept(app);
        }
        before.assertNoLeaks();
    }

    private static String ask(ConfigurableApplicationContext app, String question) {
        return app.getBean(ChatClient.class).prompt().user(question).call().content();
    }

    @Test
    void theModelsToolCallIsAnsweredByTheReferenceServerAndHealthTurnsReady() {
        withApp(List.of(), app -> {
            assertThat(ask(app, "say hi")).isEqualTo("The server said Echo: hi");
            var health = app.getBean(McpServersHealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).extractingByKey("everything").asString().contains("READY");
        });
    }

    @Test
    void aTaskBackedToolReturnsThroughTheSameCallback() {
        withApp(List.of("loom.mcp.servers.jobs.command=node",
                "loom.mcp.servers.jobs.args[0]=" + NODE_DIR.resolve("tasks-fixture.mjs"),
                "loom.mcp.servers.jobs.args[1]=--stdio"), app -> {
            assertThat(ask(app, "call jobs__slow_compute {\"seconds\":0.3}"))
                    .startsWith("The server said computed after");
        });
    }

    @Test
    void aCallInterruptedMidwayIsCancelledOnTheWire() {
        withApp(List.of(), app -> {
            try (WireTap wire = new WireTap()) {
                CompletableFuture<Throwable> failure = new CompletableFuture<>();
                Thread caller = Thread.ofVirtual().start(() -> {
                    try {
                        ask(app, "call everything__trigger-long-running-operation {\"duration\":30,\"steps\":30}");
                        failure.complete(null);
                    } catch (Throwable e) {
                        failure.complete(e);
                    }
                });
                waitFor(() -> wire.sent().stream().anyMatch(l -> l.contains("trigger-long-running-operation")),
                        "the call was sent");
                caller.interrupt();
                assertThat(failure.get(30, TimeUnit.SECONDS)).isInstanceOf(ToolExecutionException.class)
                        .hasCauseInstanceOf(InterruptedException.class);
                caller.join();
                assertThat(wire.sent()).anyMatch(l -> l.contains("notifications/cancelled"));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
    }

    @Test
    void aServerDownAtStartupLeavesTheAppUpTheToolFailingClearlyAndHealthDegraded() {
        withApp(List.of("loom.mcp.servers.everything.command=/nonexistent/loom-mcp-no-such-server",
                "loom.mcp.restart.max-restarts=0"), app -> {
            // the model is not offered the tool of a server that is down, and says so
            assertThat(ask(app, "say hi")).isEqualTo("I cannot use everything__echo: it is not among my tools []");
            // called anyway (by name), the tool fails with the server's name and why
            assertThatThrownBy(() -> app.getBean(LoomToolCallbacks.class).toolCallback("everything__echo")
                    .call("{\"message\":\"hi\"}"))
                    .isInstanceOf(ToolExecutionException.class)
                    .hasMessageContaining("MCP tool everything__echo failed")
                    .hasMessageContaining("everything")
                    .hasMessageContaining("/nonexistent/loom-mcp-no-such-server");
            var health = app.getBean(McpServersHealthIndicator.class).health();
            // DEGRADED: the server is down, the application is not (the root health stays UP)
            assertThat(health.getStatus()).isEqualTo(McpServersHealthIndicator.DEGRADED);
            assertThat(health.getDetails()).extractingByKey("everything").asString().contains("FAILED");
        });
    }

    @Test
    void aServerKilledMidRunIsRestartedAndTheNextCallWorks() {
        withApp(List.of("loom.mcp.restart.initial-backoff=50ms"), app -> {
            assertThat(ask(app, "say hi")).isEqualTo("The server said Echo: hi");
            List<ProcessHandle> server = LeakCheck.descendants().stream()
                    .filter(p -> p.info().commandLine().orElse("").contains("server-everything")).toList();
            assertThat(server).isNotEmpty();
            server.forEach(ProcessHandle::destroyForcibly);
            McpServers servers = app.getBean(McpServers.class);
            waitFor(() -> servers.server("everything").status().restarts() >= 1, "the server was restarted");
            assertThat(ask(app, "say hi")).isEqualTo("The server said Echo: hi");
            assertThat(servers.server("everything").status().state()).isEqualTo(ServerState.READY);
        });
    }

    @Test
    void theJacksonThisAppRunsOnIsTheOneBootManages() {
        // Boot 4.0.7 manages tools.jackson 3.1.4 (jackson-bom.version); loom-mcp runs on it (see pom.xml to override)
        assertThat(JsonMapper.builder().build().version().toString()).startsWith("3.1.");
        withApp(List.of(), app -> assertThat(ask(app, "say hi")).isEqualTo("The server said Echo: hi"));
    }

    private static void waitFor(java.util.function.BooleanSupplier condition, String what) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what).isLessThan(end);
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }
}
