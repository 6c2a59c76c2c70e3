package dev.loommcp.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.config.Era;
import dev.loommcp.McpClient;
import dev.loommcp.McpException;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.it.servers.ModernFixture;
import dev.loommcp.it.servers.ReferenceServer;
import dev.loommcp.transport.stdio.StdioTransport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 27 item 1: how many server processes one stdio connect starts, per protocol mode and server era, and that
 * AUTO never runs two of them at once. Each server runs under a small {@code sh} wrapper that appends
 * {@code start <pid>} to a file when it starts and {@code end <pid>} when the server exits, so the test counts starts
 * and sees their order. Each connect sets an environment variable of its own, so the in-memory era-verdict cache
 * (keyed by command line, directory and environment) never answers for it.
 */
@ExtendWith(LeakCheck.class)
class ProcessStartsTest {

    /** The servers: the 2025 reference server, the dual-era modern fixture, and a hostile 2025 one. */
    enum Server {
        /** server-everything: 2025 only; answers server/discover with -32601 and goes on. */
        LEGACY_REFERENCE,
        /** The modern fixture (dual-era). */
        MODERN_FIXTURE,
        /** A 2025 server that exits on any request before initialize. */
        EXITS_ON_PROBE
    }

    @TempDir
    Path dir;

    /**
     * The wrapper: {@code sh -c SCRIPT LOG argv...}; {@code $0} is the log. The server is not exec'd, so the
     * wrapper writes the end line when it exits.
     */
    static List<String> counted(Path log, List<String> argv) {
        List<String> cmd = new ArrayList<>(List.of("sh", "-c",
                "echo \"start $$\" >> \"$0\"; \"$@\"; s=$?; echo \"end $$\" >> \"$0\"; exit $s", log.toString()));
        cmd.addAll(argv);
        return cmd;
    }

    /**
     * A server that allows one instance: {@code sh -c SCRIPT LOCK argv...} takes the lock directory {@code $0}
     * (mkdir is atomic) or exits with "another instance is running", and removes it when the server exits, as
     * servers holding a lock file, a fixed port or a browser profile behave.
     */
    static List<String> singleInstance(Path lock, List<String> argv) {
        List<String> cmd = new ArrayList<>(List.of("sh", "-c",
                "mkdir \"$0\" 2>/dev/null || { echo 'another instance is running' >&2; exit 1; }; "
                        + "trap 'rmdir \"$0\"' EXIT; trap 'exit 143' TERM; \"$@\"", lock.toString()));
        cmd.addAll(argv);
        return cmd;
    }

    static List<String> argv(Server server) {
        return switch (server) {
            case LEGACY_REFERENCE -> ReferenceServer.stdioCommand();
            case MODERN_FIXTURE -> ModernFixture.stdioCommand(ModernFixture.Variant.DUAL_ERA);
            case EXITS_ON_PROBE -> ModernFixture.exitingLegacyCommand();
        };
    }

