package dev.loommcp.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.Era;
import dev.loommcp.McpClient;
import dev.loommcp.ProtocolMode;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.RecordingTransport;
import dev.loommcp.testkit.ModernFixture;
import dev.loommcp.transport.stdio.StdioTransport;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * AUTO against hostile 2025-era stdio servers (MCP 2026-07-28 "stdio: backward compatibility"; MODERN-ERA.md C.2
 * items 4-5): one that never answers the probe and one that exits on it. The probe runs in a throw-away process
 * ({@link StdioTransport#probeTransport()}), so the session's own process only ever sees {@code initialize}; the
 * client ends in the legacy era and works; nothing is left running. Each test sets an environment variable of its
 * own so the era-verdict cache (keyed by command line, directory and environment) never answers for it.
 */
@ExtendWith(LeakCheck.class)
class AutoFallbackTest {

    private static void fallsBackToLegacy(List<String> argv, Duration probeTimeout, TestInfo test) throws Exception {
        StdioTransport stdio = StdioTransport.newBuilder(argv)
                .putEnvironment("LOOM_TEST_CASE", test.getDisplayName() + System.nanoTime())
                .build();
        RecordingTransport recording = new RecordingTransport(stdio);
        try (McpClient client = McpClient.newBuilder(recording).protocolMode(ProtocolMode.AUTO)
                .probeTimeout(probeTimeout).requestTimeout(Duration.ofSeconds(30)).build()) {
            client.connect();
            assertThat(client.era()).isEqualTo(Era.LEGACY);
            assertThat(client.protocolVersion()).isEqualTo("2025-11-25");
            assertThat(client.callTool("echo", Map.of("message", "fallback")).text()).isEqualTo("Echo: fallback");
            // the probe went to its own process...
            assertThat(recording.probes()).hasSize(1);
            assertThat(recording.probes().get(0).sent()).first()
                    .matches(m -> m instanceof JsonRpcMessage.Request r && r.method().equals("server/discover"));
            // ...and the session's process never saw it
            assertThat(recording.sent()).first()
                    .matches(m -> m instanceof JsonRpcMessage.Request r && r.method().equals("initialize"));
            assertThat(stdio.stderrTail()).contains("RECEIVED initialize").doesNotContain("server/discover");
        }
    }

    @Test
    void aServerThatNeverAnswersTheProbeIsServedInTheLegacyEra(TestInfo test) throws Exception {
        // silence costs the probe timeout: keep it short
        fallsBackToLegacy(ModernFixture.silentLegacyCommand(), Duration.ofSeconds(1), test);
    }

    @Test
    void aServerThatExitsOnTheProbeIsServedInTheLegacyEra(TestInfo test) throws Exception {
        // a long timeout: the probe process's exit, not the timeout, must be what ends the probe
        fallsBackToLegacy(ModernFixture.exitingLegacyCommand(), FixtureClients.PROBE_TIMEOUT, test);
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
                assertThat(client.era()).isEqualTo(Era.LEGACY);
                assertThat(recording.probes()).as("probes in round " + round).hasSize(round == 0 ? 1 : 0);
            }
        }
    }
}
