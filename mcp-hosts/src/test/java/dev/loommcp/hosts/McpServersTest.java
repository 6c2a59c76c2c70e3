package dev.loommcp.hosts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.loommcp.McpClosedException;
import dev.loommcp.McpToolCaller;
import dev.loommcp.RequestOptions;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.TextContent;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testkit.CrashFixture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.Future;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The registry against real child processes (the crash fixture, {@code test-servers/crash-fixture.cjs}): lazy and
 * eager starts, namespaced tools and routing, restarts with backoff, a restart policy that gives up, servers that
 * fail or hang without holding up the others, refresh on {@code list_changed}, concurrent calls, and a bounded close
 * that leaves nothing behind.
 */
@ExtendWith(LeakCheck.class)
class McpServersTest {

    private static final RestartPolicy FAST = new RestartPolicy(3, Duration.ofMillis(50), Duration.ofMillis(200),
            Duration.ofMinutes(10));

    private static StdioServerConfig crashy(String name, int crashAfter) {
        return StdioServerConfig.of(name, CrashFixture.stdioCommand(crashAfter));
    }

    private static String text(CallToolResult r) {
        return ((TextContent) r.content().getFirst()).text();
    }

    @Test
    void lazyRegistryStartsOnFirstUseListsNamespacedToolsAndRoutesCalls() throws Exception {
        Changes changes = new Changes();
        try (McpServers servers = McpServers.newBuilder().add(crashy("alpha", 0)).add(crashy("beta", 0))
                .listener(changes).build()) {
            assertThat(servers.statuses()).extracting(ServerStatus::state)
                    .containsExactly(ServerState.IDLE, ServerState.IDLE);

            assertThat(servers.callTool("beta__echo", Map.of("message", "hi"))).extracting(McpServersTest::text)
                    .isEqualTo("Echo: hi");
            assertThat(servers.server("alpha").state()).isEqualTo(ServerState.IDLE); // only beta was needed

            List<HostedTool> tools = servers.tools();
            assertThat(tools).extracting(HostedTool::name).containsExactly("alpha__echo", "alpha__calls",
                    "alpha__grow", "beta__echo", "beta__calls", "beta__grow");
            assertThat(tools.getFirst().server()).isEqualTo("alpha");
            assertThat(tools.getFirst().tool().name()).isEqualTo("echo");
            assertThat(text(servers.callTool("alpha__calls", Map.of()))).isEqualTo("calls: 1");
            ServerStatus alpha = servers.statuses().getFirst();
            assertThat(alpha.transport()).isEqualTo("stdio");
            assertThat(alpha.toolCount()).isEqualTo(3);
            assertThat(alpha.era()).isNotNull();
            changes.await("beta", ServerState.READY); // heard after the server's lock is released
            assertThat(changes.statesOf("beta")).containsExactly(ServerState.CONNECTING, ServerState.READY);

            McpToolCaller beta = servers.server("beta");
            assertThat(beta.serverName()).isEqualTo("beta");
            assertThat(text(beta.callTool("echo", Map.of("message", "direct")))).isEqualTo("Echo: direct");
        }
        changes.await("alpha", ServerState.CLOSED);
        assertThat(changes.statesOf("alpha")).endsWith(ServerState.CLOSED);
    }

    /**
     * Issue 27 item 1: a server that allows one instance (it takes a lock directory, or exits with "another
     * instance is running") starts and serves in the default protocol mode: AUTO's probe runs on the server's own
     * process, so no second process ever runs beside it (before, the throw-away probe process still held the lock
     * when the real one started, and the server was marked failed). Each start appends a line to a file.
     */
    @Test
    void aServerThatAllowsOneInstanceStartsInTheDefaultMode(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path lock = dir.resolve("lock");
        java.nio.file.Path starts = dir.resolve("starts.log");
        List<String> argv = new ArrayList<>(List.of("sh", "-c",
                "echo start >> \"$1\"; mkdir \"$0\" 2>/dev/null || { echo 'another instance is running' >&2; exit 1; }; "
                        + "trap 'rmdir \"$0\"' EXIT; trap 'exit 143' TERM; shift; \"$@\"", lock.toString(),
                starts.toString()));
        argv.addAll(CrashFixture.stdioCommand(0));
        Changes changes = new Changes();
        try (McpServers servers = McpServers.newBuilder().add(StdioServerConfig.of("solo", argv))
                .listener(changes).build()) {
            assertThat(text(servers.callTool("solo__echo", Map.of("message", "one")))).isEqualTo("Echo: one");
            assertThat(servers.server("solo").state()).isEqualTo(ServerState.READY);
            // the listener hears READY after the server's lock is released, maybe after the call returned: wait for it
            changes.await("solo", ServerState.READY);
            assertThat(changes.statesOf("solo")).containsExactly(ServerState.CONNECTING, ServerState.READY);
        }
        assertThat(java.nio.file.Files.readAllLines(starts)).hasSize(1);
    }

