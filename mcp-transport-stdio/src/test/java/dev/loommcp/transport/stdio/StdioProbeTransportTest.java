package dev.loommcp.transport.stdio;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.Deadline;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.spi.SendContext;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.OwnedProcesses;
import dev.loommcp.testing.RecordingSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10 (C.2 item 5): the throw-away probe copy ({@link StdioTransport#probeTransport()}) and the era-verdict
 * cache key ({@link StdioTransport#serverKey()}), over real child processes.
 */
@ExtendWith(LeakCheck.class)
@Timeout(120)
class StdioProbeTransportTest {

    @RegisterExtension
    final OwnedProcesses processes = new OwnedProcesses();

    private static final SendContext CTX = SendContext.detached(Deadline.NONE);

    private static StdioTransport probeOf(StdioTransport t) {
        McpTransport probe = t.probeTransport().orElseThrow();
        assertThat(probe).isInstanceOf(StdioTransport.class).isNotSameAs(t);
        return (StdioTransport) probe;
    }

    @Test
    void theProbeIsAnUnopenedCopyWithTheSameLaunchConfiguration(@TempDir Path dir) {
        StdioTransport t = StdioTransport.newBuilder(Children.fakeServer("echo", "--hello"))
                .workingDirectory(dir)
                .putEnvironment("PROBE_TEST", "secret-value")
                .maxMessageBytes(4096)
                .stderrBufferBytes(1024)
                .startupTimeout(Duration.ofSeconds(7))
                .stdinCloseGrace(Duration.ofMillis(300))
                .terminateGrace(Duration.ofMillis(400))
                .killGrace(Duration.ofMillis(500))
                .build();
        StdioTransport probe = probeOf(t);
        assertThat(probe.pid()).isEmpty();
        assertThat(probe.command()).isEqualTo(t.command());
        assertThat(probe.programName()).isEqualTo(t.programName());
        assertThat(probe.workingDirectory()).isEqualTo(t.workingDirectory());
        assertThat(probe.environmentNames()).isEqualTo(t.environmentNames()).contains("PROBE_TEST");
        assertThat(probe.maxMessageBytes()).isEqualTo(4096);
        assertThat(probe.stderrBufferBytes()).isEqualTo(1024);
        assertThat(probe.startupTimeout()).isEqualTo(Duration.ofSeconds(7));
        assertThat(probe.stdinCloseGrace()).isEqualTo(Duration.ofMillis(300));
        assertThat(probe.terminateGrace()).isEqualTo(Duration.ofMillis(400));
        assertThat(probe.killGrace()).isEqualTo(Duration.ofMillis(500));
        assertThat(probe.usesProcessGroup()).isEqualTo(t.usesProcessGroup());
        assertThat(probe.serverKey()).isEqualTo(t.serverKey());
        assertThat(probeOf(t)).as("each call gives a new copy").isNotSameAs(probe);
        // a copy that is never opened holds nothing: closing it is a no-op
        probe.close();
        t.close();
    }

    @Test
    void theProbeRunsItsOwnProcessAndClosingItLeavesTheSessionProcessAlone() throws Exception {
        StdioTransport t = StdioTransport.newBuilder(Children.fakeServer("echo")).build();
        StdioTransport probe = probeOf(t);
        RecordingSink sink = new RecordingSink();
        RecordingSink probeSink = new RecordingSink();
        try {
            t.open(TransportContext.of(sink, Deadline.NONE));
            probe.open(TransportContext.of(probeSink, Deadline.NONE));
            long pid = t.pid().orElseThrow();
            long probePid = probe.pid().orElseThrow();
            assertThat(probePid).isNotEqualTo(pid);

            probe.send(Children.request(1, "server/discover", Map.of()), CTX);
            assertThat(map(probeSink.responseTo(RequestId.of(1)).result())).containsEntry("method", "server/discover");
            probe.close();
            assertThat(Children.gone(probePid)).as("probe process gone after close").isTrue();
            assertThat(probeSink.closedCalls()).isZero();

            // the session's process never saw the probe and still answers
            t.send(Children.request(1, "initialize", Map.of()), CTX);
            assertThat(map(sink.responseTo(RequestId.of(1)).result())).containsEntry("method", "initialize");
            assertThat(sink.messages()).hasSize(1);
            assertThat(Children.gone(pid)).isFalse();
        } finally {
            probe.close();
            t.close();
        }
        assertThat(sink.closedCalls()).isZero();
    }

    @Test
    void aProbeOpenedAfterTheOriginalClosedStillLaunchesItsOwnServer() throws Exception {
        StdioTransport t = StdioTransport.newBuilder(Children.fakeServer("echo")).build();
        StdioTransport probe = probeOf(t);
        t.close(); // never opened, now closed: the copy is independent of it
        RecordingSink probeSink = new RecordingSink();
        try {
            probe.open(TransportContext.of(probeSink, Deadline.NONE));
            probe.send(Children.request(7, "server/discover", Map.of()), CTX);
            assertThat(map(probeSink.responseTo(RequestId.of(7)).result())).containsEntry("method", "server/discover");
        } finally {
            probe.close();
        }
        assertThat(Children.gone(probe.pid().orElseThrow())).isTrue();
    }

    @Test
    void closingTheProbeEndsItsWholeTreeEvenAServerThatNeverReadsStdin() throws Exception {
        StderrLines lines = new StderrLines();
        StdioTransport t = StdioTransport.newBuilder("sh", Children.script("hold-tree.sh").toString())
                .stderrListener(lines)
                .stdinCloseGrace(Duration.ofMillis(200))
                .terminateGrace(Duration.ofMillis(500))
                .build();
        StdioTransport probe = probeOf(t);
        RecordingSink probeSink = new RecordingSink();
        long grandchild = -1;
        try {
            probe.open(TransportContext.of(probeSink, Deadline.NONE));
            grandchild = lines.awaitNumber("GRANDCHILD");
            assertThat(probeSink.next()).isInstanceOf(JsonRpcMessage.Notification.class);
            probe.close();
            assertThat(Children.gone(probe.pid().orElseThrow())).as("probe child gone").isTrue();
            assertThat(Children.gone(grandchild)).as("probe grandchild gone").isTrue();
            assertThat(t.pid()).as("the original was never launched").isEmpty();
        } finally {
            probe.close();
            t.close();
            if (grandchild > 0) {
                processes.own(grandchild);
            }
        }
    }

    @Test
    void serverKeyIsEqualForTheSameConfigurationAndDiffersForAnyChange(@TempDir Path dir) throws Exception {
        Path other = Files.createDirectory(dir.resolve("other"));
        List<String> argv = Children.fakeServer("echo");
        String key = StdioTransport.newBuilder(argv).workingDirectory(dir).putEnvironment("A", "1").build()
                .serverKey().orElseThrow();
        assertThat(key).isNotBlank();
        // the same configuration built twice
        assertThat(StdioTransport.newBuilder(argv).workingDirectory(dir).putEnvironment("A", "1").build()
                .serverKey().orElseThrow()).isEqualTo(key);
        // settings that do not change which server runs do not change the key
        assertThat(StdioTransport.newBuilder(argv).workingDirectory(dir).putEnvironment("A", "1")
                .startupTimeout(Duration.ofSeconds(3)).build().serverKey().orElseThrow()).isEqualTo(key);
        // each part of the command line, directory and environment does
        assertThat(StdioTransport.newBuilder(Children.fakeServer("echo", "--hello")).workingDirectory(dir)
                .putEnvironment("A", "1").build().serverKey().orElseThrow()).isNotEqualTo(key);
        assertThat(StdioTransport.newBuilder(Children.fakeServer("reverse")).workingDirectory(dir)
                .putEnvironment("A", "1").build().serverKey().orElseThrow()).isNotEqualTo(key);
        assertThat(StdioTransport.newBuilder(argv).workingDirectory(other).putEnvironment("A", "1").build()
                .serverKey().orElseThrow()).isNotEqualTo(key);
        assertThat(StdioTransport.newBuilder(argv).workingDirectory(dir).putEnvironment("A", "2").build()
                .serverKey().orElseThrow()).isNotEqualTo(key);
        assertThat(StdioTransport.newBuilder(argv).workingDirectory(dir).putEnvironment("B", "1").build()
                .serverKey().orElseThrow()).isNotEqualTo(key);
        assertThat(StdioTransport.newBuilder(argv).workingDirectory(dir).build().serverKey().orElseThrow()).isNotEqualTo(key);
        // no argument boundary ambiguity: ["ab"] and ["a", "b"] differ
        String joined = StdioTransport.newBuilder("sh", "-c", "ab").build().serverKey().orElseThrow();
        String split = StdioTransport.newBuilder("sh", "-c", "a", "b").build().serverKey().orElseThrow();
        assertThat(joined).isNotEqualTo(split);
    }

    @Test
    void serverKeyNeverShowsAnEnvironmentValueOrAnArgument() {
        StdioTransport t = StdioTransport.newBuilder("sh", "-c", "exit 0 # argument-marker")
                .putEnvironment("TOKEN", "very-secret-token-value")
                .build();
        assertThat(t.serverKey().orElseThrow()).doesNotContain("very-secret-token-value").doesNotContain("argument-marker")
                .matches("stdio:[0-9a-f]{64}");
        assertThat(t.probeTransport().orElseThrow().toString()).doesNotContain("very-secret-token-value");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }
}
