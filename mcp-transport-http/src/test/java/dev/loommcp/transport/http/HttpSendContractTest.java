package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.TestServer.json;
import static dev.loommcp.transport.http.TestServer.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpClient;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.McpException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.Deadline;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.RecordingSink;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The one send contract (issue 9 item 4): {@code send} queues and returns; a request's exchange runs on the
 * transport's own thread and its failure reaches the sink; one-way messages the core awaits are delivered before
 * {@code send} returns; {@code close()} lets queued notifications go out before it aborts.
 */
@ExtendWith(LeakCheck.class)
class HttpSendContractTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private TestServer server;
    private final CountDownLatch release = new CountDownLatch(1);

    @BeforeEach
    void start() throws Exception {
        server = new TestServer();
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.close();
    }

    private HttpTransport open(RecordingSink sink) {
        HttpTransport t = HttpTransport.newBuilder(server.uri("/mcp")).build();
        t.open(TransportContext.of(sink, Deadline.NONE));
        return t;
    }

    /** A server that holds each request until {@link #release}, then answers HTTP 500. */
    private CountDownLatch holdThenFail() {
        CountDownLatch arrived = new CountDownLatch(1);
        server.handler((req, ex) -> {
            arrived.countDown();
            release.await(10, TimeUnit.SECONDS);
            TestServer.status(ex, 500);
        });
        return arrived;
    }

    @Test
    void sendReturnsBeforeTheExchangeEndsAndItsFailureReachesTheSink() throws Exception {
        CountDownLatch arrived = holdThenFail();
        RecordingSink sink = new RecordingSink();
        HttpTransport t = open(sink);
        try {
            // returns while the server still holds the POST: the exchange runs on the transport's own thread
            t.send(new JsonRpcMessage.Request(RequestId.of(1), "tools/list", Map.of()), TestContext.of(1));
            assertThat(arrived.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(sink.sendFailures()).isEmpty();
            release.countDown();
            McpException failure = sink.awaitSendFailure(RequestId.of(1), WAIT);
            assertThat(failure).isInstanceOf(McpHttpStatusException.class);
            assertThat(((McpHttpStatusException) failure).statusCode()).isEqualTo(500);
        } finally {
            t.close();
        }
        assertThat(t.activeExchangeCount()).isZero();
    }

    @Test
    void cancellingASentRequestAbortsItsExchangeAndReportsNothing() throws Exception {
        CountDownLatch arrived = holdThenFail();
        RecordingSink sink = new RecordingSink();
        HttpTransport t = open(sink);
        try {
            TestContext ctx = TestContext.of(1);
            t.send(new JsonRpcMessage.Request(RequestId.of(1), "tools/call", Map.of()), ctx);
            assertThat(arrived.await(10, TimeUnit.SECONDS)).isTrue();
            ctx.cancel();
            org.awaitility.Awaitility.await().atMost(WAIT).until(() -> t.activeExchangeCount() == 0);
            assertThat(sink.sendFailures()).isEmpty();
        } finally {
            t.close();
        }
    }

    /** (a) notifications/initialized is answered before the client's next request reaches the server. */
    @Test
    void theInitializedNotificationIsDeliveredBeforeTheNextRequest() throws Exception {
        AtomicLong initializedAnswered = new AtomicLong();
        server.handler((req, ex) -> {
            switch (req.method()) {
                case "GET" -> TestServer.status(ex, 405);
                case "DELETE" -> TestServer.status(ex, 204);
                default -> {
                    String m = req.rpcMethod();
                    if ("initialize".equals(m)) {
                        ex.getResponseHeaders().set("Mcp-Session-Id", "s-1");
                        json(ex, 200, HttpTransportTest.initResult(req.rpcId(), "2025-11-25"));
                    } else if ("notifications/initialized".equals(m)) {
                        Thread.sleep(300); // a slow server: the next request must still come after the answer
                        initializedAnswered.set(System.nanoTime());
                        TestServer.status(ex, 202);
                    } else if (req.rpcId() != null) {
                        json(ex, 200, result(req.rpcId(), "{}"));
                    } else {
                        TestServer.status(ex, 202);
                    }
                }
            }
        });
        try (McpClient client = McpClient.newBuilder(HttpTransport.newBuilder(server.uri("/mcp")).build())
                .protocolMode(ProtocolMode.LEGACY).build()) {
            client.connect();
            client.ping();
        }
        List<TestServer.Req> posts = server.requests("POST");
        assertThat(posts).extracting(TestServer.Req::rpcMethod)
                .startsWith("initialize", "notifications/initialized", "ping");
        assertThat(posts.get(2).nanos() - initializedAnswered.get()).isPositive();
    }

    /** (b) a notification the caller sends is delivered before notify returns; a refused one throws. */
    @Test
    void notifyThrowsWhenTheServerRefusesTheNotification() throws Exception {
        server.handler((req, ex) -> {
            switch (req.method()) {
                case "GET" -> TestServer.status(ex, 405);
                case "DELETE" -> TestServer.status(ex, 204);
                default -> {
                    String m = req.rpcMethod();
                    if ("initialize".equals(m)) {
                        json(ex, 200, HttpTransportTest.initResult(req.rpcId(), "2025-11-25"));
                    } else if ("x/refused".equals(m)) {
                        TestServer.status(ex, 403);
                    } else {
                        TestServer.status(ex, 202);
                    }
                }
            }
        });
        try (McpClient client = McpClient.newBuilder(HttpTransport.newBuilder(server.uri("/mcp")).build())
                .protocolMode(ProtocolMode.LEGACY).build()) {
            client.connect();
            client.notify("x/accepted", Map.of());
            assertThat(server.requests("POST")).extracting(TestServer.Req::rpcMethod).contains("x/accepted");
            assertThatThrownBy(() -> client.notify("x/refused", Map.of()))
                    .isInstanceOf(McpHttpStatusException.class);
        }
    }

    /** (c) close() lets a queued notification go out before it aborts what is in flight. */
    @Test
    void closeLetsAQueuedNotificationGoOut() throws Exception {
        CountDownLatch answered = new CountDownLatch(1);
        server.handler((req, ex) -> {
            if (req.method().equals("POST")) {
                Thread.sleep(300); // slow network: close() arrives while the notification is being sent
                TestServer.status(ex, 202);
                answered.countDown();
            } else {
                TestServer.status(ex, 405);
            }
        });
        RecordingSink sink = new RecordingSink();
        HttpTransport t = open(sink);
        t.send(new JsonRpcMessage.Notification("notifications/cancelled", Map.of("requestId", 3)),
                TestContext.none());
        t.close();
        assertThat(answered.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(server.requests("POST")).hasSize(1);
    }

    /*
     * Answers to server requests and other one-way messages are POSTed on the transport's threads, bounded: beyond
     * the bound they are dropped (counted, WARNING), so a server that accepts none cannot make the client start
     * threads without end, and the sending thread (the reader answering a ping) never waits. This bound moved here
     * from the core's former "respond" threads.
     */
    /** A server that holds each POST until {@link #release} (it takes no message in), then answers 202. */
    private void holdPosts(CountDownLatch arrived, CountDownLatch answered) {
        server.handler((req, ex) -> {
            if (req.method().equals("POST")) {
                arrived.countDown();
                release.await(10, TimeUnit.SECONDS); // the server does not take the messages yet
                TestServer.status(ex, 202);
                answered.countDown();
            } else {
                TestServer.status(ex, 405);
            }
        });
    }

    @Test
    void oneWaySendsBeyondTheBoundAreDroppedAndTheSenderNeverWaits() throws Exception {
        CountDownLatch twoArrived = new CountDownLatch(2);
        CountDownLatch answered = new CountDownLatch(2);
        holdPosts(twoArrived, answered);
        RecordingSink sink = new RecordingSink();
        HttpTransport t = open(sink);
        t.sender().limitOneWayInFlight(2);
        for (int i = 0; i < 5; i++) {
            t.send(new JsonRpcMessage.Response(RequestId.of(i), Map.of()), TestContext.none());
        }
        assertThat(twoArrived.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(t.sender().droppedOneWayCount()).isEqualTo(3);
        release.countDown();
        assertThat(answered.await(10, TimeUnit.SECONDS)).isTrue();
        t.close();
        assertThat(server.requests("POST")).hasSize(2);
    }

    /**
     * Issue 26 item 26: 685 notifications/cancelled dropped at the in-flight bound were reported as "1 dropped"
     * (only the first and every 1000th drop was logged): the WARNINGs together count every drop, and say how many
     * were cancellations.
     */
    @Test
    void everyDroppedCancellationIsCountedInTheWarnings() throws Exception {
        CountDownLatch twoArrived = new CountDownLatch(2);
        holdPosts(twoArrived, new CountDownLatch(2));
        List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Logger jul = java.util.logging.Logger.getLogger("dev.loommcp.transport.http");
        java.util.logging.Handler capture = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord r) {
                if (r.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue()) {
                    warnings.add(new java.util.logging.SimpleFormatter().formatMessage(r));
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        jul.addHandler(capture);
        try {
            HttpTransport t = open(new RecordingSink());
            t.sender().limitOneWayInFlight(2);
            for (int i = 0; i < 2; i++) {
                t.send(new JsonRpcMessage.Response(RequestId.of(i), Map.of()), TestContext.none());
            }
            assertThat(twoArrived.await(10, TimeUnit.SECONDS)).isTrue();
            int cancels = 685;
            for (int i = 0; i < cancels; i++) {
                t.send(new JsonRpcMessage.Notification("notifications/cancelled", Map.of("requestId", i)),
                        TestContext.none());
            }
            t.send(new JsonRpcMessage.Response(RequestId.of(99), Map.of()), TestContext.none());
            assertThat(t.sender().droppedOneWayCount()).isEqualTo(cancels + 1);
            assertThat(t.sender().droppedCancelCount()).isEqualTo(cancels);
            release.countDown();
            t.close();
            java.util.regex.Pattern dropped = java.util.regex.Pattern.compile(
                    "dropped (\\d+) notification\\(s\\) or response\\(s\\) \\((\\d+) of them notifications/cancelled");
            long total = 0;
            long cancelled = 0;
            for (String w : warnings) {
                java.util.regex.Matcher m = dropped.matcher(w);
                if (m.find()) {
                    total += Long.parseLong(m.group(1));
                    cancelled += Long.parseLong(m.group(2));
                }
            }
            assertThat(total).as("every drop reported once: " + warnings).isEqualTo(cancels + 1);
            assertThat(cancelled).as("every dropped cancellation reported once").isEqualTo(cancels);
            assertThat(warnings).anyMatch(w -> w.contains(", " + (cancels + 1) + " in all"));
        } finally {
            jul.removeHandler(capture);
        }
    }
}