    @Test
    void unknownNamesFailClearlyBeforeAnythingIsSent() throws Exception {
        try (McpServers servers = McpServers.newBuilder().add(crashy("alpha", 0)).build()) {
            assertThatThrownBy(() -> servers.callTool("echo", Map.of()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("unknown tool 'echo': expected SERVER__TOOL (the servers are: alpha)");
            assertThatThrownBy(() -> servers.callTool("gamma__echo", Map.of()))
                    .hasMessage("unknown tool 'gamma__echo': there is no server 'gamma' (the servers are: alpha)");
            assertThatThrownBy(() -> servers.callTool("alpha__nope", Map.of()))
                    .hasMessage("unknown tool 'alpha__nope': server 'alpha' does not list a tool 'nope' (it lists 3)");
            assertThatThrownBy(() -> servers.server("zeta")).hasMessageContaining("no MCP server named 'zeta'");
            assertThat(text(servers.callTool("alpha__calls", Map.of()))).isEqualTo("calls: 1"); // nothing else sent
        }
    }

    @Test
    void aCrashedServerIsRestartedWithBackoffAndServesAgain() throws Exception {
        Changes changes = new Changes();
        try (McpServers servers = McpServers.newBuilder().add(crashy("crashy", 2)).restartPolicy(FAST)
                .listener(changes).build()) {
            assertThat(text(servers.callTool("crashy__calls", Map.of()))).isEqualTo("calls: 1");
            assertThat(text(servers.callTool("crashy__calls", Map.of()))).isEqualTo("calls: 2"); // then it exits
            ServerStateChange restarting = changes.await("crashy", ServerState.RESTARTING);
            assertThat(restarting.cause()).isNotNull();
            assertThat(restarting.restarts()).isEqualTo(1);
            changes.await("crashy", ServerState.READY);
            // a new process: its count starts again
            assertThat(text(servers.callTool("crashy__calls", Map.of()))).isEqualTo("calls: 1");
            assertThat(servers.server("crashy").status().restarts()).isEqualTo(1);
            assertThat(servers.server("crashy").status().lastError()).isNotNull();
        }
        changes.await("crashy", ServerState.CLOSED);
        assertThat(changes.statesOf("crashy")).containsExactly(ServerState.CONNECTING, ServerState.READY,
                ServerState.RESTARTING, ServerState.READY, ServerState.CLOSED);
    }

    @Test
    void aCallThatFindsTheCrashedClientClosedWaitsForTheRestartInsteadOfFailing() throws Exception {
        // a fresh user saw calls made right after a crash fail with "the client is closed" while the server still
        // showed READY (its transport-closed event had not arrived yet); such a call waits for the restart
        try (McpServers servers = McpServers.newBuilder().add(crashy("crashy", 1)).restartPolicy(FAST).build()) {
            dev.loommcp.McpClient first = servers.server("crashy").client(RequestOptions.DEFAULT);
            assertThat(text(servers.callTool("crashy__calls", Map.of()))).isEqualTo("calls: 1"); // then it exits
            await().atMost(Duration.ofSeconds(30)).until(first::isClosed);
            for (int i = 1; i <= 3; i++) {
                // the first of these restarts it; each new process counts from 1 and exits after its call
                assertThat(text(servers.callTool("crashy__calls", Map.of()))).isEqualTo("calls: 1");
                dev.loommcp.McpClient c = servers.server("crashy").client(RequestOptions.DEFAULT);
                await().atMost(Duration.ofSeconds(30)).until(c::isClosed);
            }
        }
    }

    @Test
    void theRestartPolicyGivesUpAfterItsConsecutiveRestartsAndCallsFailAtOnce() throws Exception {
        Changes changes = new Changes();
        RestartPolicy once = new RestartPolicy(1, Duration.ofMillis(20), Duration.ofMillis(20), Duration.ofMinutes(10));
        try (McpServers servers = McpServers.newBuilder().add(crashy("crashy", 1)).restartPolicy(once)
                .listener(changes).build()) {
            servers.callTool("crashy__calls", Map.of()); // answered, then it exits
            changes.await("crashy", ServerState.RESTARTING);
            changes.await("crashy", ServerState.READY);
            servers.callTool("crashy__calls", Map.of()); // exits again: the one restart is used up
            ServerStateChange failed = changes.await("crashy", ServerState.FAILED);
            assertThat(failed.cause()).isNotNull();
            assertThatThrownBy(() -> servers.callTool("crashy__calls", Map.of()))
                    .isInstanceOf(McpServerUnavailableException.class)
                    .hasMessageStartingWith("MCP server 'crashy' is not available: it failed")
                    .extracting(e -> ((McpServerUnavailableException) e).server()).isEqualTo("crashy");
            assertThat(servers.tools()).isEmpty();
        }
    }

    @Test
    void aServerThatDiesRightAfterEachStartEndsFailedAndIsNeverLeftReadyWithADeadClient() throws Exception {
        Changes changes = new Changes();
        RestartPolicy twice = new RestartPolicy(2, Duration.ofMillis(20), Duration.ofMillis(40),
                Duration.ofMinutes(10));
        try (McpServers servers = McpServers.newBuilder()
                .add(StdioServerConfig.of("dies", CrashFixture.exitAfterListCommand()))
                .restartPolicy(twice).listener(changes).build()) {
            servers.server("dies").startAsync();
            // whether a start fails before it is ready or the ready server is found dead at once, the restarts run
            // out and the server ends failed
            ServerStateChange failed = changes.await("dies", ServerState.FAILED);
            assertThat(failed.cause()).isNotNull();
            assertThat(servers.server("dies").state()).isEqualTo(ServerState.FAILED);
            assertThatThrownBy(() -> servers.callTool("dies__echo", Map.of()))
                    .isInstanceOf(McpServerUnavailableException.class);
        }
    }

    @Test
    void serversThatFailOrHangNeverHoldUpTheOthers() throws Exception {
        Changes changes = new Changes();
        // "hangs" starts but never answers the handshake; "missing" cannot even start
        try (McpServers servers = McpServers.newBuilder()
                .add(StdioServerConfig.of("hangs", "sleep", "300"))
                .add(StdioServerConfig.of("missing", "/nonexistent/loom-mcp-no-such-program"))
                .add(crashy("good", 0))
                .startupTimeout(Duration.ofSeconds(3))
                .listener(changes).build()) {
            // the good server is served while the hanging one is still connecting
            assertThat(text(servers.callTool("good__echo", Map.of("message", "x")))).isEqualTo("Echo: x");
            servers.startAll();
            // the hanging server fails at its startup timeout; since AUTO probes on the server's own process (issue
            // 27), its connect ends only once that process is stopped (the stdin grace), as in the LEGACY mode
            changes.await("hangs", ServerState.FAILED);
            List<ServerStatus> statuses = servers.statuses();
            assertThat(statuses).extracting(ServerStatus::state)
                    .containsExactly(ServerState.FAILED, ServerState.FAILED, ServerState.READY);
            assertThat(statuses.get(1).lastError()).contains("loom-mcp-no-such-program");
            assertThat(servers.tools()).extracting(HostedTool::server).containsOnly("good");
            assertThatThrownBy(() -> servers.server("missing").callTool("echo", Map.of()))
                    .isInstanceOf(McpServerUnavailableException.class);
        }
    }

    @Test
    void toolListIsRefreshedOnListChanged() throws Exception {
        List<String> refreshed = new CopyOnWriteArrayList<>();
        try (McpServers servers = McpServers.newBuilder().add(crashy("s", 0)).separator(".")
                .listener(Listeners.tools(refreshed::add)).build()) {
            // "." is no character of a name a model accepts: the full names keep it, the names for a model not
            assertThat(servers.tools()).extracting(HostedTool::fullName).containsExactly("s.echo", "s.calls",
                    "s.grow");
            assertThat(servers.tools()).extracting(HostedTool::name).containsExactly("s_echo", "s_calls", "s_grow");
            assertThat(text(servers.callTool("s.grow", Map.of()))).isEqualTo("grown");
            await().atMost(Duration.ofSeconds(30)).until(() -> refreshed.contains("s"));
            assertThat(servers.tools()).extracting(HostedTool::fullName).contains("s.extra");
            assertThat(text(servers.callTool("s.extra", Map.of()))).isEqualTo("extra");
        }
    }

    @Test
    void manyVirtualThreadsCallAtOnceWhileTheServerStarts() throws Exception {
        try (McpServers servers = McpServers.newBuilder().add(crashy("s", 0)).build();
             ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<String>> results = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                String m = "m" + i;
                results.add(pool.submit(() -> text(servers.callTool("s__echo", Map.of("message", m),
                        RequestOptions.ofTimeout(Duration.ofSeconds(60))))));
            }
            for (int i = 0; i < 50; i++) {
                assertThat(results.get(i).get(90, TimeUnit.SECONDS)).isEqualTo("Echo: m" + i);
            }
            assertThat(servers.server("s").status().restarts()).isZero();
        }
    }

    @Test
    void closeEndsEveryServerAndLaterCallsFail() throws Exception {
        Changes changes = new Changes();
        McpServers servers = McpServers.newBuilder().add(crashy("a", 0)).add(crashy("b", 0)).listener(changes)
                .build();
        servers.startAll();
        servers.close();
        servers.close(); // idempotent
        assertThat(servers.statuses()).extracting(ServerStatus::state).containsOnly(ServerState.CLOSED);
        assertThatThrownBy(() -> servers.callTool("a__echo", Map.of())).isInstanceOf(McpClosedException.class);
        assertThatThrownBy(() -> servers.server("b").callTool("echo", Map.of()))
                .isInstanceOf(McpClosedException.class);
        assertThatThrownBy(servers::tools).isInstanceOf(McpClosedException.class);
        changes.await("a", ServerState.CLOSED);
        assertThat(changes.statesOf("a")).endsWith(ServerState.READY, ServerState.CLOSED);
        // LeakCheck: no process, no mcp- thread left
    }

    @Test
    void closeDuringARestartBackoffEndsItAtOnce() throws Exception {
        Changes changes = new Changes();
        RestartPolicy slow = new RestartPolicy(3, Duration.ofMinutes(5), Duration.ofMinutes(5), Duration.ofMinutes(10));
        McpServers servers = McpServers.newBuilder().add(crashy("c", 1)).restartPolicy(slow).listener(changes)
                .build();
        servers.callTool("c__calls", Map.of());
        changes.await("c", ServerState.RESTARTING);
        // a call waits for the restart within its own deadline and token, and says what it waited for
        assertThatThrownBy(() -> servers.callTool("c__calls", Map.of(),
                RequestOptions.ofTimeout(Duration.ofMillis(200))))
                .isInstanceOf(dev.loommcp.McpTimeoutException.class)
                .hasMessage("MCP server 'c' is not ready in time (it is restarting)");
        dev.loommcp.CancellationToken token = dev.loommcp.CancellationToken.create();
        token.cancel("user gave up");
        assertThatThrownBy(() -> servers.server("c").callTool("calls", Map.of(), RequestOptions.ofToken(token)))
                .isInstanceOf(dev.loommcp.McpCancelledException.class)
                .hasMessageContaining("MCP server 'c'");
        assertThat(servers.server("c").supportsPrompts()).isFalse(); // not ready: nothing to say
        servers.close(); // interrupts the 5-minute backoff
        assertThat(servers.server("c").state()).isEqualTo(ServerState.CLOSED);
        assertThat(servers.server("c").workers()).isEmpty();
    }
}
