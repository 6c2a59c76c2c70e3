package dev.loommcp.transport.stdio;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.McpClient;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.RequestOptions;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.Deadline;
import dev.loommcp.spi.SendContext;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.RecordingSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 13: the sending thread writes a message itself when that provably cannot block (the direct path), else the
 * writer thread writes it (the queued path). Both deliver in the order of the sends; a child that stops reading its
 * stdin receives at most {@link StdinWriter#DIRECT_ROOM} bytes through the direct path, and a virtual thread calling
 * it still fails at its deadline instead of blocking in a pipe write.
 */
@ExtendWith(LeakCheck.class)
@Timeout(120)
class StdioDirectWriteTest {

    private static final SendContext CTX = SendContext.detached(Deadline.NONE);

    @AfterEach
    void restore() {
        StdinWriter.directWrites = true;
    }

    @Test
    void sequentialSendsAreWrittenDirectlyAndBurstsThroughTheWriterThreadInOrder() throws Exception {
        StdioTransport t = StdioTransport.newBuilder("sh", Children.script("tiny-server.sh").toString()).build();
        RecordingSink sink = new RecordingSink();
        List<Long> sent = new ArrayList<>();
        try {
            t.open(TransportContext.of(sink, Deadline.NONE));
            long id = 0;
            // sequential: each request after the answer to the previous one
            for (int i = 0; i < 50; i++) {
                t.send(Children.request(++id, "tools/call", Map.of("name", "x")), CTX);
                sent.add(id);
                assertThat(sink.nextResponse().id()).isEqualTo(RequestId.of(id));
            }
            long directAfterSequential = t.directWrites();
            assertThat(directAfterSequential).as("sequential sends take the direct path").isGreaterThanOrEqualTo(49);
            // a burst without waiting: the first goes direct, the rest find it unanswered and queue; then mixed
            // notifications (never answered) and requests, then sequential again
            for (int i = 0; i < 300; i++) {
                t.send(Children.request(++id, "tools/call", Map.of("name", "x", "pad", "p".repeat(i % 97))), CTX);
                sent.add(id);
                if (i % 10 == 0) {
                    t.send(new JsonRpcMessage.Notification("notifications/progress", Map.of()), CTX);
                }
            }
            assertThat(t.directWrites() - directAfterSequential).as("a burst is queued").isLessThan(300);
            List<Long> answered = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                answered.add(((RequestId.NumberId) sink.nextResponse().id()).number());
            }
            for (int i = 0; i < 250; i++) {
                answered.add(((RequestId.NumberId) sink.nextResponse().id()).number());
            }
            for (int i = 0; i < 20; i++) {
                t.send(Children.request(++id, "tools/call", Map.of("name", "x")), CTX);
                sent.add(id);
                answered.add(((RequestId.NumberId) sink.nextResponse().id()).number());
            }
            // the server answers in the order it reads: the answers' order is the order of the writes
            assertThat(answered).containsExactlyElementsOf(sent.subList(50, sent.size()));
            assertThat(t.directWrites()).as("sequential again: direct").isGreaterThan(directAfterSequential + 15);
        } finally {
            t.close();
        }
        assertThat(sink.closedCalls()).isZero();
    }

    @Test
    void withTheDirectPathOffEverythingGoesThroughTheWriterThreadInOrder() throws Exception {
        StdinWriter.directWrites = false;
        StdioTransport t = StdioTransport.newBuilder("sh", Children.script("tiny-server.sh").toString()).build();
        RecordingSink sink = new RecordingSink();
        try {
            t.open(TransportContext.of(sink, Deadline.NONE));
            for (long id = 1; id <= 100; id++) {
                t.send(Children.request(id, "tools/call", Map.of("name", "x")), CTX);
                if (id % 3 == 0) {
                    assertThat(sink.nextResponse().id()).isEqualTo(RequestId.of(id - 2));
                    assertThat(sink.nextResponse().id()).isEqualTo(RequestId.of(id - 1));
                    assertThat(sink.nextResponse().id()).isEqualTo(RequestId.of(id));
                }
            }
            assertThat(sink.nextResponse().id()).isEqualTo(RequestId.of(100));
            assertThat(t.directWrites()).isZero();
        } finally {
            t.close();
        }
    }

    @Test
    void aChildThatStopsReadingGetsAtMostTheDirectRoomAndNeverBlocksASender() throws Exception {
        StdioTransport t = StdioTransport.newBuilder("sh", Children.script("no-stdin.sh").toString()).build();
        RecordingSink sink = new RecordingSink();
        try {
            t.open(TransportContext.of(sink, Deadline.NONE));
            String pad = "x".repeat(1000);
            // 1 MB to a pipe of 64 KiB that is never read: every send returns (from a virtual thread)
            Thread sender = Thread.ofVirtual().start(() -> {
                for (long id = 1; id <= 1000; id++) {
                    t.send(Children.request(id, "tools/call", Map.of("pad", pad)), CTX);
                }
            });
            assertThat(sender.join(Duration.ofSeconds(60))).as("the sends returned").isTrue();
            // no answer ever proves a read: only the first 4 KiB could go directly
            assertThat(t.directWrites()).isLessThanOrEqualTo(StdinWriter.DIRECT_ROOM / 1000);
        } finally {
            t.close();
        }
    }

    /**
     * A server that answers, then stops reading its stdin: 100 virtual threads calling it with 2 KB each (three times
     * what its pipe holds) all fail with a timeout at their deadline; none is stuck in a pipe write; close ends
     * everything (LeakCheck).
     */
    @Test
    void callersOfAServerThatStopsReadingFailAtTheirDeadlineFromVirtualThreads() throws Exception {
        try (McpClient c = McpClient.newBuilder(StdioTransport.newBuilder("sh",
                        Children.script("tiny-server.sh").toString()).build())
                .requestTimeout(Duration.ofMinutes(5))
                .build()) {
            c.connect();
            for (int i = 0; i < 5; i++) {
                assertThat(c.callTool("x", Map.of()).text()).startsWith("pong ");
            }
            assertThat(c.callTool("stop", Map.of()).text()).isEqualTo("stopping");
            String pad = "y".repeat(2000);
            ConcurrentLinkedQueue<Throwable> outcomes = new ConcurrentLinkedQueue<>();
            List<Thread> callers = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                callers.add(Thread.ofVirtual().start(() -> {
                    try {
                        c.callTool("x", Map.of("pad", pad), RequestOptions.ofTimeout(Duration.ofMillis(500)));
                        outcomes.add(new AssertionError("answered"));
                    } catch (Throwable e) {
                        outcomes.add(e);
                    }
                }));
            }
            long bound = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            for (Thread th : callers) {
                assertThat(th.join(Duration.ofNanos(Math.max(1, bound - System.nanoTime()))))
                        .as("every caller returned").isTrue();
            }
            assertThat(outcomes).hasSize(100).allSatisfy(e -> assertThat(e).isInstanceOf(McpTimeoutException.class));
        }
    }
}
