package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.HttpTransportTest.INITIALIZED;
import static dev.loommcp.transport.http.HttpTransportTest.WAIT;
import static dev.loommcp.transport.http.HttpTransportTest.initResult;
import static dev.loommcp.transport.http.HttpTransportTest.initialize;
import static dev.loommcp.transport.http.HttpTransportTest.request;
import static dev.loommcp.transport.http.TestServer.json;
import static dev.loommcp.transport.http.TestServer.result;
import static dev.loommcp.transport.http.TestServer.sse;
import static dev.loommcp.transport.http.TestServer.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpClient;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.McpClosedException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpTransportException;
import dev.loommcp.RequestOptions;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.Deadline;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.RecordingSink;
import dev.loommcp.testing.TestSendContext;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Faults of issue 8: replay errors, unsendable event ids, retry floors, deadlines, close races and bounds. */
@ExtendWith(LeakCheck.class)
class HttpTransportFaultsTest {

    TestServer server;
    RecordingSink sink;
    final List<HttpTransport> opened = new CopyOnWriteArrayList<>();
    final CountDownLatch release = new CountDownLatch(1);

    /** WARNING (and above) records of the transport's logger. */
    final List<LogRecord> warnings = new CopyOnWriteArrayList<>();
    final Logger jul = Logger.getLogger("dev.loommcp.transport.http");
    final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord r) {
            if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
                warnings.add(r);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void start() throws Exception {
        server = new TestServer();
        sink = new RecordingSink();
        jul.addHandler(capture);
    }

    @AfterEach
    void stop() {
        release.countDown();
        for (HttpTransport t : opened) {
            t.close();
            assertThat(t.activeExchangeCount()).isZero();
        }
        server.close();
        jul.removeHandler(capture);
    }

    HttpTransport open(HttpTransport.Builder b) throws InterruptedException {
        HttpTransport t = b.build();
        opened.add(t);
        t.open(TransportContext.of(sink, Deadline.NONE));
        return t;
    }

    HttpTransport open() throws InterruptedException {
        return open(HttpTransport.newBuilder(server.uri("/mcp")));
    }

    static String notification(String method) {
        return "{\"jsonrpc\":\"2.0\",\"method\":\"" + method + "\"}";
    }

    // ------------------------------------------------------------------------------------------------------------
    // item 13: a failed replay of notifications/initialized

    // (a failed renewal after a 404 is the client's now: HttpSessionExpiryTest)
    // ------------------------------------------------------------------------------------------------------------
    // item 14: event ids that cannot be sent back as a header; runtime exceptions in background streams

    @Test
    void anUnsendableEventIdIsNoneWhenAResponseStreamIsResumed() throws Exception {
        for (String bad : List.of("bad\u4e2d", "bad\u0007bell", "bad\u007fdel")) {
            server.requests.clear();
            server.handler((req, ex) -> {
                OutputStream out = sse(ex);
                if (req.method().equals("POST")) {
                    write(out, "id: good\nretry: 10\ndata:\n\n");
                    write(out, "id: " + bad + "\ndata:\n\n");
                }
            });
            try (HttpTransport t = open()) {
                assertThatThrownBy(() -> t.exchange(request(3, "tools/call"), TestSendContext.of(3)))
                        .isInstanceOf(McpTransportException.class)
                        .hasMessageContaining("no event id");
            }
            assertThat(server.requests("GET")).isEmpty();
        }
    }

    @Test
    void anUnsendableEventIdOnTheGetStreamIsNoneAndTheStreamGoesOn() throws Exception {
        AtomicInteger gets = new AtomicInteger();
        List<String> lastIds = new CopyOnWriteArrayList<>();
        server.handler((req, ex) -> {
            if (!req.method().equals("GET")) {
                TestServer.status(ex, 202);
                return;
            }
            int n = gets.incrementAndGet();
            lastIds.add(String.valueOf(req.header("Last-Event-ID")));
            OutputStream out = sse(ex);
            if (n == 1) {
                write(out, "retry: 10\nid: g\u00e9\u4e2d\ndata: " + notification("first") + "\n\n");
                return;
            }
            write(out, "id: g2\ndata: " + notification("second") + "\n\n");
            release.await(20, TimeUnit.SECONDS);
        });
        HttpTransport t = open();
        t.handshakeCompleted("2025-11-25");
        assertThat(sink.next(WAIT)).isEqualTo(new JsonRpcMessage.Notification("first", null));
        assertThat(sink.next(WAIT)).isEqualTo(new JsonRpcMessage.Notification("second", null));
        assertThat(lastIds).containsExactly("null", "null");
    }

    @Test
    void aRuntimeExceptionInTheGetStreamIsLoggedAtWarningAndTheStreamGoesOn() throws Exception {
        AtomicInteger gets = new AtomicInteger();
        server.handler((req, ex) -> {
            if (!req.method().equals("GET")) {
                TestServer.status(ex, 202);
                return;
            }
            int n = gets.incrementAndGet();
            OutputStream out = sse(ex);
            write(out, "retry: 10\nid: g" + n + "\ndata: " + notification("n" + n) + "\n\n");
            if (n > 1) {
                release.await(20, TimeUnit.SECONDS);
            }
        });
        AtomicInteger calls = new AtomicInteger();
        sink.onMessage(m -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("a broken sink");
            }
        });
        HttpTransport t = open();
        t.handshakeCompleted("2025-11-25");
        assertThat(sink.next(WAIT)).isEqualTo(new JsonRpcMessage.Notification("n1", null));
        assertThat(sink.next(WAIT)).isEqualTo(new JsonRpcMessage.Notification("n2", null));
        assertThat(warnings).anySatisfy(r -> assertThat(r.getMessage() + r.getParameters() + r.getThrown())
                .contains("GET stream"));
    }

    @Test
    void aProtocolVersionThatCannotBeAHeaderIsNeverSent() throws Exception {
        statefulServer();
        HttpTransport t = open();
        t.handshakeCompleted("2025-11-25\r\nX-Injected: 1");
        t.exchange(request(2, "tools/list"), TestSendContext.of(2));
        TestServer.Req post = server.requests("POST").get(0);
        assertThat(post.header("MCP-Protocol-Version")).isNull();
        assertThat(post.header("X-Injected")).isNull();
        assertThat(warnings).anySatisfy(r -> assertThat(r.getMessage()).contains("cannot be sent"));
    }

    // ------------------------------------------------------------------------------------------------------------
    // item 1 (HTTP part): streams waiting for bytes park their virtual threads and hold no carrier

    @Test
    void manyOpenStreamsLeaveCarriersFreeForOtherVirtualThreads() throws Exception {
        // each transport parks two virtual threads (its GET stream and a sender): more than the carriers, had they
        // pinned them (the scheduler's parallelism defaults to the processor count)
        int streams = Math.min(Runtime.getRuntime().availableProcessors() + 4, 68);
        CountDownLatch allOpen = new CountDownLatch(2 * streams);
        server.handler((req, ex) -> {
            OutputStream out = sse(ex); // a GET stream or a request's response stream: open, quiet
            write(out, ": open\n\n");
            allOpen.countDown();
            release.await(30, TimeUnit.SECONDS);
        });
        List<Thread> senders = new ArrayList<>();
        for (int i = 0; i < streams; i++) {
            HttpTransport t = open();
            t.handshakeCompleted("2025-11-25");
            long id = i;
            senders.add(Thread.ofVirtual().start(() -> {
                try {
                    t.exchange(request(id, "tools/call"), TestSendContext.of(id));
                } catch (Exception expected) {
                    // closed at the end of the test
                }
            }));
        }
        assertThat(allOpen.await(30, TimeUnit.SECONDS)).as("every GET and response stream is open").isTrue();
        CountDownLatch ran = new CountDownLatch(1);
        Thread.ofVirtual().start(ran::countDown);
        assertThat(ran.await(10, TimeUnit.SECONDS)).as("a fresh virtual thread still gets a carrier").isTrue();
        for (HttpTransport t : opened) {
            t.close();
        }
        for (Thread s : senders) {
            assertThat(s.join(Duration.ofSeconds(20))).isTrue();
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // item 15: reconnection delays have a floor

    @Test
    void retryZeroOnTheGetStreamStillWaitsTheFloorBetweenReconnects() throws Exception {
        List<Long> arrivals = new CopyOnWriteArrayList<>();
        server.handler((req, ex) -> {
            if (!req.method().equals("GET")) {
                TestServer.status(ex, 202);
                return;
            }
            arrivals.add(req.nanos());
            if (arrivals.size() > 4) {
                TestServer.status(ex, 405); // stop: enough reconnects seen
                return;
            }
            OutputStream out = sse(ex);
            write(out, "retry: 0\nid: g" + arrivals.size() + "\ndata: " + notification("n") + "\n\n");
        });
        HttpTransport t = open();
        t.handshakeCompleted("2025-11-25");
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> arrivals.size() == 5);
        assertGapsAtLeastTheFloor(arrivals);
    }

    @Test
    void retryZeroOnAResponseStreamStillWaitsTheFloorBeforeEachResumption() throws Exception {
        List<Long> arrivals = new CopyOnWriteArrayList<>();
        server.handler((req, ex) -> {
            arrivals.add(req.nanos());
            OutputStream out = sse(ex);
            if (req.method().equals("POST")) {
                write(out, "id: a\nretry: 0\ndata:\n\n");
            }
        });
        try (HttpTransport t = open()) {
            assertThatThrownBy(() -> t.exchange(request(3, "tools/call"), TestSendContext.of(3)))
                    .isInstanceOf(McpTransportException.class)
                    .hasMessageContaining("could not be resumed");
        }
        assertThat(arrivals).hasSize(1 + HttpTransport.MAX_STREAM_ATTEMPTS);
        assertGapsAtLeastTheFloor(arrivals);
    }

    @Test
    void aSubMillisecondReconnectDelayStillWaitsTheFloor() throws Exception {
        List<Long> arrivals = new CopyOnWriteArrayList<>();
        server.handler((req, ex) -> {
            if (req.method().equals("GET")) {
                arrivals.add(req.nanos());
                TestServer.status(ex, 503);
            } else {
                TestServer.status(ex, 202);
            }
        });
        HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).reconnectDelay(Duration.ofNanos(1)));
        t.handshakeCompleted("2025-11-25");
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60))
                .until(() -> arrivals.size() == HttpTransport.MAX_STREAM_ATTEMPTS + 1);
        assertGapsAtLeastTheFloor(arrivals);
    }

    static void assertGapsAtLeastTheFloor(List<Long> arrivals) {
        List<Long> gaps = new ArrayList<>();
        for (int i = 1; i < arrivals.size(); i++) {
            gaps.add(TimeUnit.NANOSECONDS.toMillis(arrivals.get(i) - arrivals.get(i - 1)));
        }
        assertThat(gaps).as("milliseconds between reconnects").allSatisfy(
                g -> assertThat(g).isGreaterThanOrEqualTo(HttpTransport.MIN_RECONNECT.toMillis()));
    }

    // ------------------------------------------------------------------------------------------------------------
    // item 16: at its deadline a call fails with the timeout exception, whichever transport timer fires

    @Test
    void theDeadlinePassingWhileWaitingForHeadersIsATimeout() throws Exception {
        // the header timer (bounded by the deadline) fires; the core's cancel never comes in this test
        assertTimesOutAtItsDeadline((req, ex) -> release.await(20, TimeUnit.SECONDS), Duration.ofMinutes(5));
    }

    @Test
    void theDeadlinePassingWhileAStreamIsIdleIsATimeoutNotAnIdleFailure() throws Exception {
        assertTimesOutAtItsDeadline((req, ex) -> {
            OutputStream out = sse(ex);
            write(out, ": open\n\n");
            release.await(20, TimeUnit.SECONDS);
        }, Duration.ofMillis(800));
    }

    @Test
    void theDeadlinePassingWhileAJsonBodyIsIdleIsATimeoutNotAnIdleFailure() throws Exception {
        assertTimesOutAtItsDeadline((req, ex) -> {
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(200, 100);
            write(ex.getResponseBody(), "{\"jsonrpc\":");
            release.await(20, TimeUnit.SECONDS);
        }, Duration.ofMillis(800));
    }

    @Test
    void theDeadlinePassingWhileAnErrorBodyIsIdleIsATimeoutNotAStatusFailure() throws Exception {
        assertTimesOutAtItsDeadline((req, ex) -> {
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(500, 100);
            write(ex.getResponseBody(), "{\"jsonrpc\":");
            release.await(20, TimeUnit.SECONDS);
        }, Duration.ofMillis(800));
    }

    @Test
    void theDeadlinePassingWhileWaitingToResumeIsATimeout() throws Exception {
        assertTimesOutAtItsDeadline((req, ex) -> {
            OutputStream out = sse(ex);
            if (req.method().equals("POST")) {
                write(out, "id: a\nretry: 5000\ndata:\n\n"); // then ends without the response
            } else {
                release.await(20, TimeUnit.SECONDS);
            }
        }, Duration.ofMinutes(5));
        assertThat(server.requests("GET")).as("no resumption after the deadline").isEmpty();
    }

    /**
     * Issue 26 item 17: a server's {@code retry} of 999,999,999 ms is cut to {@link HttpTransport#MAX_SERVER_RETRY}
     * (30 s), and a call whose deadline passes while it waits to resume says so.
     */
    @Test
    void aHugeServerRetryIsCutAndATimeoutWhileWaitingToResumeSaysSo() throws Exception {
        server.handler((req, ex) -> {
            OutputStream out = sse(ex);
            if (req.method().equals("POST")) {
                write(out, "id: a\nretry: 999999999\ndata:\n\n"); // then ends without the response
            } else {
                release.await(20, TimeUnit.SECONDS);
            }
        });
        HttpTransport t = open();
        TestSendContext ctx = new TestSendContext(RequestId.of(4), Duration.ofMillis(300));
        assertThatThrownBy(() -> t.exchange(request(4, "tools/call"), ctx))
                .isInstanceOf(McpTimeoutException.class)
                .hasMessageContaining("tools/call (id 4) timed out: its deadline passed while waiting 30000 ms to "
                        + "resume the response stream (the server's SSE retry, which is capped at 30000 ms)");
        assertThat(HttpTransport.MAX_SERVER_RETRY).isEqualTo(Duration.ofSeconds(30));
    }

    /** Under the client, the call's own timeout says what the transport was waiting for (issue 26 item 17). */
    @Test
    void underTheClientATimeoutWhileWaitingToResumeSaysSo() throws Exception {
        server.handler((req, ex) -> {
            if (answeredPlumbingOrAccepted(req, ex)) {
                return;
            }
            write(sse(ex), "id: a\nretry: 999999999\ndata:\n\n"); // then ends without the response
        });
        try (McpClient client = McpClient.newBuilder(HttpTransport.newBuilder(server.uri("/mcp")).build())
                .protocolMode(ProtocolMode.LEGACY).build()) {
            client.connect();
            assertThatThrownBy(() -> client.callTool("slow", Map.of(), RequestOptions.ofTimeout(Duration.ofMillis(300))))
                    .isInstanceOf(McpTimeoutException.class)
                    .hasMessageContaining("tools/call")
                    .hasMessageContaining("(the transport was waiting 30000 ms to resume the response stream (the "
                            + "server's SSE retry, which is capped at 30000 ms))");
        }
    }

    /**
     * Break test 40, finding 2: an answer that is valid JSON but over a read limit of the parser (nested deeper than
     * 500 levels, its id after the nesting) fails its call at once naming the limit, in an SSE response stream and
     * in a JSON body alike, instead of being skipped while the call waits out its deadline; the client stays usable.
     */
    @Test
    void anAnswerOverAReadLimitFailsItsCallAtOnceNamingTheLimit() throws Exception {
        String deep = "[".repeat(600) + "]".repeat(600);
        server.handler((req, ex) -> {
            if (answeredPlumbingOrAccepted(req, ex)) {
                return;
            }
            String answer = req.body().contains("\"good\"") ? result(req.rpcId(), "{\"content\":[]}")
                    : "{\"jsonrpc\":\"2.0\",\"result\":{\"content\":[],\"structuredContent\":{\"a\":" + deep
                            + "}},\"id\":" + TestServer.idJson(req.rpcId()) + "}";
            if (req.body().contains("\"sse\"")) {
                OutputStream out = sse(ex);
                write(out, "event: message\ndata: " + answer + "\n\n");
                out.close();
            } else {
                json(ex, 200, answer);
            }
        });
        try (McpClient client = McpClient.newBuilder(HttpTransport.newBuilder(server.uri("/mcp")).build())
                .protocolMode(ProtocolMode.LEGACY).requestTimeout(Duration.ofMinutes(5)).build()) {
            client.connect();
            for (String tool : List.of("sse", "json")) {
                assertThatThrownBy(() -> client.callTool(tool, Map.of(), RequestOptions.ofTimeout(
                        Duration.ofSeconds(60))))
                        .as(tool)
                        .isInstanceOfSatisfying(dev.loommcp.McpProtocolException.class, e -> assertThat(e.getMessage())
                                .contains("tools/call").contains("read limit").contains("nesting depth (501)"));
                assertThat(client.callTool("good", Map.of()).content()).isEmpty();
            }
            assertThat(client.pendingRequestCount()).isZero();
        }
    }

    /** An SSE event that is not JSON-RPC is skipped with a WARNING that names the stream and the problem. */
    @Test
    void anSseEventThatIsNotJsonRpcIsSkippedWithAWarning() throws Exception {
        assertTimesOutAtItsDeadline((req, ex) -> {
            OutputStream out = sse(ex);
            write(out, "event: message\ndata: {not json\n\n");
            release.await(20, TimeUnit.SECONDS);
        }, Duration.ofMinutes(5));
        assertThat(warnings).extracting(LogRecord::getMessage)
                .anyMatch(m -> m.contains("response stream of POST tools/call (id 4): skipped an SSE event that is "
                        + "not JSON-RPC: not valid JSON"));
        assertThat(sink.skipped()).anyMatch(m -> m.contains("skipped an SSE event that is not JSON-RPC"));
    }

    /**
     * A server that breaks the connection mid-answer: the failure says what the HTTP client saw (an EOF, a short
     * body), not only an exception's class.
     */
    @Test
    void anAnswerCutShortNamesWhatWentWrong() throws Exception {
        failureOfACallAnsweredWith(id -> "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                + "Content-Length: 500\r\nConnection: close\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":" + id)
                .hasMessageMatching("(?s).*\\(\\w*(Exception|Error): [^)]+\\).*");
    }

    /** What a {@code tools/call} (id 4) fails with when the server's whole answer is the given text. */
    org.assertj.core.api.AbstractThrowableAssert<?, ? extends Throwable> failureOfACallAnsweredWith(
            java.util.function.Function<Object, String> answer) throws Exception {
        try (RawHttpServer raw = new RawHttpServer(id -> answer.apply(id)
                .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1))) {
            HttpTransport t = open(HttpTransport.newBuilder(raw.uri("/mcp")));
            return assertThatThrownBy(() -> t.exchange(request(4, "tools/call"), new TestSendContext(RequestId.of(4),
                    Duration.ofSeconds(20))))
                    .isInstanceOf(McpTransportException.class)
                    .hasMessageContaining("tools/call (id 4)");
        }
    }

    /**
     * The JDK's HTTP client quotes a malformed response header, value included, in its exception's message: the
     * failure names the exception and leaves that message out (a header value never reaches an error message).
     */
    @Test
    void aMalformedResponseHeaderNeverShowsItsValue() throws Exception {
        failureOfACallAnsweredWith(id -> "HTTP/1.1 200 OK\r\nX-Token: secret-\u0001-value\r\n"
                + "Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
                .hasMessageContaining("is not valid HTTP (ProtocolException)")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("secret"));
    }

    /**
     * An answer whose Content-Length is not a length (RFC 9112 section 6.3: a framing error) is the server's fault,
     * named as such: the JDK's client fails on one that is no number with a bare RuntimeException, takes a negative
     * one as a length to wait for, and takes the first of two different ones. The value is never shown.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"Content-Length: secret-value",
        "Content-Length: -5", "Content-Length: +2", "Content-Length: 2, 2", "Content-Length: 2\r\nContent-Length: 3"})
    void anAnswerWhoseContentLengthIsNotALengthIsNotValidHttp(String lengthHeaders) throws Exception {
        failureOfACallAnsweredWith(id -> "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                + lengthHeaders + "\r\nConnection: close\r\n\r\n{}")
                .hasMessageContaining("is not valid HTTP (")
                .hasMessageMatching("(?s).*\\((its Content-Length is not a length|it has two different Content-Length"
                        + " values)\\).*")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("secret").doesNotContain("refused"));
    }

    @Test
    void contentLengthsAreCheckedAsRfc9112Says() {
        java.util.function.Function<List<String>, String> problem = values -> Exchange.contentLengthProblem(
                java.net.http.HttpHeaders.of(Map.of("Content-Length", values), (k, v) -> true));
        assertThat(problem.apply(List.of("0"))).isNull();
        assertThat(problem.apply(List.of("123"))).isNull();
        assertThat(problem.apply(List.of("12", "012"))).as("the same length twice").isNull();
        assertThat(problem.apply(List.of())).isNull();
        assertThat(problem.apply(List.of("12", "13"))).isEqualTo("it has two different Content-Length values");
        for (String bad : List.of("", "-1", "+1", "1 2", "1,1", "0x10", "1e3", "9".repeat(19))) {
            assertThat(problem.apply(List.of(bad))).as(bad).isEqualTo("its Content-Length is not a length");
        }
    }

    /**
     * A JSON answer that declares more bytes than the message limit fails when its headers arrive, as the same
     * size failure the body would have met once read that far, not when the body stalls or the deadline passes.
     */
    @Test
    void aJsonAnswerDeclaredOverTheSizeLimitFailsAtItsHeaders() throws Exception {
        server.handler((req, ex) -> {
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(200, 5000);
            write(ex.getResponseBody(), "{\"jsonrpc\":");
            release.await(20, TimeUnit.SECONDS);
        });
        HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).maxMessageSize(1024));
        long start = System.nanoTime();
        assertThatThrownBy(() -> t.exchange(request(4, "tools/call"), new TestSendContext(RequestId.of(4),
                Duration.ofSeconds(20))))
                .isInstanceOf(dev.loommcp.McpProtocolException.class)
                .hasMessageContaining("tools/call (id 4)")
                .hasMessageContaining("larger than the maximum of 1024 bytes");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void aReasonKeepsTheMessageOnlyWhenItQuotesNothing() {
        assertThat(Exchange.reason(new java.io.EOFException("EOF reached while reading")))
                .isEqualTo("EOFException: EOF reached while reading");
        assertThat(Exchange.reason(new java.net.ProtocolException("Invalid header value \"X: v\"")))
                .isEqualTo("ProtocolException");
        assertThat(Exchange.reason(new java.io.IOException("a\nb"))).isEqualTo("IOException");
        assertThat(Exchange.reason(new java.io.IOException())).isEqualTo("IOException");
        assertThat(Exchange.reason(new java.io.IOException("x".repeat(500)))).hasSize(13 + 160 + 3);
    }

    /** A request with a 200 ms deadline (and no core to cancel it) against a server that stalls as given. */
    void assertTimesOutAtItsDeadline(TestServer.Handler stall, Duration idleTimeout) throws Exception {
        server.handler(stall);
        HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).idleTimeout(idleTimeout));
        TestSendContext ctx = new TestSendContext(RequestId.of(4), Duration.ofMillis(200));
        assertThatThrownBy(() -> t.exchange(request(4, "tools/call"), ctx))
                .isInstanceOf(McpTimeoutException.class)
                .hasMessageContaining("tools/call (id 4)");
    }

    @Test
    void underTheClientACallWaitingForHeadersAlwaysTimesOutAndIsCancelledOnTheWire() throws Exception {
        List<Object> cancelled = new CopyOnWriteArrayList<>();
        server.handler((req, ex) -> {
            if (answeredPlumbing(req, ex, () -> "s1")) {
                return;
            }
            if ("notifications/cancelled".equals(req.rpcMethod())) {
                Object tree = dev.loommcp.internal.json.Json.read(req.body());
                cancelled.add(((Map<?, ?>) ((Map<?, ?>) tree).get("params")).get("requestId"));
                TestServer.status(ex, 202);
            } else if (req.rpcId() == null) {
                TestServer.status(ex, 202);
            } else {
                release.await(20, TimeUnit.SECONDS); // the tool never answers
            }
        });
        int rounds = 20; // the race lost about 1 round in 6 before the fix
        try (McpClient client = McpClient.newBuilder(HttpTransport.newBuilder(server.uri("/mcp")).build())
                .protocolMode(ProtocolMode.LEGACY).build()) {
            client.connect();
            for (int i = 0; i < rounds; i++) {
                assertThatThrownBy(() -> client.callTool("slow", Map.of(),
                        RequestOptions.ofTimeout(Duration.ofMillis(100))))
                        .isInstanceOf(McpTimeoutException.class);
                // the exchange ran on this thread, blocked in the HTTP client's send, and was ended by an
                // interrupt (the session's deadline watcher cancelled it, or the header timer fired): never left set
                assertThat(Thread.currentThread().isInterrupted()).as("interrupt flag after round " + i).isFalse();
            }
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> cancelled.size() == rounds);
        }
    }

    /** How the test server treats a {@code tools/call} POST in {@link #aRequestTheServerHasIsCancelledWhenItsAnswerIsLost}. */
    enum LostAnswer {
        /** 200 with an event stream, then nothing: the client's idle timeout ends the read. */
        STREAM_GOES_IDLE(true),
        /** 200 with an event stream that ends without the answer and without an event id to resume from. */
        STREAM_ENDS_EARLY(true),
        /** No response headers at all: the client's header timer (connect timeout plus idle timeout) ends the wait. */
        NO_HEADERS(true),
        /** HTTP 500 without a JSON-RPC body: the server refused the request, there is nothing to cancel. */
        REFUSED(false);

        final boolean serverHasIt;

        LostAnswer(boolean serverHasIt) {
            this.serverHasIt = serverHasIt;
        }
    }

    /**
     * A legacy-era request the server accepted but whose answer the client gave up on after a transport failure
     * (not its deadline) is cancelled on the wire: over Streamable HTTP a lost stream is no cancellation (MCP
     * 2025-11-25, "Transports"), so without the notification the server would go on working for nobody. A request
     * the server refused gets none. Either way the client stays usable.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(LostAnswer.class)
    void aRequestTheServerHasIsCancelledWhenItsAnswerIsLost(LostAnswer mode) throws Exception {
        List<Object> cancelled = new CopyOnWriteArrayList<>();
        List<Object> reasons = new CopyOnWriteArrayList<>();
        server.handler((req, ex) -> {
            if (answeredPlumbing(req, ex, () -> "s1")) {
                return;
            }
            if ("notifications/cancelled".equals(req.rpcMethod())) {
                Map<?, ?> params = (Map<?, ?>) ((Map<?, ?>) dev.loommcp.internal.json.Json.read(req.body()))
                        .get("params");
                cancelled.add(String.valueOf(params.get("requestId")));
                reasons.add(params.get("reason"));
                TestServer.status(ex, 202);
            } else if (req.rpcId() == null) {
                TestServer.status(ex, 202);
            } else if (!"tools/call".equals(req.rpcMethod())) {
                json(ex, 200, result(req.rpcId(), "{}"));
            } else {
                switch (mode) {
                    case STREAM_GOES_IDLE -> {
                        write(sse(ex), ": working\n\n");
                        release.await(20, TimeUnit.SECONDS);
                    }
                    case STREAM_ENDS_EARLY -> write(sse(ex), ": working\n\n");
                    case NO_HEADERS -> release.await(20, TimeUnit.SECONDS);
                    case REFUSED -> TestServer.status(ex, 500);
                }
            }
        });
        HttpTransport transport = HttpTransport.newBuilder(server.uri("/mcp"))
                .connectTimeout(Duration.ofMillis(200)).idleTimeout(Duration.ofMillis(300)).build();
        List<RequestId> failedIds = new CopyOnWriteArrayList<>();
        try (McpClient client = McpClient.newBuilder(transport).protocolMode(ProtocolMode.LEGACY)
                .eventListener(new dev.loommcp.event.McpEventListener() {
                    @Override
                    public void requestFailed(String method, RequestId id, Duration elapsed, Throwable failure) {
                        failedIds.add(id);
                    }
                }).build()) {
            client.connect();
            for (int i = 0; i < 2; i++) {
                assertThatThrownBy(() -> client.callTool("slow", Map.of(),
                        RequestOptions.ofTimeout(Duration.ofSeconds(30))))
                        .isInstanceOf(McpTransportException.class)
                        .hasMessageContaining("tools/call");
                assertThat(Thread.currentThread().isInterrupted()).isFalse();
            }
            client.ping(RequestOptions.DEFAULT); // still usable
            if (mode.serverHasIt) {
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> cancelled.size() == 2);
            }
        }
        // close() lets queued notifications go out first: a refused request got none by now. Each cancel is its own
        // POST sent in the background, so the server may see the two in either order
        assertThat(cancelled).as("requestIds of notifications/cancelled")
                .containsExactlyInAnyOrderElementsOf(mode.serverHasIt ? failedIds.stream().map(id -> String.valueOf(id.value())).toList()
                        : List.of());
        assertThat(reasons).allSatisfy(r -> assertThat(r).asString().contains("stopped waiting"));
    }

    // ------------------------------------------------------------------------------------------------------------
    // item 5: opening or sending on a closed transport

    @Test
    void openAfterCloseThrowsClosed() {
        HttpTransport t = HttpTransport.newBuilder(server.uri("/mcp")).build();
        t.close();
        assertThatThrownBy(() -> t.open(TransportContext.of(sink, Deadline.NONE))).isInstanceOf(McpClosedException.class);
        assertThatThrownBy(() -> t.exchange(request(1, "ping"), TestSendContext.of(1))).isInstanceOf(McpClosedException.class);
    }

    @Test
    void openRacingCloseEitherOpensOrThrowsClosed() throws Exception {
        for (int i = 0; i < 40; i++) {
            HttpTransport t = HttpTransport.newBuilder(server.uri("/mcp")).build();
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
            } catch (McpClosedException expected) {
                // closed first
            } finally {
                assertThat(closer.join(Duration.ofSeconds(20))).isTrue();
                t.close();
            }
            assertThatThrownBy(() -> t.exchange(request(1, "ping"), TestSendContext.of(1)))
                    .isInstanceOf(McpClosedException.class);
        }
    }

    @Test
    void aRequestWhoseSignerSeesTheTransportCloseFailsWithClosed() throws Exception {
        server.handler((req, ex) -> json(ex, 200, result(req.rpcId(), "{}")));
        AtomicReference<HttpTransport> self = new AtomicReference<>();
        HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).requestSigner((method, uri, h, body) -> {
            if (method.equals("POST")) {
                Thread closer = Thread.ofVirtual().start(() -> self.get().close());
                try {
                    closer.join(Duration.ofSeconds(20));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return Map.of();
        }));
        self.set(t);
        assertThatThrownBy(() -> t.exchange(request(1, "tools/list"), TestSendContext.of(1)))
                .isInstanceOf(McpClosedException.class);
    }

    // ------------------------------------------------------------------------------------------------------------
    // item 6: close() bounds its waits

    @Test
    void closeIsBoundedWhenTheSignerBlocksTheDelete() throws Exception {
        statefulServer();
        HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).requestSigner((method, uri, h, body) -> {
            if (method.equals("DELETE")) {
                try {
                    release.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return Map.of();
        }));
        t.exchange(initialize(1), TestSendContext.of(1));
        Thread closer = Thread.ofVirtual().start(t::close);
        assertThat(closer.join(Duration.ofSeconds(30))).as("close() returned within its bound").isTrue();
    }

    @Test
    void closeFromAnInterruptedThreadStillWaitsForItsThreadsAndKeepsTheInterrupt() throws Exception {
        server.handler((req, ex) -> {
            if (req.method().equals("GET")) {
                OutputStream out = sse(ex);
                write(out, "data: " + notification("slow") + "\n\n");
                release.await(20, TimeUnit.SECONDS);
            } else {
                TestServer.status(ex, 202);
            }
        });
        CountDownLatch inSink = new CountDownLatch(1);
        sink.onMessage(m -> {
            // the GET stream's thread is busy for a second and ignores interrupts, like slow sink work
            inSink.countDown();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            while (System.nanoTime() - end < 0) {
                java.util.concurrent.locks.LockSupport.parkNanos(end - System.nanoTime());
            }
        });
        HttpTransport t = open();
        t.handshakeCompleted("2025-11-25");
        assertThat(inSink.await(10, TimeUnit.SECONDS)).isTrue();
        AtomicReference<List<String>> left = new AtomicReference<>();
        AtomicReference<Boolean> interruptKept = new AtomicReference<>();
        Thread closer = Thread.ofVirtual().start(() -> {
            Thread.currentThread().interrupt();
            t.close();
            interruptKept.set(Thread.currentThread().isInterrupted());
            left.set(LeakCheck.mcpThreads().stream().map(Thread::getName)
                    .filter(n -> n.startsWith("mcp-http")).toList());
        });
        assertThat(closer.join(Duration.ofSeconds(30))).isTrue();
        assertThat(interruptKept.get()).isTrue();
        assertThat(left.get()).as("threads of the transport left running after close()").isEmpty();
    }

    void statefulServer() {
        server.handler((req, ex) -> {
            if (answeredPlumbing(req, ex, () -> "s1")) {
                return;
            }
            if (req.rpcId() == null) {
                TestServer.status(ex, 202);
            } else {
                json(ex, 200, result(req.rpcId(), "{}"));
            }
        });
    }

    /**
     * Answers what every stateful test server answers alike: no GET stream (405), DELETE (204), and initialize with
     * a new session id from {@code newSession}.
     *
     * @return whether the request was answered
     */
    /** {@link #answeredPlumbing} with session {@code s1}, and a notification accepted (202). */
    static boolean answeredPlumbingOrAccepted(TestServer.Req req, com.sun.net.httpserver.HttpExchange ex)
            throws java.io.IOException {
        if (answeredPlumbing(req, ex, () -> "s1")) {
            return true;
        }
        if (req.rpcId() == null) {
            TestServer.status(ex, 202);
            return true;
        }
        return false;
    }

    static boolean answeredPlumbing(TestServer.Req req, com.sun.net.httpserver.HttpExchange ex,
                                    java.util.function.Supplier<String> newSession) throws java.io.IOException {
        if (!req.method().equals("POST")) {
            TestServer.status(ex, req.method().equals("DELETE") ? 204 : 405);
            return true;
        }
        if ("initialize".equals(req.rpcMethod())) {
            ex.getResponseHeaders().set("Mcp-Session-Id", newSession.get());
            json(ex, 200, initResult(req.rpcId(), "2025-11-25"));
            return true;
        }
        return false;
    }
}
