package dev.loommcp.transport.stdio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.Deadline;
import dev.loommcp.spi.SendContext;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.RecordingSink;
import dev.loommcp.testkit.ReferenceServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** Messages over real child processes: the reference server, framing, stderr, exits and signals. */
@ExtendWith(LeakCheck.class)
@Timeout(120)
class StdioTransportExchangeTest {

    private static final SendContext CTX = SendContext.detached(Deadline.NONE);

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    @Test
    void roundTripWithTheReferenceServer() throws Exception {
        StdioTransport t = StdioTransport.newBuilder(ReferenceServer.stdioCommand()).build();
        RecordingSink sink = new RecordingSink();
        try {
            t.open(TransportContext.of(sink, Deadline.NONE));
            t.send(Children.request(1, "initialize", Map.of(
                    "protocolVersion", "2025-11-25",
                    "capabilities", Map.of(),
                    "clientInfo", Map.of("name", "stdio-transport-test", "version", "0"))), CTX);
            JsonRpcMessage.Response init = sink.responseTo(RequestId.of(1));
            assertThat(map(init.result())).containsKeys("serverInfo", "protocolVersion", "capabilities");
            t.send(new JsonRpcMessage.Notification("notifications/initialized", null), CTX);
            t.send(Children.request(2, "tools/list", Map.of()), CTX);
            JsonRpcMessage.Response tools = sink.responseTo(RequestId.of(2));
            List<Object> names = ((List<?>) map(tools.result()).get("tools")).stream()
                    .map(tool -> map(tool).get("name")).toList();
            assertThat(names).contains("echo");
            assertThat(t.skippedLines()).isZero();
        } finally {
            t.close();
        }
        assertThat(sink.closedCalls()).isEqualTo(0);
        assertThat(t.exitCode()).isPresent();
    }

