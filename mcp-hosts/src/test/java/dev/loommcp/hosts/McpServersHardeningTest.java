package dev.loommcp.hosts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import dev.loommcp.McpTransportException;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.schema.Tool;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.ScriptedServerTransport;
import dev.loommcp.testkit.CrashFixture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import dev.loommcp.McpClient;

/**
 * What a new user's break test found in the registry: a flood of {@code tools/list_changed} is coalesced, a
 * listener may close the registry from the start thread of a failed server, tool names a model cannot take are left
 * out, a server that failed says so at once (not READY, no tool count) and may keep its stderr out of what the
 * registry reports, and a secret that a reference put in a URL's path shows nowhere.
 */
@ExtendWith(LeakCheck.class)
class McpServersHardeningTest {

    static {
        // the tests are patched into dev.loommcp.hosts, which does not read java.logging (LogRecorder needs it)
        McpServersHardeningTest.class.getModule()
                .addReads(ModuleLayer.boot().findModule("java.logging").orElseThrow());
    }

    private static final String SECRET = "hunter2-s3cr3t";
    private static final BiConsumer<ServerConfig, McpClient.Builder> LEGACY =
            (config, b) -> b.protocolMode(ProtocolMode.LEGACY);

    private static Map<String, Object> toolList(String... names) {
        return Map.of("tools", Arrays.stream(names)
                .map(n -> Map.<String, Object>of("name", n, "inputSchema", Map.of("type", "object"))).toList());
    }

    private static McpServers.Builder scripted(ScriptedServerTransport transport) {
        return McpServers.newBuilder().closeTimeout(Duration.ofSeconds(30)).add(StdioServerConfig.of("alpha",
                "never-run")).transports(c -> transport);
    }