    static List<String> lines(Path log) throws Exception {
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    static long starts(Path log) throws Exception {
        return lines(log).stream().filter(l -> l.startsWith("start ")).count();
    }

    static Stream<Arguments> matrix() {
        Stream.Builder<Arguments> b = Stream.builder();
        for (ProtocolMode mode : List.of(ProtocolMode.AUTO, ProtocolMode.LEGACY, ProtocolMode.MODERN)) {
            for (Server server : Server.values()) {
                // what each pair costs with this change: one process, except AUTO against a server the probe kills
                long expected = mode == ProtocolMode.AUTO && server == Server.EXITS_ON_PROBE ? 2 : 1;
                b.add(Arguments.of(mode, server, expected));
            }
        }
        return b.build();
    }

    @ParameterizedTest(name = "{0} {1}: {2} process(es)")
    @MethodSource("matrix")
    void processesStartedPerConnect(ProtocolMode mode, Server server, long expected) throws Exception {
        Path log = dir.resolve("starts.log");
        StdioTransport stdio = StdioTransport.newBuilder(counted(log, argv(server)))
                .putEnvironment("LOOM_TEST_CASE", "starts-" + System.nanoTime()).build();
        boolean works = mode != ProtocolMode.MODERN || server == Server.MODERN_FIXTURE;
        try (McpClient client = McpClient.newBuilder(stdio).protocolMode(mode)
                .probeTimeout(FixtureClients.PROBE_TIMEOUT).requestTimeout(Duration.ofSeconds(30)).build()) {
            if (works) {
                client.connect();
                assertThat(client.era().orElseThrow()).isEqualTo(mode == ProtocolMode.AUTO && server == Server.MODERN_FIXTURE
                        || mode == ProtocolMode.MODERN ? Era.MODERN : Era.LEGACY);
                assertThat(client.callTool("echo", Map.of("message", "x")).text()).isEqualTo("Echo: x");
            } else {
                assertThatThrownBy(client::connect).isInstanceOf(McpException.class);
            }
        }
        long started = starts(log);
        System.out.println("PROCESS-STARTS " + mode + " " + server + " = " + started);
        assertThat(started).as(mode + " against " + server).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("legacyServers")
    void aSingleInstanceServerConnectsInAuto(Server server) throws Exception {
        Path log = dir.resolve("single.log");
        StdioTransport stdio = StdioTransport.newBuilder(counted(log, singleInstance(dir.resolve("lock"),
                        argv(server))))
                .putEnvironment("LOOM_TEST_CASE", "single-" + System.nanoTime()).build();
        try (McpClient client = McpClient.newBuilder(stdio).probeTimeout(FixtureClients.PROBE_TIMEOUT)
                .requestTimeout(Duration.ofSeconds(30)).build()) {
            client.connect();
            assertThat(client.era().orElseThrow()).isEqualTo(Era.LEGACY);
            assertThat(client.callTool("echo", Map.of("message", "one")).text()).isEqualTo("Echo: one");
            assertThat(stdio.stderrTail()).doesNotContain("another instance is running");
        }
        assertThat(starts(log)).isEqualTo(server == Server.EXITS_ON_PROBE ? 2 : 1);
    }

    static Stream<Server> legacyServers() {
        return Stream.of(Server.LEGACY_REFERENCE, Server.EXITS_ON_PROBE);
    }

    /**
     * A server that answers the probe (an error, as legacy servers do) and exits right after it: the loss comes
     * during the legacy handshake on the same process, so the session is not closed; the transport is reopened and
     * the fresh process gets {@code initialize} only. The first start answers and exits (it leaves a marker file);
     * later starts run the reference server.
     */
    @Test
    void aServerThatAnswersTheProbeAndThenExitsIsStartedAgain() throws Exception {
        Path log = dir.resolve("answer-exit.log");
        List<String> argv = new ArrayList<>(List.of("sh", "-c",
                "if [ ! -e \"$0\" ]; then : > \"$0\"; read -r line; "
                        + "echo '{\"jsonrpc\":\"2.0\",\"id\":\"loom-era-probe\",\"error\":{\"code\":-32601,"
                        + "\"message\":\"Method not found\"}}'; sleep 0.2; exit 3; fi; exec \"$@\"",
                dir.resolve("marker").toString()));
        argv.addAll(argv(Server.LEGACY_REFERENCE));
        StdioTransport stdio = StdioTransport.newBuilder(counted(log, argv))
                .putEnvironment("LOOM_TEST_CASE", "answer-exit-" + System.nanoTime()).build();
        try (McpClient client = McpClient.newBuilder(stdio).probeTimeout(FixtureClients.PROBE_TIMEOUT)
                .requestTimeout(Duration.ofSeconds(30)).build()) {
            client.connect();
            assertThat(client.era().orElseThrow()).isEqualTo(Era.LEGACY);
            assertThat(client.callTool("echo", Map.of("message", "z")).text()).isEqualTo("Echo: z");
        }
        List<String> events = lines(log);
        assertThat(events).hasSize(4);
        assertThat(events.get(1)).isEqualTo("end " + events.get(0).substring("start ".length()));
    }

    @Test
    void aServerTheProbeKillsIsGoneBeforeTheSecondStarts() throws Exception {
        Path log = dir.resolve("order.log");
        List<String> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
        StdioTransport stdio = StdioTransport.newBuilder(counted(log, argv(Server.EXITS_ON_PROBE)))
                .stderrListener(heard::add)
                .putEnvironment("LOOM_TEST_CASE", "order-" + System.nanoTime()).build();
        try (McpClient client = McpClient.newBuilder(stdio).probeTimeout(FixtureClients.PROBE_TIMEOUT)
                .requestTimeout(Duration.ofSeconds(30)).build()) {
            client.connect();
            assertThat(client.era().orElseThrow()).isEqualTo(Era.LEGACY);
            assertThat(client.callTool("echo", Map.of("message", "y")).text()).isEqualTo("Echo: y");
            List<String> events = lines(log);
            assertThat(events).hasSize(3);
            String first = events.get(0).substring("start ".length());
            assertThat(events.get(1)).as("the first process ended before the second started: " + events)
                    .isEqualTo("end " + first);
            assertThat(events.get(2)).startsWith("start ").isNotEqualTo("start " + first);
            // the stderr tail says which process wrote what
            assertThat(stdio.stderrTail()).contains("[process 1, pid " + first + "]")
                    .contains("exiting").contains("RECEIVED initialize");
            // a listener (the CLI's tail) gets a line between the two processes' lines
            assertThat(heard).containsSubsequence("RECEIVED server/discover",
                    "[process 1, pid " + first + "] ended with exit code 3; the lines of process 2 follow",
                    "RECEIVED initialize");
        }
    }
}
