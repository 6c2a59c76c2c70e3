package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.TestServer.json;
import static dev.loommcp.transport.http.TestServer.result;
import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.McpClosedException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.TestSendContext;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every thread the transport starts for one send comes from that send's {@link dev.loommcp.spi.SendContext#fork}
 * (the core's request scope owns it): a queued exchange, a one-way POST; none is left after the exchange or after
 * {@link HttpTransport#close()}, which aborts the exchanges so that those threads end; a send whose request has
 * ended already starts nothing and sends nothing; a request whose caller waits starts no thread at all (issue 28).
 */
@ExtendWith(LeakCheck.class)
class HttpSendThreadsTest extends ServerTestBase {

    private static final Duration WAIT = Duration.ofSeconds(20);

    private static JsonRpcMessage.Request request(long id) {
        return new JsonRpcMessage.Request(RequestId.of(id), "tools/call", Map.of("name", "t"));
    }

    private HttpTransport transport() {
        return open(HttpTransport.newBuilder(server.uri("/mcp")));
    }

    private void answerEverything() {
        server.handler((req, ex) -> {
            if (req.rpcId() == null) {
                TestServer.status(ex, 202);
            } else {
                json(ex, 200, result(req.rpcId(), "{}"));
            }
        });
    }

    @Test
    void aQueuedRequestRunsOnAThreadOfItsSendAndLeavesNoneBehind() throws Exception {
        answerEverything();
        HttpTransport t = transport();
        TestSendContext ctx = TestSendContext.of(1);
        t.send(request(1), ctx);
        assertThat(sink.next(WAIT)).isInstanceOf(JsonRpcMessage.Response.class);
        assertThat(ctx.forked()).singleElement()
                .satisfies(th -> assertThat(th.getName()).startsWith("mcp-http-send-"));
        assertThat(ctx.forkedEnded(WAIT)).as("the send's thread ended after the exchange").isTrue();
    }

    @Test
    void aModernQueuedRequestRunsOnAThreadOfItsSendToo() throws Exception {
        answerEverything();
        HttpTransport t = transport();
        TestSendContext ctx = TestSendContext.of(1).routing(HttpModernTest.routing("tools/call", "t"));
        t.send(request(1), ctx);
        assertThat(sink.next(WAIT)).isInstanceOf(JsonRpcMessage.Response.class);
        assertThat(ctx.forked()).hasSize(1);
        assertThat(ctx.forkedEnded(WAIT)).isTrue();
    }

    @Test
    void aNotificationIsPostedOnAThreadOfItsSend() throws Exception {
        answerEverything();
        HttpTransport t = transport();
        TestSendContext ctx = TestSendContext.none();
        t.send(new JsonRpcMessage.Notification("notifications/cancelled", Map.of("requestId", 7)), ctx);
        assertThat(server.nextRequest()).satisfies(r -> assertThat(r.rpcMethod())
                .isEqualTo("notifications/cancelled"));
        assertThat(ctx.forked()).singleElement()
                .satisfies(th -> assertThat(th.getName()).startsWith("mcp-http-send-"));
        assertThat(ctx.forkedEnded(WAIT)).isTrue();
    }

    @Test
    void aRequestWhoseCallerWaitsStartsNoThread() throws Exception {
        answerEverything();
        HttpTransport t = transport();
        TestSendContext ctx = TestSendContext.of(1).waiting();
        t.send(request(1), ctx);
        assertThat(sink.messages()).hasSize(1);
        assertThat(ctx.forked()).as("the exchange ran on the caller's thread").isEmpty();
    }

    @Test
    void closeAbortsAQueuedExchangeSoThatItsThreadEnds() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        server.handler((req, ex) -> {
            release.await(30, TimeUnit.SECONDS);
            json(ex, 200, result(req.rpcId(), "{}"));
        });
        HttpTransport t = transport();
        TestSendContext ctx = TestSendContext.of(1);
        t.send(request(1), ctx);
        server.nextRequest(); // the server holds the POST
        t.close();
        assertThat(ctx.forkedEnded(WAIT)).as("the send's thread ended after close").isTrue();
        assertThat(sink.awaitSendFailure(RequestId.of(1), WAIT)).isInstanceOf(McpClosedException.class);
        assertThat(t.activeExchangeCount()).isZero();
        release.countDown();
    }

    /**
     * {@code activeExchangeCount()} is zero as soon as {@code close()} returns, as documented, even while the aborted
     * exchange's thread (the core's, through the send's fork) is still unwinding (a fresh clone's run once saw 1).
     */
    @Test
    void noExchangeCountsAsActiveOnceCloseReturned() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        server.handler((req, ex) -> {
            release.await(30, TimeUnit.SECONDS);
            json(ex, 200, result(req.rpcId(), "{}"));
        });
        HttpTransport t = transport();
        TestSendContext ctx = TestSendContext.of(1);
        t.send(request(1), ctx);
        server.nextRequest(); // the server holds the POST
        t.close();
        assertThat(t.activeExchangeCount()).as("right after close()").isZero();
        assertThat(ctx.forkedEnded(WAIT)).isTrue();
        release.countDown();
    }

    @Test
    void aSendWhoseRequestHasEndedStartsNothingAndSendsNothing() throws Exception {
        answerEverything();
        HttpTransport t = transport();
        TestSendContext ended = TestSendContext.of(1).end();
        t.send(request(1), ended);
        t.send(new JsonRpcMessage.Notification("notifications/cancelled", Map.of("requestId", 1)),
                TestSendContext.none().end());
        assertThat(ended.forked()).isEmpty();
        assertThat(sink.sendFailures()).as("nobody waits for an ended request: no news").isEmpty();
        assertThat(t.sender().oneWayInFlightCount()).as("the refused one-way POST is not counted in flight")
                .isZero();
        // a request sent afterwards goes out: nothing of the ended ones went before it
        t.send(request(2), TestSendContext.of(2).waiting());
        assertThat(server.requests("POST")).singleElement()
                .satisfies(r -> assertThat(((Number) r.rpcId()).longValue()).isEqualTo(2));
    }
}
