package dev.loommcp.transport.stdio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.spi.TransportSink;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** A sink that records what a transport delivers, for the tests. */
class TestSink implements TransportSink {

    /** Generous bound for events that should come "at once". */
    static final Duration SOON = Duration.ofSeconds(20);

    final BlockingQueue<JsonRpcMessage> messages = new LinkedBlockingQueue<>();
    final List<String> skipped = new CopyOnWriteArrayList<>();
    final CountDownLatch closed = new CountDownLatch(1);
    final AtomicInteger closedCalls = new AtomicInteger();
    volatile McpTransportException cause;

    @Override
    public void onMessage(JsonRpcMessage message) {
        messages.add(message);
    }

    @Override
    public void onSkipped(String problem) {
        skipped.add(problem);
    }

    @Override
    public void onClosed(McpTransportException c) {
        cause = c;
        closedCalls.incrementAndGet();
        closed.countDown();
    }

    /** Returns the next message, failing after {@code timeout}. */
    JsonRpcMessage next(Duration timeout) throws InterruptedException {
        JsonRpcMessage m = messages.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (m == null) {
            fail("no message within " + timeout + (cause != null ? "; transport closed: " + cause : ""));
        }
        return m;
    }

    JsonRpcMessage next() throws InterruptedException {
        return next(SOON);
    }

    /** Returns the next response (skipping notifications and requests), failing after {@link #SOON}. */
    JsonRpcMessage.Response nextResponse() throws InterruptedException {
        while (true) {
            JsonRpcMessage m = next();
            if (m instanceof JsonRpcMessage.Response r) {
                return r;
            }
            if (m instanceof JsonRpcMessage.ErrorResponse e) {
                fail("error response: " + e);
            }
        }
    }

    /** Returns the response with the given id, skipping anything else. */
    JsonRpcMessage.Response responseTo(long id) throws InterruptedException {
        while (true) {
            JsonRpcMessage.Response r = nextResponse();
            if (r.id().equals(RequestId.of(id))) {
                return r;
            }
        }
    }

    /** Waits for {@code onClosed}, failing after {@code timeout}. */
    McpTransportException awaitClosed(Duration timeout) throws InterruptedException {
        assertThat(closed.await(timeout.toMillis(), TimeUnit.MILLISECONDS))
                .as("onClosed within " + timeout).isTrue();
        return cause;
    }

    McpTransportException awaitClosed() throws InterruptedException {
        return awaitClosed(SOON);
    }
}
