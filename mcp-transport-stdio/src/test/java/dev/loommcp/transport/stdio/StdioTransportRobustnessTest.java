package dev.loommcp.transport.stdio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpClosedException;
import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.Deadline;
import dev.loommcp.spi.SendContext;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.spi.TransportSink;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.RecordingSink;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** Issue 8: user callbacks that throw Errors, the stderr ring's heap bound, and close racing open. */
@ExtendWith(LeakCheck.class)
@Timeout(120)
class StdioTransportRobustnessTest {

    private static final SendContext CTX = SendContext.detached(Deadline.NONE);
    /** Writes far more than a pipe holds to stderr, then a message on stdout, then reads stdin to its end. */
    private static final String STDERR_THEN_MESSAGE = "yes 'a line of log output' | head -n 200000 >&2; "
            + "echo '{\"jsonrpc\":\"2.0\",\"method\":\"notifications/after-stderr\"}'; cat > /dev/null";

    @Test
    void aStderrListenerThrowingErrorsNeverStopsTheDraining() throws Exception {
        AtomicLong calls = new AtomicLong();
        Consumer<String> hostile = line -> {
            long n = calls.incrementAndGet();
            if (n % 3 == 0) {
                throw new StackOverflowError("deep");
            }
            if (n % 3 == 1) {
                throw new AssertionError("listener bug");
            }
            throw new IllegalStateException("listener bug");
        };
        StdioTransport t = StdioTransport.newBuilder("sh", "-c", STDERR_THEN_MESSAGE)
                .stderrListener(hostile)
                .build();
        RecordingSink sink = new RecordingSink();
        try {
            t.open(TransportContext.of(sink, Deadline.NONE));
            // the message after 5 MB of stderr arrives only if stderr was drained all along
            assertThat(sink.next(Duration.ofSeconds(60))).isInstanceOfSatisfying(JsonRpcMessage.Notification.class,
                    n -> assertThat(n.method()).isEqualTo("notifications/after-stderr"));
            assertThat(calls.get()).isGreaterThan(100_000);
            assertThat(t.stderrTail()).contains("a line of log output");
        } finally {
            t.close();
        }
        assertThat(sink.closedCalls()).isEqualTo(0);
    }

    @Test
    void aSinkThrowingAnErrorNeverStopsTheReader() throws Exception {
        AtomicInteger seen = new AtomicInteger();
        RecordingSink sink = new RecordingSink();
        TransportSink broken = new TransportSink() {
            @Override
            public void onMessage(JsonRpcMessage message) {
                if (seen.incrementAndGet() == 1) {
                    throw new AssertionError("sink bug");
                }
                sink.onMessage(message);
            }

            @Override
            public void onSkipped(String problem) {
                throw new NoClassDefFoundError("sink bug");
            }

            @Override
            public void onClosed(McpTransportException cause) {
                sink.onClosed(cause);
            }
        };
        StdioTransport t = StdioTransport.newBuilder("sh", "-c",
                        "echo '{\"jsonrpc\":\"2.0\",\"method\":\"notifications/first\"}'; echo not json; "
                                + "echo '{\"jsonrpc\":\"2.0\",\"method\":\"notifications/second\"}'; cat > /dev/null")
                .build();
        try {
            t.open(TransportContext.of(broken, Deadline.NONE));
            assertThat(sink.next()).isInstanceOfSatisfying(JsonRpcMessage.Notification.class,
                    n -> assertThat(n.method()).isEqualTo("notifications/second"));
            assertThat(t.skippedLines()).isEqualTo(1);
        } finally {
            t.close();
        }
    }

    @Test
    void theStderrRingBoundsTheHeapItHoldsWhateverTheLineLengths() throws Exception {
        // one-byte lines: with a per-line String the ring held some 40 times its size in objects
        int capacity = 1024 * 1024;
        int lines = 1_000_000;
        AtomicLong received = new AtomicLong();
        CountDownLatch all = new CountDownLatch(1);
        StdioTransport t = StdioTransport.newBuilder("sh", "-c",
                        "yes a | head -n " + lines + " >&2; cat > /dev/null")
                .stderrBufferBytes(capacity)
                .stderrListener(l -> {
                    if (received.incrementAndGet() == lines) {
                        all.countDown();
                    }
                })
                .build();
        RecordingSink sink = new RecordingSink();
        try {
            long before = usedHeapAfterGc();
            t.open(TransportContext.of(sink, Deadline.NONE));
            assertThat(all.await(60, TimeUnit.SECONDS)).as("all stderr lines drained").isTrue();
            long retained = usedHeapAfterGc() - before;
            assertThat(t.stderrBufferedBytes()).isLessThanOrEqualTo(capacity);
            assertThat(t.stderrTail()).endsWith("a\na");
            // the ring's own accounting: one array of at most the capacity
            assertThat(t.stderrHeapBytes()).isLessThanOrEqualTo(capacity);
            // and the heap: within a small factor of the capacity (the old ring retained about 40 MiB here)
            assertThat(retained).as("heap retained with the ring full of one-byte lines")
                    .isLessThan(8L * capacity);
        } finally {
            t.close();
        }
    }