    @Test
    void manyConcurrentSendersGetEveryAnswer() throws Exception {
        StdioTransport t = StdioTransport.newBuilder(Children.fakeServer("echo")).build();
        RecordingSink sink = new RecordingSink();
        int threads = 32;
        int each = 50;
        try {
            t.open(TransportContext.of(sink, Deadline.NONE));
            AtomicLong ids = new AtomicLong();
            List<Thread> senders = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                int thread = i;
                senders.add(Thread.ofVirtual().start(() -> {
                    for (int j = 0; j < each; j++) {
                        t.send(Children.request(ids.incrementAndGet(), "test/echo",
                                Map.of("thread", thread, "n", j)), CTX);
                    }
                }));
            }
            for (Thread s : senders) {
                s.join();
            }
            Set<RequestId> seen = ConcurrentHashMap.newKeySet();
            for (int k = 0; k < threads * each; k++) {
                JsonRpcMessage.Response r = sink.nextResponse();
                assertThat(seen.add(r.id())).as("duplicate " + r.id()).isTrue();
                assertThat(map(r.result())).containsEntry("method", "test/echo");
            }
            assertThat(seen).hasSize(threads * each);
        } finally {
            t.close();
        }
        // the fake server exits on the end of stdin: no signal was needed
        assertThat(t.exitCode()).hasValue(0);
    }

    @Test
    void answersOutOfOrderAreDeliveredWithTheirIds() throws Exception {
        StdioTransport t = StdioTransport.newBuilder(Children.fakeServer("reverse")).build();
        RecordingSink sink = new RecordingSink();
        try {
            t.open(TransportContext.of(sink, Deadline.NONE));
            for (long id = 1; id <= 5; id++) {
                t.send(Children.request(id, "test/echo", Map.of("id", id)), CTX);
            }
            List<RequestId> order = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                JsonRpcMessage.Response r = sink.nextResponse();
                order.add(r.id());
                assertThat(((Number) map(map(r.result()).get("params")).get("id")).longValue())
                        .isEqualTo(((RequestId.NumberId) r.id()).number());
            }
            assertThat(order).containsExactly(RequestId.of(5), RequestId.of(4), RequestId.of(3), RequestId.of(2),
                    RequestId.of(1));
        } finally {
            t.close();
        }
    }

    @Test
    void garbageLinesAreSkippedAndCountedAndMessagesStillArrive() throws Exception {
        StdioTransport t = StdioTransport.newBuilder(Children.fakeServer("garbage")).build();
        RecordingSink sink = new RecordingSink();
        try {
            t.open(TransportContext.of(sink, Deadline.NONE));
            for (long id = 1; id <= 3; id++) {
                t.send(Children.request(id, "test/echo", null), CTX);
                assertThat(sink.nextResponse().id()).isEqualTo(RequestId.of(id));
            }
            // per answer: one non-JSON line, one JSON object that is not JSON-RPC, one JSON array of numbers;
            // blank and whitespace-only lines are not counted, the CRLF-ended answer is read
            assertThat(t.skippedLines()).isEqualTo(9);
            assertThat(sink.skipped()).hasSize(9);
            assertThat(sink.skipped()).filteredOn(p -> p.contains("this is not json, request 1")).hasSize(1);
            assertThat(sink.skipped()).filteredOn(p -> p.contains("\"jsonrpc\" must be \"2.0\"")).hasSize(3);
            assertThat(sink.skipped()).noneMatch(p -> p.contains("{\"not\""));
            assertThat(sink.closedCalls()).isEqualTo(0);
        } finally {
            t.close();
        }
    }

    @Test
    void batchesAreDeliveredMemberByMember() throws Exception {
        StdioTransport t = StdioTransport.newBuilder(Children.fakeServer("batch")).build();
        RecordingSink sink = new RecordingSink();
        try {
            t.open(TransportContext.of(sink, Deadline.NONE));
            t.send(Children.request(7, "test/echo", null), CTX);
            assertThat(sink.next()).isInstanceOfSatisfying(JsonRpcMessage.Response.class,
                    r -> assertThat(r.id()).isEqualTo(RequestId.of(7)));
            assertThat(sink.next()).isInstanceOfSatisfying(JsonRpcMessage.Notification.class,
                    n -> assertThat(n.method()).isEqualTo("notifications/after"));
        } finally {
            t.close();
        }
    }

    @Test
    void aTwentyMegabyteLineFailsTheTransportNamingTheLimit() throws Exception {
        StdioTransport t = StdioTransport.newBuilder("sh", Children.script("big-line.sh").toString(), "20000000")
                .build();
        RecordingSink sink = new RecordingSink();
        try {
            t.open(TransportContext.of(sink, Deadline.NONE));
            McpTransportException ex = sink.awaitClosed();
            assertThat(ex).isNotInstanceOf(McpProcessExitedException.class)
                    .hasMessageContaining("sh sent a message longer than the limit of 16777216 bytes")
                    .hasMessageContaining("maxMessageBytes");
            assertThatThrownBy(() -> t.send(Children.request(1, "x", null), CTX)).isSameAs(ex);
        } finally {
            t.close();
        }
        assertThat(sink.closedCalls()).isEqualTo(1);
    }

    @Test
    void aLongLineWithoutNewlineFailsAtTheConfiguredLimit() throws Exception {
        StdioTransport t = StdioTransport.newBuilder("sh", Children.script("big-line.sh").toString(), "3000000",
                "nonl").maxMessageBytes(1024 * 1024).build();
        RecordingSink sink = new RecordingSink();
        try {
            t.open(TransportContext.of(sink, Deadline.NONE));
            assertThat(sink.awaitClosed()).hasMessageContaining("limit of 1048576 bytes");
        } finally {
            t.close();
        }
    }

    /**
     * The reader finds line ends eight bytes at a time: lines of every length, so that each newline falls at every
     * offset of those steps, with multi-byte characters and CRLF endings, written in one go, arrive whole and in order.
     */
    @Test
    void linesOfEveryLengthArriveWholeAndInOrder() throws Exception {
        StringBuilder script = new StringBuilder("printf '%s\\n'");
        List<String> pads = new ArrayList<>();
        for (int k = 0; k <= 40; k++) {
            String pad = k % 3 == 0 ? "\u00e9".repeat(k / 2) + "q".repeat(k % 2) : "p".repeat(k);
            pads.add(pad);
            script.append(" '{\"jsonrpc\":\"2.0\",\"method\":\"notifications/fill\",\"params\":{\"pad\":\"")
                    .append(pad).append("\"}}").append(k % 5 == 0 ? "\r" : "").append("'");
        }
        script.append("; cat >/dev/null");
        StdioTransport t = StdioTransport.newBuilder("sh", "-c", script.toString()).build();
        RecordingSink sink = new RecordingSink();
        try {
            t.open(TransportContext.of(sink, Deadline.NONE));
            for (String pad : pads) {
                assertThat(sink.next()).isInstanceOfSatisfying(JsonRpcMessage.Notification.class,
                        n -> assertThat(n.params()).isEqualTo(Map.of("pad", pad)));
            }
            assertThat(t.skippedLines()).isZero();
        } finally {
            t.close();
        }
    }

    /** The eight-byte newline search stops exactly where a byte-by-byte one stops, from and to any offset. */
    @Test
    void theNewlineSearchStopsWhereAByteByByteOneStops() {
        byte[] fillers = {'a', '\r', 0x0b, 0x09, (byte) 0x8a, (byte) 0xc3, 0, (byte) 0xff};
        for (byte filler : fillers) {
            for (int length = 0; length <= 25; length++) {
                byte[] b = new byte[length];
                java.util.Arrays.fill(b, filler);
                for (int at = -1; at < length; at++) {
                    if (at >= 0) {
                        b[at] = '\n';
                    }
                    for (int from = 0; from <= length; from++) {
                        int expected = from;
                        while (expected < length && b[expected] != '\n') {
                            expected++;
                        }
                        assertThat(StdoutReader.newline(b, from, length)).as("filler %d, length %d, newline at %d, "
                                + "from %d", filler, length, at, from).isEqualTo(expected);
                    }
                    if (at >= 0) {
                        b[at] = filler;
                    }
                }
            }
        }
    }

    @Test
    void aMessageOfExactlyTheLimitIsAccepted() throws Exception {
        int limit = 4096;
        String prefix = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/fill\",\"params\":{\"pad\":\"";
        String suffix = "\"}}";
        String pad = "p".repeat(limit - prefix.length() - suffix.length());
        String line = prefix + pad + suffix;
        assertThat(line).hasSize(limit);
        StdioTransport t = StdioTransport.newBuilder("sh", "-c",
                        "printf '%s\\r\\n' '" + line + "'; printf '%s\\n' '" + line + "x'; cat >/dev/null")
                .maxMessageBytes(limit).build();
        RecordingSink sink = new RecordingSink();
        try {
            t.open(TransportContext.of(sink, Deadline.NONE));
            assertThat(sink.next()).isInstanceOf(JsonRpcMessage.Notification.class);
            assertThat(sink.awaitClosed()).hasMessageContaining("limit of 4096 bytes");
        } finally {
            t.close();
        }
    }

    @Test
    void aChildThatExitsWithCode7FailsAtOnceWithCodeAndStderr() throws Exception {
        StdioTransport t = StdioTransport.newBuilder("sh", Children.script("exit7.sh").toString())
                .startupTimeout(Duration.ofMinutes(5))
                .build();
        RecordingSink sink = new RecordingSink();
        try {
            t.open(TransportContext.of(sink, Deadline.NONE));
            // far sooner than the startup timeout: the exit itself is reported
            McpTransportException ex = sink.awaitClosed(RecordingSink.SOON);
            assertThat(ex).isInstanceOfSatisfying(McpProcessExitedException.class, e -> {
                assertThat(e.exitCode()).hasValue(7);
                assertThat(e.signal()).isEmpty();
                assertThat(e.command()).isEqualTo("sh");
                assertThat(e.stderrTail()).isEqualTo("fatal: cannot load the configuration\nhint: check config.json");
            });
            assertThat(ex).hasMessage("sh exited with code 7 (stderr tail: fatal: cannot load the configuration"
                    + " | hint: check config.json)");
            assertThatThrownBy(() -> t.send(Children.request(1, "x", null), CTX)).isSameAs(ex);
            assertThat(t.exitCode()).hasValue(7);
        } finally {
            t.close();
        }
        assertThat(sink.closedCalls()).isEqualTo(1);
    }

    @Test
    void aChildKilledBySignalMidCallReportsTheSignal() throws Exception {
        StdioTransport t = StdioTransport.newBuilder(Children.fakeServer("echo")).build();
        RecordingSink sink = new RecordingSink();
        try {
            t.open(TransportContext.of(sink, Deadline.NONE));
            t.send(Children.request(1, "test/echo", null), CTX);
            assertThat(sink.nextResponse().id()).isEqualTo(RequestId.of(1));
            t.send(Children.request(2, "hang", null), CTX);
            ProcessHandle.of(t.pid().orElseThrow()).orElseThrow().destroyForcibly();
            McpTransportException ex = sink.awaitClosed();
            assertThat(ex).isInstanceOfSatisfying(McpProcessExitedException.class, e -> {
                assertThat(e.signal()).hasValue(9);
                assertThat(e.exitCode()).hasValue(137);
            });
            assertThat(ex).hasMessageStartingWith(Children.node() + " was killed by signal 9 (SIGKILL, exit code 137)");
        } finally {
            t.close();
        }
    }

    @Test
    void stderrFloodNeitherBlocksTheChildNorGrowsMemory() throws Exception {
        AtomicLong lines = new AtomicLong();
        StdioTransport t = StdioTransport.newBuilder("sh", Children.script("flood-stderr.sh").toString())
                .stderrBufferBytes(16 * 1024)
                .stderrListener(l -> lines.incrementAndGet())
                .build();
        RecordingSink sink = new RecordingSink();
        try {
            t.open(TransportContext.of(sink, Deadline.NONE));
            // the message after the 100 MB arrives only if stderr was drained all along
            assertThat(sink.next(Duration.ofSeconds(60))).isInstanceOfSatisfying(JsonRpcMessage.Notification.class,
                    n -> assertThat(n.method()).isEqualTo("notifications/flooded"));
            assertThat(lines.get()).isGreaterThan(1_000_000);
            assertThat(t.stderrBufferedBytes()).isLessThanOrEqualTo(16 * 1024);
            assertThat(t.stderrTail()).contains("stderr flood: a line of log output");
            assertThat(t.stderrTail().length()).isLessThanOrEqualTo(16 * 1024);
        } finally {
            t.close();
        }
        assertThat(t.exitCode()).hasValue(0);
    }

    @Test
    void stderrRingKeepsTheLastLines() throws Exception {
        StdioTransport t = StdioTransport.newBuilder("sh", "-c",
                        "i=0; while [ $i -lt 500 ]; do echo \"line $i\" >&2; i=$((i+1)); done; exit 3")
                .stderrBufferBytes(256)
                .build();
        RecordingSink sink = new RecordingSink();
        try {
            t.open(TransportContext.of(sink, Deadline.NONE));
            McpProcessExitedException ex = (McpProcessExitedException) sink.awaitClosed();
            assertThat(ex.stderrTail()).endsWith("line 498\nline 499").doesNotContain("line 1\n");
            assertThat(ex.stderrTail().length()).isLessThanOrEqualTo(256);
        } finally {
            t.close();
        }
    }

    @Test
    void noMessageWithinTheStartupTimeoutFailsTheTransport() throws Exception {
        StdioTransport t = StdioTransport.newBuilder("sleep", "1000")
                .startupTimeout(Duration.ofMillis(500))
                .terminateGrace(Duration.ofSeconds(5))
                .build();
        RecordingSink sink = new RecordingSink();
        try {
            t.open(TransportContext.of(sink, Deadline.NONE));
            McpTransportException ex = sink.awaitClosed();
            assertThat(ex).hasMessageContaining("sleep sent no message within 500 ms of its launch (startupTimeout)");
        } finally {
            t.close();
        }
        assertThat(Children.gone(t.pid().orElseThrow())).isTrue();
    }

    @Test
    void sendBeforeOpenAndOpenTwiceFailClearly() throws Exception {
        StdioTransport t = StdioTransport.newBuilder(Children.fakeServer("echo")).build();
        assertThatThrownBy(() -> t.send(Children.request(1, "x", null), CTX))
                .isInstanceOf(IllegalStateException.class);
        RecordingSink sink = new RecordingSink();
        t.open(TransportContext.of(sink, Deadline.NONE));
        assertThatThrownBy(() -> t.open(TransportContext.of(sink, Deadline.NONE))).isInstanceOf(IllegalStateException.class);
        t.close();
        // after close: see StdioTransportRobustnessTest
        assertThat(sink.closedCalls()).isEqualTo(0);
    }
}
