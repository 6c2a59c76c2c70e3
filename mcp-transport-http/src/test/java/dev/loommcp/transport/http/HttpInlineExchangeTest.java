package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.TestServer.json;
import static dev.loommcp.transport.http.TestServer.result;
import static dev.loommcp.transport.http.TestServer.sse;
import static dev.loommcp.transport.http.TestServer.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.McpException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.TestSendContext;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A request whose caller waits for the answer anyway ({@link dev.loommcp.spi.SendContext#callerWaits()}) runs its
 * exchange on the calling thread: {@code send} returns once the answer was delivered; the deadline, the context's
 * cancel, closing the transport and an interrupt each end such an exchange promptly. And a finished answer body lets
 * its rest go by so that the connection is kept ({@link StreamBody#finish()}), bounded in time.
 */
@ExtendWith(LeakCheck.class)
class HttpInlineExchangeTest extends ServerTestBase {

    private static final Duration WAIT = Duration.ofSeconds(20);

    private static JsonRpcMessage.Request request(long id) {
        return new JsonRpcMessage.Request(RequestId.of(id), "tools/call", Map.of("name", "t"));
    }

    /** Sends request 1 from a thread of the test; an InterruptedException thrown (not expected) sets the flag. */
    private static void send(HttpTransport t, TestSendContext ctx) {
        try {
            t.send(request(1), ctx);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private HttpTransport transport() {
        return open(HttpTransport.newBuilder(server.uri("/mcp")));
    }

    /** A server that holds every request until {@code release} (or the client goes away), then answers it. */
    private CountDownLatch holdingServer() {
        CountDownLatch release = new CountDownLatch(1);
        server.handler((req, ex) -> {
            if (!req.method().equals("POST")) {
                TestServer.status(ex, 405);
                return;
            }
            release.await(30, TimeUnit.SECONDS);
            json(ex, 200, result(req.rpcId(), "{}"));
        });
        return release;
    }

    @Test
    void theSendReturnsWithTheAnswerDeliveredWhenTheCallerWaits() throws Exception {
        server.handler((req, ex) -> {
            Thread.sleep(150); // a send that only queued would return long before this answer
            json(ex, 200, result(req.rpcId(), "{\"ok\":true}"));
        });
        HttpTransport t = transport();
        t.send(request(1), TestSendContext.of(1).waiting());
        assertThat(sink.messages()).as("delivered before send returned")
                .containsExactly(new JsonRpcMessage.Response(RequestId.of(1), Map.of("ok", true)));
        // the same with a second request: the first one's connection is reused
        t.send(request(2), TestSendContext.of(2).waiting());
        assertThat(sink.messages()).hasSize(2);
    }

    @Test
    void theContextsCancelEndsAnInlineExchangeAtOnceWithoutAFailureReport() throws Exception {
        CountDownLatch release = holdingServer();
        HttpTransport t = transport();
        TestSendContext ctx = TestSendContext.of(1).waiting(); // no sender thread: the caller's own thread is woken
        AtomicBoolean flagAfter = new AtomicBoolean(true);
        Thread caller = Thread.ofVirtual().name("caller").start(() -> {
            send(t, ctx);
            flagAfter.set(Thread.currentThread().isInterrupted());
        });
        server.nextRequest();
        long start = System.nanoTime();
        ctx.cancel();
        assertThat(caller.join(WAIT)).as("the caller returned").isTrue();
        // the blocked send was woken with an interrupt of the caller's thread: it must not leak to the caller
        assertThat(flagAfter).as("interrupt flag clear on return").isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        assertThat(sink.sendFailures()).as("a cancelled call no longer waits: no news").isEmpty();
        assertThat(t.activeExchangeCount()).isZero();
        release.countDown();
    }

    @Test
    void theDeadlineEndsAnInlineExchangeWithATimeout() throws Exception {
        CountDownLatch release = holdingServer();
        HttpTransport t = transport();
        long start = System.nanoTime();
        t.send(request(1), new TestSendContext(RequestId.of(1), Duration.ofMillis(300)).waiting());
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        McpException failure = sink.awaitSendFailure(RequestId.of(1), WAIT);
        assertThat(failure).isInstanceOf(McpTimeoutException.class);
        release.countDown();
    }

    @Test
    void closingTheTransportEndsAnInlineExchange() throws Exception {
        CountDownLatch release = holdingServer();
        HttpTransport t = transport();
        AtomicBoolean flagAfter = new AtomicBoolean(true);
        Thread caller = Thread.ofVirtual().name("caller").start(() -> {
            send(t, TestSendContext.of(1).waiting());
            flagAfter.set(Thread.currentThread().isInterrupted());
        });
        server.nextRequest();
        t.close();
        assertThat(caller.join(WAIT)).as("the caller returned").isTrue();
        assertThat(flagAfter).as("interrupt flag clear on return").isFalse();
        assertThat(t.activeExchangeCount()).isZero();
        release.countDown();
    }

    @Test
    void anInterruptEndsAnInlineExchangeAndTheFlagStaysSet() throws Exception {
        CountDownLatch release = holdingServer();
        HttpTransport t = transport();
        AtomicBoolean flagAfter = new AtomicBoolean();
        Thread caller = Thread.ofVirtual().name("caller").start(() -> {
            send(t, TestSendContext.of(1).waiting());
            flagAfter.set(Thread.currentThread().isInterrupted());
        });
        server.nextRequest();
        caller.interrupt();
        assertThat(caller.join(WAIT)).as("the caller returned").isTrue();
        assertThat(flagAfter).as("interrupt flag set on return").isTrue();
        assertThat(t.activeExchangeCount()).isZero();
        release.countDown();
    }

    @Test
    void anAnswerBodyWhoseRestEndsSoonKeepsItsConnection() throws Exception {
        List<Integer> ports = new CopyOnWriteArrayList<>();
        server.handler((req, ex) -> {
            ports.add(ex.getRemoteAddress().getPort());
            OutputStream out = sse(ex);
            write(out, "event: message\ndata: " + result(req.rpcId(), "{}") + "\n\n");
            Thread.sleep(20); // the client has its answer by now; the rest comes after
            write(out, ": trailing comment\n\n");
        });
        HttpTransport t = transport();
        t.send(request(1), TestSendContext.of(1).waiting());
        // the first body ends 20 ms after its answer; the client then takes the connection back into its pool (on a
        // loaded machine that can take seconds: a full build beside it failed the 5 s bound once). A
        // request sent before that gets a new connection, so send until one comes on the first connection: with a
        // cancelled body (the connection closed) none ever does
        java.util.concurrent.atomic.AtomicLong next = new java.util.concurrent.atomic.AtomicLong(2);
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
                .until(() -> {
                    long id = next.getAndIncrement();
                    t.send(request(id), TestSendContext.of(id).waiting());
                    return ports.get(ports.size() - 1).equals(ports.get(0));
                });
        assertThat(sink.messages()).hasSize(ports.size());
    }

    @Test
    void anAnswerBodyThatDoesNotEndIsCancelledAfterTheGrace() throws Exception {
        AtomicReference<IOException> writeFailed = new AtomicReference<>();
        CountDownLatch ended = new CountDownLatch(1);
        server.handler((req, ex) -> {
            OutputStream out = sse(ex);
            write(out, "event: message\ndata: " + result(req.rpcId(), "{}") + "\n\n");
            try {
                for (int i = 0; i < 400; i++) { // 20 s of a stream that never ends on its own
                    Thread.sleep(50);
                    write(out, ": still here\n\n");
                }
            } catch (IOException e) {
                writeFailed.set(e);
            } finally {
                ended.countDown();
            }
        });
        HttpTransport t = transport();
        t.send(request(1), TestSendContext.of(1).waiting());
        assertThat(sink.messages()).hasSize(1);
        assertThat(ended.await(10, TimeUnit.SECONDS)).as("the client cancelled the endless body").isTrue();
        assertThat(writeFailed.get()).isNotNull();
        assertThat(t.activeExchangeCount()).isZero();
    }

    /**
     * One timer serves every drain (they end in the order they began): bodies finished one after another, none of
     * which ever ends on its own, are all cancelled after the grace, the later ones too.
     */
    @Test
    void manyAnswerBodiesThatDoNotEndAreAllCancelledAfterTheGrace() throws Exception {
        int n = 12;
        CountDownLatch ended = new CountDownLatch(n);
        server.handler((req, ex) -> {
            OutputStream out = sse(ex);
            write(out, "event: message\ndata: " + result(req.rpcId(), "{}") + "\n\n");
            try {
                for (int i = 0; i < 400; i++) {
                    Thread.sleep(50);
                    write(out, ": still here\n\n");
                }
            } catch (IOException e) {
                ended.countDown(); // the client cancelled this body
            }
        });
        HttpTransport t = transport();
        for (int i = 1; i <= n; i++) {
            t.send(request(i), TestSendContext.of(i).waiting());
            Thread.sleep(15); // drains that begin at different times: the timer is set again for the next one
        }
        assertThat(sink.messages()).hasSize(n);
        assertThat(ended.await(10, TimeUnit.SECONDS)).as("every endless body was cancelled").isTrue();
        assertThat(t.activeExchangeCount()).isZero();
    }

    @Test
    void aCallerThatDoesNotWaitStillGetsItsOwnSendThread() throws Exception {
        CountDownLatch release = holdingServer();
        HttpTransport t = transport();
        long start = System.nanoTime();
        t.send(request(1), TestSendContext.of(1)); // queued: returns before the server answers
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        assertThat(sink.messages()).isEmpty();
        release.countDown();
        assertThat(sink.responseTo(RequestId.of(1))).isNotNull();
    }
}
