package dev.loommcp.transport.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import dev.loommcp.McpClient;
import dev.loommcp.McpClosedException;
import dev.loommcp.McpSessionExpiredException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpTransportException;
import dev.loommcp.RequestOptions;
import dev.loommcp.internal.json.Json;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.Implementation;
import dev.loommcp.Deadline;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.RecordingSink;
import dev.loommcp.testing.TestSendContext;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The HTTP+SSE transport of 2024-11-05 against a fake legacy server (GET /sse announces {@code /messages?sessionId=},
 * every answer comes on the stream) that misbehaves on purpose, under the real {@link McpClient}; and the fallback of
 * the Streamable HTTP transport to it. Every test checks that no thread is left ({@link LeakCheck}).
 */
@ExtendWith(LeakCheck.class)
class SseTransportTest {

    private static final String STOP = "\u0000stop";

    private TestServer server;
    /** What the current GET stream writes next; {@link #STOP} ends it. Each stream has its own. */
    private volatile LinkedBlockingQueue<String> events = new LinkedBlockingQueue<>();
    private final AtomicInteger streams = new AtomicInteger();
    /** The endpoint announced, from the stream's number (1, 2, ...). */
    private volatile Function<Integer, String> endpoint = n -> "/messages?sessionId=s" + n;
    /** The answer to a request, as JSON (or null for none), from its method and params. */
    private volatile Function<Map<?, ?>, String> answers = SseTransportTest::standardAnswer;

    @BeforeEach
    void start() throws IOException {
        server = new TestServer();
        server.handler(this::handle);
    }

    @AfterEach
    void stop() {
        events.add(STOP);
        server.close();
    }

    private void handle(TestServer.Req req, HttpExchange ex) throws Exception {
        String path = req.uri().getPath();
        if (req.method().equals("GET") && (path.equals("/sse") || path.equals("/mcp"))) {
            int n = streams.incrementAndGet();
            LinkedBlockingQueue<String> mine = new LinkedBlockingQueue<>();
            events = mine;
            OutputStream out = TestServer.sse(ex);
            TestServer.write(out, "event: endpoint\ndata: " + endpoint.apply(n) + "\n\n");
            while (true) {
                String e = mine.poll(30, TimeUnit.SECONDS);
                if (e == null || e.equals(STOP)) {
                    return; // ends the stream
                }
                TestServer.write(out, e);
            }
        }
        if (req.method().equals("POST") && path.equals("/messages")) {
            TestServer.status(ex, 202);
            Object tree = Json.read(req.body());
            if (tree instanceof Map<?, ?> m && m.get("id") != null && m.get("method") != null) {
                String answer = answers.apply(m);
                if (answer != null) {
                    events.add("event: message\ndata: " + answer + "\n\n");
                }
            }
            return;
        }
        TestServer.status(ex, 405); // POST /mcp, POST /sse: a legacy server has no Streamable HTTP endpoint
    }

    static String standardAnswer(Map<?, ?> m) {
        Object id = m.get("id");
        return switch ((String) m.get("method")) {
            case "initialize" -> TestServer.result(id, "{\"protocolVersion\":\"2024-11-05\",\"capabilities\":"
                    + "{\"tools\":{}},\"serverInfo\":{\"name\":\"fake-sse\",\"version\":\"1\"}}");
            case "ping" -> TestServer.result(id, "{}");
            case "tools/call" -> ((Map<?, ?>) m.get("params")).get("name").equals("hang") ? null
                    : TestServer.result(id, "{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}");
            default -> "{\"jsonrpc\":\"2.0\",\"id\":" + TestServer.idJson(id)
                    + ",\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}";
        };
    }

    private McpClient.Builder client(McpTransport transport) {
        return McpClient.newBuilder(transport)
                .clientInfo(Implementation.of("sse-fake-test", "1.0"))
                .requestTimeout(Duration.ofSeconds(20));
    }

    private List<TestServer.Req> posts(String method) {
        return server.requests("POST").stream().filter(r -> method.equals(r.rpcMethod())).toList();
    }

