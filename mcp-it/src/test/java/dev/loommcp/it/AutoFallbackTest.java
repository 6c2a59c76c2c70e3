package dev.loommcp.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.config.Era;
import dev.loommcp.McpClient;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.RecordingTransport;
import dev.loommcp.it.servers.ModernFixture;
import dev.loommcp.transport.stdio.StdioTransport;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * AUTO against hostile 2025-era stdio servers (MCP 2026-07-28 "stdio: backward compatibility"; MODERN-ERA.md C.2
 * items 4-5): one that never answers the probe and one that exits on it. The probe runs on the session's own process;
 * a silent server then takes {@code initialize} on that same process, and only a server the probe ended is started
 * again ({@link StdioTransport#reopen}), once the first process is gone. The client ends in the legacy era and works;
 * nothing is left running. Each test sets an environment variable of its own so the era-verdict cache (keyed by
 * command line, directory and environment) never answers for it.
 */
@ExtendWith(LeakCheck.class)
class AutoFallbackTest {

    private static boolean isRequest(JsonRpcMessage m, String method) {
        return m instanceof JsonRpcMessage.Request r && r.method().equals(method);
    }

    private static void fallsBackToLegacy(List<String> argv, Duration probeTimeout, boolean probeEndsServer,
                                          TestInfo test) throws Exception {
        StdioTransport stdio = StdioTransport.newBuilder(argv)
                .putEnvironment("LOOM_TEST_CASE", test.getDisplayName() + System.nanoTime())
                .build();
        RecordingTransport recording = new RecordingTransport(stdio);
        try (McpClient client = McpClient.newBuilder(recording).protocolMode(ProtocolMode.AUTO)
                .probeTimeout(probeTimeout).requestTimeout(Duration.ofSeconds(30)).build()) {
            client.connect();
            assertThat(client.era().orElseThrow()).isEqualTo(Era.LEGACY);
            assertThat(client.protocolVersion().orElseThrow()).isEqualTo("2025-11-25");
            assertThat(client.callTool("echo", Map.of("message", "fallback")).text()).isEqualTo("Echo: fallback");
            // the probe went over the session's own transport, then initialize
            assertThat(recording.probes()).isEmpty();
            assertThat(recording.sent()).first().matches(m -> isRequest(m, "server/discover"));
            assertThat(recording.sent().get(1)).matches(m -> isRequest(m, "initialize"));
            // a fresh process only when the probe ended the first one
            assertThat(recording.reopens()).isEqualTo(probeEndsServer ? 1 : 0);
            String tail = stdio.stderrTail();
            assertThat(tail).contains("RECEIVED server/discover", "RECEIVED initialize");
            if (probeEndsServer) {
                // each process's lines under its own label: the probe's first, the session's after it
                assertThat(tail).containsSubsequence("[process 1, pid ", "RECEIVED server/discover", "exiting",
                        "[process 2, pid " + stdio.pid().orElseThrow() + "]", "RECEIVED initialize");
            } else {
                assertThat(tail).doesNotContain("[process ");
            }
        }
    }

    @Test
    void aServerThatNeverAnswersTheProbeIsServedInTheLegacyEra(TestInfo test) throws Exception {
        // silence costs the probe timeout: keep it short
        fallsBackToLegacy(ModernFixture.silentLegacyCommand(), Duration.ofSeconds(1), false, test);
    }

    @Test
    void aServerThatExitsOnTheProbeIsServedInTheLegacyEra(TestInfo test) throws Exception {
        // a long timeout: the probe process's exit, not the timeout, must be what ends the probe
        fallsBackToLegacy(ModernFixture.exitingLegacyCommand(), FixtureClients.PROBE_TIMEOUT, true, test);
    }

    @Test
    void theVerdictIsCachedPerServerConfiguration(TestInfo test) throws Exception {
        List<String> argv = ModernFixture.exitingLegacyCommand();
        String tag = "cache-" + System.nanoTime();
        for (int round = 0; round < 2; round++) {
            RecordingTransport recording = new RecordingTransport(StdioTransport.newBuilder(argv)
                    .putEnvironment("LOOM_TEST_CASE", tag).build());
            try (McpClient client = McpClient.newBuilder(recording).probeTimeout(Duration.ofSeconds(1)).build()) {
                client.connect();
                assertThat(client.era().orElseThrow()).isEqualTo(Era.LEGACY);
                // round 1 knows the verdict: initialize first, on the one process
                String first = round == 0 ? "server/discover" : "initialize";
                assertThat(recording.sent()).first().as("first request in round " + round)
                        .matches(m -> isRequest(m, first));
                assertThat(recording.reopens()).as("reopens in round " + round).isEqualTo(round == 0 ? 1 : 0);
            }
        }
    }
}
