package dev.loommcp.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.config.Era;
import dev.loommcp.McpClosedException;
import dev.loommcp.McpSkillServer;
import dev.loommcp.hosts.HostedTool;
import dev.loommcp.hosts.HttpServerConfig;
import dev.loommcp.hosts.McpServers;
import dev.loommcp.hosts.McpServersListener;
import dev.loommcp.hosts.McpServersFile;
import dev.loommcp.hosts.RestartPolicy;
import dev.loommcp.hosts.ServerState;
import dev.loommcp.hosts.ServerStateChange;
import dev.loommcp.hosts.ServerStatus;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.TextContent;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testkit.CrashFixture;
import dev.loommcp.testkit.HttpModernFixture;
import dev.loommcp.testkit.ModernFixture;
import dev.loommcp.testkit.ReferenceServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host registry ({@code mcp-hosts}) with three real servers at once, read from an {@code mcpServers} file:
 * server-everything over stdio, the modern fixture over Streamable HTTP, and the crash fixture, which exits after its
 * second tool call. The registry lists the namespaced tools of all three, calls each, survives the crash with a
 * restart, and leaves no process or thread running after {@code close()}.
 */
@ExtendWith(LeakCheck.class)
class HostsRegistryTest {

    private static String text(CallToolResult r) {
        return ((TextContent) r.content().getFirst()).text();
    }

    private static String json(List<String> argv) {
        return argv.stream().map(a -> "\"" + a.replace("\\", "\\\\").replace("\"", "\\\"") + "\"")
                .collect(Collectors.joining(", ", "[", "]"));
    }

    @Test
    void threeRealServersAtOnceWithACrashAndARestart(@TempDir Path dir) throws Exception {
        BlockingQueue<ServerStateChange> changes = new LinkedBlockingQueue<>();
        BlockingQueue<String> refreshed = new LinkedBlockingQueue<>();
        try (HttpModernFixture http = new HttpModernFixture(ModernFixture.Variant.DUAL_ERA)) {
            List<String> everything = ReferenceServer.stdioCommand();
            List<String> crashy = CrashFixture.stdioCommand(2);
            Path config = dir.resolve("mcp.json");
            Files.writeString(config, """
                    {"mcpServers": {
                      "everything": {"command": "%s", "args": %s},
                      "modern": {"type": "http", "url": "${FIXTURE_URL}", "headers": {"X-Trace": "${TRACE:-t-1}"}},
                      "crashy": {"command": "%s", "args": %s}
                    }}""".formatted(everything.getFirst(), json(everything.subList(1, everything.size())),
                    crashy.getFirst(), json(crashy.subList(1, crashy.size()))));
            Map<String, String> env = Map.of("FIXTURE_URL", http.endpoint().toString());

            Set<Long> before = LeakCheck.descendants().stream().map(ProcessHandle::pid).collect(Collectors.toSet());
            McpServers servers = McpServers.newBuilder()
                    .addAll(McpServersFile.read(config, env::get))
                    .restartPolicy(new RestartPolicy(3, Duration.ofMillis(100), Duration.ofSeconds(1),
                            Duration.ofMinutes(10)))
                    .listener(new McpServersListener() {
                        @Override
                        public void onStateChanged(ServerStateChange change) {
                            changes.add(change);
                        }

                        @Override
                        public void onToolsListChanged(String serverName) {
                            refreshed.add(serverName);
                        }
                    })
                    .build();
            Set<Long> registryProcesses = new HashSet<>();
            try {
                List<ServerStatus> started = servers.startAll();
                assertThat(started).extracting(ServerStatus::state).containsOnly(ServerState.READY);
                assertThat(started).extracting(ServerStatus::transport).containsExactly("stdio", "http", "stdio");
                assertThat(started.get(1).era()).isEqualTo(Era.MODERN);
                assertThat(servers.server("modern").config()).isInstanceOf(HttpServerConfig.class);
                LeakCheck.descendants().stream().map(ProcessHandle::pid).filter(p -> !before.contains(p))
                        .forEach(registryProcesses::add);
                assertThat(registryProcesses).isNotEmpty();

                List<String> names = servers.tools().stream().map(HostedTool::name).toList();
                assertThat(names).contains("everything__echo", "everything__get-sum", "modern__echo",
                        "modern__slow", "crashy__echo", "crashy__calls");
                assertThat(names).doesNotHaveDuplicates();

                assertThat(text(servers.callTool("everything__echo", Map.of("message", "one"))))
                        .isEqualTo("Echo: one");
                assertThat(text(servers.callTool("modern__echo", Map.of("message", "two"))))
                        .isEqualTo("Echo: two");
                assertThat(text(servers.callTool("crashy__calls", Map.of()))).isEqualTo("calls: 1");
                assertThat(text(servers.callTool("crashy__echo", Map.of("message", "three"))))
                        .isEqualTo("Echo: three"); // its second call: answered, then the process exits

                awaitChange(changes, "crashy", ServerState.RESTARTING);
                awaitChange(changes, "crashy", ServerState.READY);
                assertThat(text(servers.callTool("crashy__calls", Map.of()))).isEqualTo("calls: 1"); // new process
                assertThat(servers.server("crashy").status().restarts()).isEqualTo(1);
                // the others were not disturbed
                assertThat(servers.statuses()).extracting(ServerStatus::state).containsOnly(ServerState.READY);
                assertThat(servers.statuses()).filteredOn(s -> !s.name().equals("crashy"))
                        .extracting(ServerStatus::restarts).containsOnly(0);

                // a modern server announces tool changes on the subscription the registry opened: the list is
                // re-read (add-note sends notifications/tools/list_changed)
                assertThat(servers.callTool("modern__add-note", Map.of("text", "hello")).error()).isFalse();
                awaitRefresh(refreshed, "modern"); // (server-everything may announce changes of its own too)

                // the narrow prompts/resources interface of a hosted server
                McpSkillServer skills = servers.server("everything");
                assertThat(skills.supportsPrompts()).isTrue();
                assertThat(skills.listAllPrompts()).isNotEmpty();
                assertThat(servers.server("modern").getPrompt("greeting", Map.of("name", "Ada")).messages())
                        .hasSize(1);
                LeakCheck.descendants().stream().map(ProcessHandle::pid).filter(p -> !before.contains(p))
                        .forEach(registryProcesses::add);
            } finally {
                servers.close();
            }
            assertThat(servers.statuses()).extracting(ServerStatus::state).containsOnly(ServerState.CLOSED);
            List<ProcessHandle> alive = registryProcesses.stream().map(ProcessHandle::of)
                    .flatMap(java.util.Optional::stream).filter(ProcessHandle::isAlive).toList();
            assertThat(alive).as("server processes left running after close()").isEmpty();
            assertThatThrownBy(() -> servers.callTool("everything__echo", Map.of("message", "x")))
                    .isInstanceOf(McpClosedException.class);
        }
    }

    private static void awaitRefresh(BlockingQueue<String> refreshed, String server) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < end) {
            if (server.equals(refreshed.poll(1, TimeUnit.SECONDS))) {
                return;
            }
        }
        throw new AssertionError("the tools of " + server + " were not re-read");
    }

    private static void awaitChange(BlockingQueue<ServerStateChange> changes, String server, ServerState state)
            throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < end) {
            ServerStateChange c = changes.poll(1, TimeUnit.SECONDS);
            if (c != null && c.server().equals(server) && c.state() == state) {
                return;
            }
        }
        throw new AssertionError("server " + server + " did not reach " + state);
    }
}
