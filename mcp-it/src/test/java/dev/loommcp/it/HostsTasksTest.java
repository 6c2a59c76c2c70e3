package dev.loommcp.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.RequestOptions;
import dev.loommcp.hosts.McpServers;
import dev.loommcp.hosts.RestartPolicy;
import dev.loommcp.hosts.ServerState;
import dev.loommcp.hosts.ServerStatus;
import dev.loommcp.hosts.StdioServerConfig;
import dev.loommcp.schema.TextContent;
import dev.loommcp.tasks.McpTasks;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testkit.CrashFixture;
import dev.loommcp.testkit.TasksFixture;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Tasks in the host registry (break test item 2): one {@link McpTasks} per hosted server, installed by the registry's
 * client customizer, survives the server's crash and restart (the restarted client re-installs it once the crashed
 * one has closed); one {@code McpTasks} shared by two live servers is refused for the second with a message that
 * says why. Real processes: the crash fixture (exits after its second call) and the tasks fixture over stdio.
 */
@ExtendWith(LeakCheck.class)
class HostsTasksTest {

    private static StdioServerConfig stdio(String name, List<String> argv) {
        return StdioServerConfig.of(name, argv);
    }

    @Test
    void oneMcpTasksPerServerSurvivesACrashAndARestart() throws Exception {
        Map<String, McpTasks> tasks = new ConcurrentHashMap<>();
        try (McpServers servers = McpServers.newBuilder()
                .add(stdio("crashy", CrashFixture.stdioCommand(2)))
                .add(stdio("jobs", TasksFixture.stdioCommand()))
                .restartPolicy(new RestartPolicy(3, Duration.ofMillis(50), Duration.ofMillis(200),
                        Duration.ofSeconds(60)))
                .clientCustomizer((config, b) -> b.taskSupport(
                        tasks.computeIfAbsent(config.name(), n -> McpTasks.create()).support()))
                .build()) {
            servers.startAll();
            assertThat(servers.statuses()).extracting(ServerStatus::state).containsOnly(ServerState.READY);
            // a task of the tasks fixture, driven through the registry by the jobs server's McpTasks
            assertThat(text(servers.callTool("jobs__slow_compute", Map.of("seconds", 0.2),
                    RequestOptions.ofTimeout(Duration.ofSeconds(60))))).contains("computed after");

            servers.callTool("crashy__calls", Map.of());
            servers.callTool("crashy__echo", Map.of("message", "bye")); // answered, then the process exits
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (servers.server("crashy").status().restarts() < 1 || servers.server("crashy").status().state()
                    != ServerState.READY) {
                assertThat(servers.server("crashy").status().state()).isNotEqualTo(ServerState.FAILED);
                assertThat(System.nanoTime()).as("the crashed server is back").isLessThan(end);
                Thread.sleep(50);
            }
            // the restarted client carries the same McpTasks: the call goes through
            assertThat(text(servers.callTool("crashy__calls", Map.of()))).isEqualTo("calls: 1");
            assertThat(tasks).containsOnlyKeys("crashy", "jobs");
        }
    }

    @Test
    void oneMcpTasksForTwoLiveServersIsRefusedForTheSecondWithTheReason() throws Exception {
        McpTasks shared = McpTasks.create();
        try (McpServers servers = McpServers.newBuilder()
                .add(stdio("a", CrashFixture.stdioCommand(0)))
                .add(stdio("b", CrashFixture.stdioCommand(0)))
                .clientCustomizer((config, b) -> b.taskSupport(shared.support()))
                .build()) {
            servers.startAll();
            List<ServerStatus> failed = servers.statuses().stream()
                    .filter(s -> s.state() == ServerState.FAILED).toList();
            assertThat(failed).hasSize(1);
            assertThat(failed.getFirst().lastError()).contains("still open")
                    .contains("one McpTasks per client");
        }
    }

    private static String text(dev.loommcp.schema.CallToolResult r) {
        return ((TextContent) r.content().getFirst()).text();
    }
}