    @Test
    void negotiates20241105AndPostsToTheAnnouncedEndpointWithItsQuery() throws Exception {
        try (McpClient client = client(SseTransport.newBuilder(server.uri("/sse"))
                .header("X-Tenant", "t1").build()).build()) {
            client.connect();
            assertThat(client.protocolVersion().orElseThrow()).isEqualTo("2024-11-05");
            assertThat(client.callTool("echo", Map.of()).text()).isEqualTo("done");
        }
        TestServer.Req init = posts("initialize").get(0);
        assertThat(init.uri().getRawQuery()).isEqualTo("sessionId=s1");
        assertThat(init.header("X-Tenant")).isEqualTo("t1");
        assertThat(init.header("Mcp-Session-Id")).isNull();
        assertThat(server.requests("GET").get(0).header("Accept")).isEqualTo("text/event-stream");
        assertThat(server.requests("GET").get(0).header("X-Tenant")).isEqualTo("t1");
    }

    /**
     * Break test 40, finding 2: an answer on the stream that is valid JSON but nested deeper than the parser's limit
     * (its id after the nesting) used to be skipped while its call waited out its deadline; it fails the call at once
     * naming the limit, and the client stays usable.
     */
    @Test
    void anAnswerOverAReadLimitFailsItsCallAtOnceNamingTheLimit() throws Exception {
        String deep = "[".repeat(600) + "]".repeat(600);
        answers = m -> "tools/call".equals(m.get("method"))
                && ((Map<?, ?>) m.get("params")).get("name").equals("deep")
                ? "{\"jsonrpc\":\"2.0\",\"result\":{\"content\":[],\"structuredContent\":{\"a\":" + deep
                        + "}},\"id\":" + TestServer.idJson(m.get("id")) + "}"
                : standardAnswer(m);
        try (McpClient client = client(SseTransport.newBuilder(server.uri("/sse")).build())
                .requestTimeout(Duration.ofMinutes(5)).build()) {
            client.connect();
            assertThatThrownBy(() -> client.callTool("deep", Map.of(), RequestOptions.ofTimeout(
                    Duration.ofSeconds(60))))
                    .isInstanceOfSatisfying(dev.loommcp.McpProtocolException.class, e -> assertThat(e.getMessage())
                            .contains("tools/call").contains("read limit").contains("nesting depth (501)"));
            assertThat(client.callTool("echo", Map.of()).text()).isEqualTo("done");
            assertThat(client.pendingRequestCount()).isZero();
        }
    }

    @Test
    void anEndpointOfAnotherOriginIsRefusedAndNothingIsPosted() {
        endpoint = n -> "http://127.0.0.2:" + server.port() + "/messages?sessionId=x";
        try (McpClient client = client(SseTransport.newBuilder(server.uri("/sse")).build()).build()) {
            assertThatThrownBy(client::connect).isInstanceOf(McpTransportException.class)
                    .hasMessageContaining("announced an endpoint of another origin (http://127.0.0.2:")
                    .hasMessageContaining("refused");
        }
        assertThat(server.requests("POST")).isEmpty();
    }

    @Test
    void anEndpointThatIsNoUriReferenceIsRefused() {
        endpoint = n -> "http://[broken";
        try (McpClient client = client(SseTransport.newBuilder(server.uri("/sse")).build()).build()) {
            assertThatThrownBy(client::connect).isInstanceOf(dev.loommcp.McpException.class)
                    .hasMessageContaining("endpoint event is not a URI reference");
        }
    }

    @Test
    void aGetThatIsNoEventStreamFailsOpenNamingWhatCame() throws Exception {
        server.handler((req, ex) -> TestServer.json(ex, 200, "{}"));
        try (McpClient client = client(SseTransport.newBuilder(server.uri("/sse")).build()).build()) {
            assertThatThrownBy(client::connect).hasMessageContaining("not an SSE stream (Content-Type "
                    + "application/json)");
        }
    }