    /** The exception's text with every cause's, for "shows nowhere". */
    private static String allText(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable x = t; x != null; x = x.getCause() == x ? null : x.getCause()) {
            sb.append(x).append(" | ");
            for (Throwable s : x.getSuppressed()) {
                sb.append(s).append(" | ");
            }
        }
        return sb.toString();
    }

    @Test
    void aFloodOfToolsListChangedIsCoalescedIntoAFewListings() throws Exception {
        // each listing after the first waits until the whole flood is sent: before the fix every notification had a
        // re-list of its own (2000 notifications, 2001 tools/list) and the listener heard each
        AtomicInteger lists = new AtomicInteger();
        CountDownLatch flooded = new CountDownLatch(1);
        ScriptedServerTransport alpha = ScriptedServerTransport.create().on("tools/list", r -> {
            int n = lists.incrementAndGet();
            if (n > 1) {
                flooded.await(30, TimeUnit.SECONDS);
            }
            return toolList("echo", "v" + n);
        });
        List<String> changed = new CopyOnWriteArrayList<>();
        try (McpServers servers = scripted(alpha).listener(Listeners.tools(changed::add)).build()) {
            servers.startAll();
            HostedServer server = servers.server("alpha");
            for (int i = 0; i < 2000; i++) {
                alpha.notifyClient("notifications/tools/list_changed", null);
            }
            flooded.countDown();
            await().atMost(Duration.ofSeconds(20)).until(() -> server.workers().isEmpty() && lists.get() >= 2
                    && server.listedTools().getLast().name().equals("v" + lists.get()));
            // the start's listing, the one in flight, the one pending (and, as the notifications reach the client
            // while the first re-lists run, a few more at most)
            assertThat(lists.get()).isBetween(2, 10);
            // told once per completed re-list
            assertThat(changed).hasSizeBetween(1, lists.get() - 1).containsOnly("alpha");
            assertThat(servers.statuses().getFirst().toolCount()).isEqualTo(2);
        }
    }

    @Test
    void aReListIsToldOnceEvenWhenItFindsTheSameTools() throws Exception {
        AtomicInteger lists = new AtomicInteger();
        ScriptedServerTransport alpha = ScriptedServerTransport.create().on("tools/list", r -> {
            lists.incrementAndGet();
            return toolList("echo");
        });
        List<String> changed = new CopyOnWriteArrayList<>();
        try (McpServers servers = scripted(alpha).listener(Listeners.tools(changed::add)).build()) {
            servers.startAll();
            alpha.notifyClient("notifications/tools/list_changed", null);
            await().atMost(Duration.ofSeconds(10)).until(() -> lists.get() == 2
                    && servers.server("alpha").workers().isEmpty());
            // the server said its list changed: the host hears of the one completed re-list (and decides itself)
            await().atMost(Duration.ofSeconds(10)).until(() -> changed.size() == 1);
            assertThat(changed).containsExactly("alpha");
        }
    }

    @Test
    void aListenerThatClosesTheRegistryWhenAServerFailsDoesNotWaitForItsOwnThread() throws Exception {
        // alpha fails its start (its retry is then pending), beta never finishes connecting; the listener closes
        // the registry on alpha's start thread: close() must not wait out its timeout for that very thread
        ScriptedServerTransport alpha = ScriptedServerTransport.create().on("initialize", r -> {
            throw new IllegalStateException("database not up yet");
        });
        ScriptedServerTransport beta = ScriptedServerTransport.create().hold("initialize");
        AtomicReference<McpServers> registry = new AtomicReference<>();
        CountDownLatch closed = new CountDownLatch(1);
        List<ServerStateChange> heard = new CopyOnWriteArrayList<>();
        McpServers servers = McpServers.newBuilder().closeTimeout(Duration.ofSeconds(60))
                .add(StdioServerConfig.of("alpha", "never-run")).add(StdioServerConfig.of("beta", "never-run"))
                .transports(c -> c.name().equals("alpha") ? alpha : beta)
                .listener(Listeners.states(change -> {
                    heard.add(change);
                    if (change.server().equals("alpha") && change.state() == ServerState.FAILED) {
                        registry.get().close();
                        closed.countDown();
                    }
                })).build();
        registry.set(servers);
        try {
            Thread starter = Thread.ofVirtual().start(() -> {
                try {
                    servers.startAll();
                } catch (Exception e) {
                    // closed under it
                }
            });
            assertThat(closed.await(30, TimeUnit.SECONDS)).as("close() from the listener returned").isTrue();
            starter.join(Duration.ofSeconds(30));
            assertThat(starter.isAlive()).isFalse();
            assertThat(servers.statuses()).extracting(ServerStatus::state)
                    .containsExactly(ServerState.CLOSED, ServerState.CLOSED);
        } finally {
            servers.close();
        }
    }

    @Test
    void toolNamesAModelCannotTakeAreLeftOutWithOneWarning() throws Exception {
        ScriptedServerTransport alpha = ScriptedServerTransport.create().on("tools/list", r -> Map.of("tools",
                List.of(Map.of("name", "echo", "description", "first", "inputSchema", Map.of("type", "object")),
                        Map.of("name", "echo", "description", "second", "inputSchema", Map.of("type", "object")),
                        Map.of("name", "", "inputSchema", Map.of("type", "object")),
                        Map.of("name", "line\nbreak", "inputSchema", Map.of("type", "object")),
                        Map.of("name", "nul\u0000", "inputSchema", Map.of("type", "object")),
                        Map.of("name", "ok", "inputSchema", Map.of("type", "object")))));
        try (LogRecorder log = new LogRecorder();
             McpServers servers = scripted(alpha).build()) {
            servers.startAll();
            // before: alpha__echo twice, an empty alpha__ and alpha__line_break went to the model
            assertThat(servers.tools()).extracting(HostedTool::name).containsExactly("alpha__echo", "alpha__ok");
            assertThat(servers.tools().getFirst().tool().description()).isEqualTo("first");
            assertThat(servers.server("alpha").listedTools()).extracting(Tool::name).containsExactly("echo", "ok");
            assertThat(servers.statuses().getFirst().toolCount()).isEqualTo(2);
            assertThat(log.at(Level.WARNING)).containsExactly("WARNING MCP server 'alpha' listed tools the registry "
                    + "leaves out: 1 without a name, 2 with a control character in the name, 1 listed again under a "
                    + "name given before (the first is kept)");
        }
    }

    @Test
    void aFailedServerReportsNoToolCount() throws Exception {
        ScriptedServerTransport alpha = ScriptedServerTransport.create().on("tools/list", r -> toolList("echo"));
        try (McpServers servers = scripted(alpha).restartPolicy(RestartPolicy.NEVER).build()) {
            assertThat(servers.startAll().getFirst().toolCount()).isEqualTo(1);
            alpha.lose(new McpTransportException("the server went away"));
            await().atMost(Duration.ofSeconds(10)).until(() -> servers.server("alpha").state() == ServerState.FAILED);
            // it kept reporting its old count
            assertThat(servers.statuses().getFirst().toolCount()).isEqualTo(-1);
            assertThat(servers.tools()).isEmpty();
        }
    }

    private static StdioServerConfig dies() {
        return StdioServerConfig.of("db", CrashFixture.stdioCommand(0));
    }

    @Test
    void aServerThatDiesUnderACallIsNotReadyWhenTheCallFailsAndItsStderrShowsByDefault() throws Exception {
        try (McpServers servers = McpServers.newBuilder().add(dies()).clientCustomizer(LEGACY)
                .restartPolicy(RestartPolicy.NEVER).build()) {
            servers.startAll();
            Throwable failure = catchThrowable(() -> servers.server("db").callTool("die",
                    Map.of("stderr", "SECRET=" + SECRET)));
            assertThat(failure).isNotNull();
            // right after the failure (before the fix it still said READY, with no error, for a while)
            ServerStatus status = servers.server("db").status();
            assertThat(status.state()).isEqualTo(ServerState.FAILED);
            assertThat(status.toolCount()).isEqualTo(-1);
            assertThat(status.lastError()).contains("exited with code 3").contains(SECRET);
            assertThat(status.lastExit().stderrTail()).contains(SECRET);
        }
    }

    @Test
    void withStderrInStatusOffAServersStderrShowsNowhere() throws Exception {
        List<ServerStateChange> heard = new CopyOnWriteArrayList<>();
        List<String> shown = new ArrayList<>();
        try (LogRecorder log = new LogRecorder()) {
            try (McpServers servers = McpServers.newBuilder().add(dies()).clientCustomizer(LEGACY)
                    .restartPolicy(RestartPolicy.NEVER).stderrInStatus(false).listener(Listeners.states(heard::add)).build()) {
                servers.startAll();
                Throwable failure = catchThrowable(() -> servers.server("db").callTool("die",
                        Map.of("stderr", "SECRET=" + SECRET)));
                assertThat(failure).isNotNull();
                shown.add(allText(failure));
                ServerStatus status = servers.server("db").status();
                assertThat(status.state()).isEqualTo(ServerState.FAILED);
                assertThat(status.lastError()).contains("exited with code 3").contains("<withheld>");
                assertThat(status.lastExit().exitCode()).hasValue(3);
                assertThat(status.lastExit().stderrTail()).isEmpty();
                shown.add(status.toString());
                Throwable later = catchThrowable(() -> servers.callTool("db__echo", Map.of("message", "x")));
                assertThat(later).isInstanceOf(McpServerUnavailableException.class);
                shown.add(allText(later));
                shown.add(servers.toString());
            }
            heard.forEach(c -> shown.add(c + " " + (c.cause() == null ? "" : allText(c.cause()))));
            assertThat(heard).extracting(ServerStateChange::state).contains(ServerState.FAILED);
            assertThat(log.at(Level.WARNING)).isNotEmpty();
            shown.addAll(log.at(Level.SEVERE));
            shown.addAll(log.at(Level.WARNING));
            shown.addAll(log.at(Level.INFO));
        }
        assertThat(shown).noneMatch(s -> s.contains(SECRET));
    }

    @Test
    void aSecretThatAReferencePutsInTheUrlPathShowsNowhere() throws Exception {
        // nothing listens on port 1: the start fails, and every report of it is checked
        List<ServerConfig> configs = McpServersFile.parse("""
                {"mcpServers": {"api": {"url": "http://127.0.0.1:1/${TOKEN}/mcp"},
                                "old": {"type": "sse", "url": "http://127.0.0.1:1/sse/${TOKEN}"}}}""",
                "mcp.json", Map.of("TOKEN", SECRET)::get);
        List<String> shown = new ArrayList<>();
        List<ServerStateChange> heard = new CopyOnWriteArrayList<>();
        try (LogRecorder log = new LogRecorder()) {
            try (McpServers servers = McpServers.newBuilder().addAll(configs).restartPolicy(RestartPolicy.NEVER)
                    .startupTimeout(Duration.ofSeconds(10)).listener(Listeners.states(heard::add)).build()) {
                List<ServerStatus> statuses = servers.startAll();
                assertThat(statuses).extracting(ServerStatus::state).containsOnly(ServerState.FAILED);
                statuses.forEach(s -> shown.add(s.toString()));
                for (String name : List.of("api", "old")) {
                    shown.add(servers.server(name).toString());
                    shown.add(servers.server(name).config().toString());
                    shown.add(allText(catchThrowable(() -> servers.server(name).callTool("echo", Map.of()))));
                }
                shown.add(allText(catchThrowable(() -> servers.callTool("api__echo", Map.of()))));
                shown.add(servers.toString());
            }
            heard.forEach(c -> shown.add(c + " " + (c.cause() == null ? "" : allText(c.cause()))));
            shown.addAll(log.lines); // every level
        }
        assertThat(shown).isNotEmpty().noneMatch(s -> s.contains(SECRET));
        assertThat(String.join("\n", shown)).contains("http://127.0.0.1:1/${TOKEN}/mcp");
    }
}