    private static long usedHeapAfterGc() throws InterruptedException {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
            Runtime rt = Runtime.getRuntime();
            used = Math.min(used, rt.totalMemory() - rt.freeMemory());
        }
        return used;
    }

    @Test
    void aClosedTransportRefusesWithMcpClosedException() throws Exception {
        StdioTransport never = StdioTransport.newBuilder("sh", "-c", "cat > /dev/null").build();
        never.close();
        assertThatThrownBy(() -> never.open(TransportContext.of(new RecordingSink(), Deadline.NONE)))
                .isInstanceOf(McpClosedException.class).hasMessageContaining("closed");
        assertThat(never.pid()).isEmpty();

        StdioTransport t = StdioTransport.newBuilder("sh", "-c", "cat > /dev/null").build();
        RecordingSink sink = new RecordingSink();
        t.open(TransportContext.of(sink, Deadline.NONE));
        t.close();
        assertThatThrownBy(() -> t.send(Children.request(1, "x", null), CTX))
                .isInstanceOf(McpClosedException.class).hasMessageContaining("closed").hasNoCause();
        assertThat(sink.closedCalls()).isEqualTo(0);
    }

    @Test
    void aTransportThatFailedAndWasThenClosedRefusesWithTheFailureAsCause() throws Exception {
        StdioTransport t = StdioTransport.newBuilder("sh", "-c", "exit 7").build();
        RecordingSink sink = new RecordingSink();
        t.open(TransportContext.of(sink, Deadline.NONE));
        McpTransportException failure = sink.awaitClosed();
        t.close();
        assertThatThrownBy(() -> t.send(Children.request(1, "x", null), CTX))
                .isInstanceOf(McpClosedException.class).hasCause(failure);
    }

    @Test
    void closeRacingOpenReportsMcpClosedExceptionNeverATransportException() throws Exception {
        for (int i = 0; i < 20; i++) {
            StdioTransport t = StdioTransport.newBuilder("sh", "-c", "cat > /dev/null").build();
            RecordingSink sink = new RecordingSink();
            CountDownLatch go = new CountDownLatch(1);
            Thread closer = Thread.ofVirtual().start(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                t.close();
            });
            go.countDown();
            try {
                t.open(TransportContext.of(sink, Deadline.NONE));
                // open won the race: the first use after the close is refused as closed
                closer.join();
                assertThatThrownBy(() -> t.send(Children.request(1, "initialize", null), CTX))
                        .isInstanceOf(McpClosedException.class);
            } catch (McpClosedException expected) {
                // close won the race (or ran while open started the process)
            } finally {
                closer.join();
                t.close();
            }
            assertThat(sink.closedCalls()).isEqualTo(0);
        }
    }

    @Test
    void whenTheOsRefusesAPipeThreadOpenFailsCleanlyAndLeavesNothing() throws Exception {
        // the pipe threads are OS threads: past the OS's thread limit the JVM throws OutOfMemoryError
        StdioConnection.pipeThreadFault = purpose -> purpose.equals("stdio-writer")
                ? new OutOfMemoryError("unable to create native thread: possibly out of memory or process/resource"
                        + " limits reached") : null;
        StdioTransport t = StdioTransport.newBuilder("sh", "-c", "cat > /dev/null; sleep 1000").build();
        RecordingSink sink = new RecordingSink();
        try {
            assertThatThrownBy(() -> t.open(TransportContext.of(sink, Deadline.NONE)))
                    .isInstanceOf(McpTransportException.class)
                    .hasMessageContaining("cannot start the threads")
                    .hasMessageContaining("unable to create native thread")
                    .hasCauseInstanceOf(OutOfMemoryError.class);
        } finally {
            StdioConnection.pipeThreadFault = null;
        }
        assertThat(Children.gone(t.pid().orElseThrow())).as("the child is ended").isTrue();
        assertThatThrownBy(() -> t.send(Children.request(1, "x", null), CTX))
                .isInstanceOf(McpTransportException.class);
        t.close();
        assertThat(sink.closedCalls()).isEqualTo(0);
    }
}