    @Test
    void aStreamEndingMidCallFailsTheCallAtOnceAndTheNextCallStartsANewSession() throws Exception {
        try (McpClient client = client(SseTransport.newBuilder(server.uri("/sse")).build()).build()) {
            client.connect();
            CompletableFuture<Object> hung = CompletableFuture.supplyAsync(() -> {
                try {
                    return client.callTool("hang", Map.of());
                } catch (Exception e) {
                    throw new java.util.concurrent.CompletionException(e);
                }
            }, java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
            awaitPost("tools/call");
            events.add(STOP); // the server ends the stream with the call in flight
            assertThatThrownBy(() -> hung.get(10, TimeUnit.SECONDS)).cause()
                    .isInstanceOf(McpSessionExpiredException.class)
                    .hasMessageContaining("SSE stream of " + "http://127.0.0.1:" + server.port())
                    .hasMessageContaining("was lost")
                    .hasMessageContaining("cannot resume");
            // a new call opens a new stream, runs initialize in it, and goes through
            client.ping();
            assertThat(streams.get()).isEqualTo(2);
            assertThat(posts("initialize")).hasSize(2);
            assertThat(posts("ping").get(0).uri().getRawQuery()).isEqualTo("sessionId=s2");
            // the non-idempotent call was not sent again
            assertThat(posts("tools/call")).hasSize(1);
        }
    }

    @Test
    void aStreamLostWhileIdleMakesTheNextCallStartANewSession() throws Exception {
        SseTransport transport = SseTransport.newBuilder(server.uri("/sse")).build();
        try (McpClient client = client(transport).build()) {
            client.connect();
            events.add(STOP);
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (transport.messageEndpoint().isPresent() && System.nanoTime() < end) {
                Thread.sleep(10); // until the reader saw the end of the stream
            }
            assertThat(transport.messageEndpoint()).isEmpty();
            // ping is safe to repeat: it goes through in the new session
            client.ping();
            assertThat(posts("initialize")).hasSize(2);
            assertThat(posts("ping")).hasSize(1);
            assertThat(posts("ping").get(0).uri().getRawQuery()).isEqualTo("sessionId=s2");
        }
    }

    @Test
    void aPostAnswered404EndsTheSessionAndASafeCallGoesThroughInANewOne() throws Exception {
        try (McpClient client = client(SseTransport.newBuilder(server.uri("/sse")).build()).build()) {
            client.connect();
            // the server forgets session s1 (a restart) while its stream stays open
            server.handler((req, ex) -> {
                if (req.method().equals("POST") && "sessionId=s1".equals(req.uri().getRawQuery())) {
                    TestServer.status(ex, 404);
                } else {
                    handle(req, ex);
                }
            });
            client.ping(); // refused with 404, then sent again in the new session (ping is safe to repeat)
            assertThat(streams.get()).isEqualTo(2);
            assertThat(posts("ping")).extracting(r -> r.uri().getRawQuery())
                    .containsExactly("sessionId=s1", "sessionId=s2");
            assertThatThrownBy(() -> client.callTool("hang", Map.of(),
                    RequestOptions.newBuilder().timeout(Duration.ofMillis(200)).build()))
                    .isInstanceOf(McpTimeoutException.class); // the new session works as any other
        }
    }

    @Test
    void anEventOverTheSizeLimitFailsTheCallWithTheLimitNamed() throws Exception {
        answers = m -> m.get("method").equals("tools/call")
                ? TestServer.result(m.get("id"), "{\"content\":[{\"type\":\"text\",\"text\":\"" + "x".repeat(20_000)
                + "\"}]}") : standardAnswer(m);
        try (McpClient client = client(SseTransport.newBuilder(server.uri("/sse")).maxMessageSize(8192).build())
                .build()) {
            client.connect();
            assertThatThrownBy(() -> client.callTool("big", Map.of()))
                    .isInstanceOf(McpSessionExpiredException.class)
                    .hasMessageContaining("was lost (SSE line longer than the maximum of 8192 bytes)");
        }
    }

    @Test
    void aDeadlineFailsTheCallAndSendsCancelledOnTheWire() throws Exception {
        try (McpClient client = client(SseTransport.newBuilder(server.uri("/sse")).build()).build()) {
            client.connect();
            assertThatThrownBy(() -> client.callTool("hang", Map.of(),
                    RequestOptions.newBuilder().timeout(Duration.ofMillis(300)).build()))
                    .isInstanceOf(McpTimeoutException.class);
            Object callId = posts("tools/call").get(0).rpcId();
            TestServer.Req cancelled = awaitPost("notifications/cancelled");
            Map<?, ?> params = (Map<?, ?>) ((Map<?, ?>) Json.read(cancelled.body())).get("params");
            assertThat(((Number) params.get("requestId")).longValue()).isEqualTo(((Number) callId).longValue());
            assertThat(cancelled.uri().getRawQuery()).isEqualTo("sessionId=s1");
            client.ping(); // the session goes on
        }
    }

    @Test
    void closeWithACallInFlightEndsTheCallTheStreamAndEveryThread() throws Exception {
        SseTransport transport = SseTransport.newBuilder(server.uri("/sse")).build();
        McpClient client = client(transport).build();
        client.connect();
        CompletableFuture<Object> hung = new CompletableFuture<>();
        Thread caller = Thread.ofVirtual().start(() -> {
            try {
                hung.complete(client.callTool("hang", Map.of()));
            } catch (Exception e) {
                hung.completeExceptionally(e);
            }
        });
        awaitPost("tools/call");
        client.close();
        assertThatThrownBy(() -> hung.get(10, TimeUnit.SECONDS)).cause().isInstanceOf(McpClosedException.class);
        caller.join(Duration.ofSeconds(10));
        assertThat(transport.activeExchangeCount()).isZero();
        assertThat(transport.messageEndpoint()).isEmpty();
        // LeakCheck: no mcp- thread (the stream's reader, the POST threads, the HTTP client's) outlives close
    }

    @Test
    void streamableHttpFallsBackWhenInitializeIsRefusedAndAGetAnnouncesAnEndpoint() throws Exception {
        try (McpClient client = client(HttpTransport.newBuilder(server.uri("/mcp")).build()).build()) {
            client.connect();
            assertThat(client.protocolVersion().orElseThrow()).isEqualTo("2024-11-05");
            assertThat(client.callTool("echo", Map.of()).text()).isEqualTo("done");
        }
        // the probe and initialize were POSTed to /mcp and refused; initialize went again to the announced endpoint
        assertThat(server.requests("POST").stream().filter(r -> r.uri().getPath().equals("/mcp"))
                .map(TestServer.Req::rpcMethod)).containsExactly("server/discover", "initialize");
        assertThat(posts("initialize").get(1).uri().getRawQuery()).isEqualTo("sessionId=s1");
        assertThat(server.requests("GET")).hasSize(1);
    }

    /** Issue 28: a request's POST and a notification's run on threads of their sends; none is left behind. */
    @Test
    void eachPostRunsOnAThreadOfItsSend() throws Exception {
        RecordingSink sink = new RecordingSink();
        TestSendContext request = TestSendContext.of(1);
        TestSendContext notification = TestSendContext.none();
        try (SseTransport t = SseTransport.newBuilder(server.uri("/sse")).build()) {
            t.open(TransportContext.of(sink, Deadline.NONE));
            t.send(new JsonRpcMessage.Request(RequestId.of(1), "ping", Map.of()), request);
            assertThat(sink.next(Duration.ofSeconds(20))).isInstanceOf(JsonRpcMessage.Response.class);
            t.send(new JsonRpcMessage.Notification("notifications/initialized", Map.of()), notification);
            assertThat(request.forkedEnded(Duration.ofSeconds(20))).isTrue();
            assertThat(notification.forkedEnded(Duration.ofSeconds(20))).isTrue();
            // a send whose request has ended already starts nothing
            TestSendContext ended = TestSendContext.of(2).end();
            t.send(new JsonRpcMessage.Request(RequestId.of(2), "ping", Map.of()), ended);
            assertThat(ended.forked()).isEmpty();
        }
        assertThat(request.forked()).singleElement()
                .satisfies(th -> assertThat(th.getName()).startsWith("mcp-http-send-"));
        assertThat(notification.forked()).hasSize(1);
        assertThat(posts("notifications/initialized")).hasSize(1);
        assertThat(posts("ping")).hasSize(1);
    }

    /** Issue 28: the fallback for the refused {@code initialize} runs on a thread of that request's send. */
    @Test
    void theFallbackRunsOnAThreadOfTheRefusedRequestsSend() throws Exception {
        RecordingSink sink = new RecordingSink();
        TestSendContext init = TestSendContext.of(1).waiting();
        try (HttpTransport t = HttpTransport.newBuilder(server.uri("/mcp")).build()) {
            t.open(TransportContext.of(sink, Deadline.NONE));
            t.send(HttpTransportTest.initialize(1), init);
            assertThat(sink.next(Duration.ofSeconds(20))).isInstanceOf(JsonRpcMessage.Response.class);
            assertThat(init.forked()).extracting(Thread::getName).anyMatch(n -> n.startsWith("mcp-http-sse-fallback-"));
            assertThat(init.forkedEnded(Duration.ofSeconds(20))).isTrue();
        }
    }

    /** Issue 28: when the refused request has ended already, no fallback starts and its failure is the refusal. */
    @Test
    void aRefusedRequestThatHasEndedAlreadyDoesNotFallBack() throws Exception {
        RecordingSink sink = new RecordingSink();
        TestSendContext init = TestSendContext.of(1).waiting().end(); // the exchange runs inline: only the fallback forks
        try (HttpTransport t = HttpTransport.newBuilder(server.uri("/mcp")).build()) {
            t.open(TransportContext.of(sink, Deadline.NONE));
            t.send(HttpTransportTest.initialize(1), init);
            assertThat(sink.awaitSendFailure(RequestId.of(1), Duration.ofSeconds(20)))
                    .isInstanceOfSatisfying(McpHttpStatusException.class, e -> assertThat(e.statusCode())
                            .isEqualTo(405));
        }
        assertThat(init.forked()).isEmpty();
        assertThat(server.requests("GET")).as("no fallback GET").isEmpty();
    }

    @Test
    void withoutAnEventStreamTheFallbackGivesTheOriginalStatusWithTheGetsFailureSuppressed() {
        server.handler((req, ex) -> TestServer.status(ex, 404));
        try (McpClient client = client(HttpTransport.newBuilder(server.uri("/mcp")).build()).build()) {
            assertThatThrownBy(client::connect).isInstanceOf(McpHttpStatusException.class)
                    .satisfies(e -> {
                        assertThat(((McpHttpStatusException) e).statusCode()).isEqualTo(404);
                        assertThat(e.getSuppressed()).anySatisfy(s -> assertThat(s)
                                .hasMessageContaining("GET of the SSE stream failed with HTTP 404"));
                    });
        }
        assertThat(server.requests("GET")).hasSize(1); // one try, no loop
    }

    @Test
    void aGetStreamThatDoesNotStartWithAnEndpointEndsTheFallbackAtOnce() {
        // a Streamable HTTP server that refuses initialize but whose GET opens a stream of its own
        server.handler((req, ex) -> {
            if (req.method().equals("GET")) {
                OutputStream out = TestServer.sse(ex);
                TestServer.write(out, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n\n");
                Thread.sleep(30_000); // the stream stays open: only the first event can tell
                return;
            }
            TestServer.status(ex, 400);
        });
        // the message shows the first event decided it (waiting out the deadline would say "sent no endpoint event")
        try (McpClient client = client(HttpTransport.newBuilder(server.uri("/mcp")).build()).build()) {
            assertThatThrownBy(client::connect).isInstanceOf(McpHttpStatusException.class)
                    .satisfies(e -> assertThat(e.getSuppressed()).anySatisfy(s -> assertThat(s)
                            .hasMessageContaining("not an endpoint event")));
        }
    }

    private TestServer.Req awaitPost(String method) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < end) {
            List<TestServer.Req> p = posts(method);
            if (!p.isEmpty()) {
                return p.get(0);
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no POST of " + method);
    }
}
