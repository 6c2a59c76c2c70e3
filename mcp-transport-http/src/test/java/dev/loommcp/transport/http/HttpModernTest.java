package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.TestServer.json;
import static dev.loommcp.transport.http.TestServer.result;
import static dev.loommcp.transport.http.TestServer.sse;
import static dev.loommcp.transport.http.TestServer.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.loommcp.McpException;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.Deadline;
import dev.loommcp.spi.RequestRouting;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.TestSendContext;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The modern era (MCP 2026-07-28) of the transport, keyed on {@code SendContext.routing()}: routing headers and
 * their value encoding on the wire, statelessness, the status mapping, response streams, cancel and listen streams
 * (MODERN-ERA.md C.1 items 12-18; conformance scenarios http-standard-headers and http-custom-headers).
 */
@ExtendWith(LeakCheck.class)
class HttpModernTest extends ServerTestBase {

    static final Duration WAIT = Duration.ofSeconds(10);
    static final String V = "2026-07-28";

    HttpTransport open() {
        return open(HttpTransport.newBuilder(server.uri("/mcp")));
    }

    static RequestRouting routing(String method, String name) {
        return new RequestRouting(V, method, name, Map.of());
    }

    static TestSendContext modern(long id, String method) {
        return TestSendContext.of(id).routing(routing(method, null));
    }

    static JsonRpcMessage.Request request(long id, String method) {
        return new JsonRpcMessage.Request(RequestId.of(id), method, Map.of());
    }

    // ------------------------------------------------------------------------------------------- headers on the wire

    @Test
    void everyHeaderAndEncodingCaseArrivesAsTheseExactBytes() throws Exception {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("Region", "us-west1");
        params.put("Priority", "42");
        params.put("Verbose", "false");
        params.put("EmptyVal", "");
        params.put("Method", "test-method");
        params.put("NonAscii", "Hello, 世界");
        params.put("Whitespace", " padded ");
        params.put("LeadingSpace", " us-west1");
        params.put("TrailingSpace", "us-west1 ");
        params.put("InternalSpace", "us west 1");
        params.put("ControlChar", "line1\u0001x");
        params.put("CrLf", "line1\r\nline2");
        params.put("Lf", "line1\nline2");
        params.put("Tab", "\tindented");
        params.put("InnerTab", "a\tb");
        params.put("Del", "a\u007fb");
        params.put("Latin1", "caf\u00e9");
        params.put("Sentinel", "=?base64?literal?=");
        params.put("HalfSentinel", "=?base64?abc");
        try (RawHttpServer raw = new RawHttpServer()) {
            HttpTransport t = open(HttpTransport.newBuilder(raw.uri("/mcp")).header("X-Api-Key", "k-1"));
            t.exchange(new JsonRpcMessage.Request(RequestId.of(7), "tools/call", Map.of("name", "deploy")),
                    TestSendContext.of(7).routing(new RequestRouting(V, "tools/call", "deploy", params)));
            String head = raw.next().head();
            assertThat(head).startsWith("POST /mcp HTTP/1.1\r\n");
            assertThat(head).contains("\r\nAccept: application/json, text/event-stream\r\n",
                    "\r\nContent-Type: application/json\r\n", "\r\nMCP-Protocol-Version: 2026-07-28\r\n",
                    "\r\nMcp-Method: tools/call\r\n", "\r\nMcp-Name: deploy\r\n", "\r\nX-Api-Key: k-1\r\n",
                    "\r\nMcp-Param-Region: us-west1\r\n", "\r\nMcp-Param-Priority: 42\r\n",
                    "\r\nMcp-Param-Verbose: false\r\n", "\r\nMcp-Param-Method: test-method\r\n",
                    "\r\nMcp-Param-InternalSpace: us west 1\r\n",
                    // the spec's own examples ("Value Encoding")
                    "\r\nMcp-Param-NonAscii: =?base64?SGVsbG8sIOS4lueVjA==?=\r\n",
                    "\r\nMcp-Param-Whitespace: =?base64?IHBhZGRlZCA=?=\r\n",
                    "\r\nMcp-Param-Lf: =?base64?bGluZTEKbGluZTI=?=\r\n",
                    "\r\nMcp-Param-Sentinel: =?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=\r\n",
                    "\r\nMcp-Param-LeadingSpace: =?base64?IHVzLXdlc3Qx?=\r\n",
                    "\r\nMcp-Param-TrailingSpace: =?base64?dXMtd2VzdDEg?=\r\n",
                    "\r\nMcp-Param-ControlChar: =?base64?bGluZTEBeA==?=\r\n",
                    "\r\nMcp-Param-CrLf: =?base64?bGluZTENCmxpbmUy?=\r\n",
                    "\r\nMcp-Param-Tab: =?base64?CWluZGVudGVk?=\r\n",
                    "\r\nMcp-Param-InnerTab: =?base64?YQli?=\r\n",
                    "\r\nMcp-Param-Del: =?base64?YX9i?=\r\n",
                    "\r\nMcp-Param-Latin1: =?base64?Y2Fmw6k=?=\r\n",
                    "\r\nMcp-Param-HalfSentinel: =?base64?abc\r\n");
            // the empty string is an empty value (the JDK writes "name: " with nothing after the separator)
            assertThat(head).containsPattern("\r\nMcp-Param-EmptyVal: ?\r\n");
            assertThat(head.toLowerCase(java.util.Locale.ROOT)).doesNotContain("mcp-session-id", "last-event-id");
        }
    }

    @Test
    void mcpNameIsEncodedByTheSameRulesAndOmittedWithoutAName() throws Exception {
        try (RawHttpServer raw = new RawHttpServer()) {
            HttpTransport t = open(HttpTransport.newBuilder(raw.uri("/mcp")));
            t.exchange(new JsonRpcMessage.Request(RequestId.of(1), "resources/read", Map.of()),
                    TestSendContext.of(1).routing(routing("resources/read", "file:///path/to/file%20name.txt")));
            assertThat(raw.next().head()).contains("\r\nMcp-Name: file:///path/to/file%20name.txt\r\n");
            t.exchange(new JsonRpcMessage.Request(RequestId.of(2), "prompts/get", Map.of()),
                    TestSendContext.of(2).routing(routing("prompts/get", "grüße")));
            assertThat(raw.next().head()).contains("\r\nMcp-Name: =?base64?Z3LDvMOfZQ==?=\r\n");
            t.exchange(new JsonRpcMessage.Request(RequestId.of(3), "tools/list", Map.of()), modern(3, "tools/list"));
            String head = raw.next().head();
            assertThat(head).contains("\r\nMcp-Method: tools/list\r\n").doesNotContain("Mcp-Name");
            t.exchange(new JsonRpcMessage.Notification("notifications/x", Map.of()),
                    TestSendContext.none().routing(routing("notifications/x", null)));
            assertThat(raw.next().head()).contains("\r\nMcp-Method: notifications/x\r\n",
                    "\r\nMCP-Protocol-Version: 2026-07-28\r\n");
        }
    }

    @Test
    void encodingRules() {
        assertThat(RoutingHeaders.encode("")).isEmpty();
        assertThat(RoutingHeaders.encode("a b")).isEqualTo("a b");
        assertThat(RoutingHeaders.encode("~!")).isEqualTo("~!");
        assertThat(RoutingHeaders.encode(" ")).isEqualTo("=?base64?IA==?=");
        assertThat(RoutingHeaders.encode("=?base64??=")).isEqualTo("=?base64?PT9iYXNlNjQ/Pz0=?=");
        assertThat(RoutingHeaders.encode("x=?base64?y?=")).isEqualTo("x=?base64?y?=");
    }

    @Test
    void routingThatCannotBeSentAsHeadersIsRefusedAtSendNamingNoValue() throws Exception {
        HttpTransport t = open();
        assertThatThrownBy(() -> t.send(request(1, "tools/list"),
                TestSendContext.of(1).routing(new RequestRouting("2026\n07", "tools/list", null, Map.of()))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("MCP-Protocol-Version")
                .hasMessageNotContaining("2026");
        assertThatThrownBy(() -> t.send(request(2, "tools/call"),
                TestSendContext.of(2).routing(new RequestRouting(V, "tools/call", "x", Map.of("Bad Name", "v")))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("token");
        assertThat(server.requests).isEmpty();
    }

    @Test
    void aSignerSeesTheRoutingHeadersButCannotAddOnesTheTransportOwns() throws Exception {
        server.handler((req, ex) -> json(ex, 200, result(req.rpcId(), "{}")));
        List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).requestSigner((method, uri, h, body) -> {
            seen.add(h.get("Mcp-Method").get(0) + " " + h.get("mcp-param-region").get(0));
            return h.containsKey("Mcp-Name") ? Map.of("Mcp-Param-Forged", "x") : Map.of("Signature", "s");
        }));
        t.exchange(request(1, "tools/list"), TestSendContext.of(1).routing(new RequestRouting(V, "tools/list", null,
                Map.of("Region", "eu"))));
        assertThat(server.requests.get(0).header("Signature")).isEqualTo("s");
        assertThatThrownBy(() -> t.exchange(request(2, "tools/call"), TestSendContext.of(2).routing(
                new RequestRouting(V, "tools/call", "x", Map.of("Region", "eu")))))
                .isInstanceOf(McpTransportException.class).hasMessageContaining("Mcp-Param-Forged")
                .hasMessageContaining("transport sets itself");
        assertThat(seen).containsExactly("tools/list eu", "tools/call eu");
        assertThat(server.requests).hasSize(1);
    }

    // ------------------------------------------------------------------------------------------------ statelessness

    @Test
    void noSessionHeaderNoGetStreamAndNoDeleteInTheModernEra() throws Exception {
        server.handler((req, ex) -> {
            ex.getResponseHeaders().set("Mcp-Session-Id", "server-minted");
            json(ex, 200, result(req.rpcId(), "{}"));
        });
        HttpTransport t = open();
        t.exchange(request(1, "server/discover"), modern(1, "server/discover"));
        t.exchange(request(2, "tools/list"), modern(2, "tools/list"));
        assertThat(t.sessionId()).isEmpty();
        t.close();
        assertThat(server.requests).extracting(TestServer.Req::method).containsExactly("POST", "POST");
        assertThat(server.requests).allSatisfy(r -> assertThat(r.header("Mcp-Session-Id")).isNull());
        assertThat(server.requests.get(1).header("Mcp-Method")).isEqualTo("tools/list");
        assertThat(t.exchangePerRequest()).isTrue();
    }

    @Test
    void serverKeyIsTheWholeEndpointWithTheQueryDigested() {
        HttpTransport t = HttpTransport.newBuilder("HTTP://Example.COM/Api/MCP?key=secret#frag").build();
        assertThat(t.serverKey().orElseThrow()).startsWith("http://example.com:80/Api/MCP?sha256:").doesNotContain("secret")
                .doesNotContain("frag");
        assertThat(HttpTransport.newBuilder("http://example.com/Api/MCP?key=secret").build().serverKey().orElseThrow())
                .isEqualTo(t.serverKey().orElseThrow());
        // two endpoints that differ only in their query are two servers (issue 26 item 13): no shared era verdict
        // or cached server/discover result
        String a = HttpTransport.newBuilder("https://h/mcp?tenant=a").build().serverKey().orElseThrow();
        String b = HttpTransport.newBuilder("https://h/mcp?tenant=b").build().serverKey().orElseThrow();
        assertThat(a).isNotEqualTo(b).isNotEqualTo(HttpTransport.newBuilder("https://h/mcp").build().serverKey().orElseThrow());
        assertThat(HttpTransport.newBuilder("https://h:443/mcp?tenant=a").build().serverKey().orElseThrow()).isEqualTo(a);
        assertThat(HttpTransport.newBuilder("https://h:444/mcp?tenant=a").build().serverKey().orElseThrow()).isNotEqualTo(a);
        assertThat(HttpTransport.newBuilder("https://h:8443").build().serverKey().orElseThrow()).isEqualTo("https://h:8443");
        assertThat(HttpTransport.newBuilder("http://[::1]:9/m").build().serverKey().orElseThrow()).isEqualTo("http://[::1]:9/m");
    }

    // ------------------------------------------------------------------------------------------------ status mapping

    /** Every non-2xx answer with a JSON-RPC error body is the request's answer, except 401/403 and 5xx. */
    @ParameterizedTest(name = "HTTP {0} {1}")
    @CsvSource(delimiter = '|', textBlock = """
            200 | -32602 | 9
            400 | -32022 | 9
            400 | -32021 | 9
            400 | -32020 | 9
            400 | -32602 | 9
            404 | -32601 | 9
            405 | -32000 | null
            400 | -32000 | null
            422 | -32000 | "9"
            """)
    void errorBodiesAreTheRequestsAnswer(int status, int code, String idJson) throws Exception {
        server.handler((req, ex) -> json(ex, status, "{\"jsonrpc\":\"2.0\",\"id\":" + idJson
                + ",\"error\":{\"code\":" + code + ",\"message\":\"m\",\"data\":{\"supported\":[\"" + V + "\"]}}}"));
        HttpTransport t = open();
        t.exchange(request(9, "tools/call"), TestSendContext.of(9).routing(routing("tools/call", "x")));
        JsonRpcMessage m = sink.next(WAIT);
        assertThat(m).isInstanceOf(JsonRpcMessage.ErrorResponse.class);
        JsonRpcMessage.ErrorResponse e = (JsonRpcMessage.ErrorResponse) m;
        assertThat(e.id()).isEqualTo(RequestId.of(9));
        assertThat(e.error().code()).isEqualTo(code);
        assertThat(e.error().data()).isEqualTo(Map.of("supported", List.of(V)));
    }

    /** 401/403 (authorization) and 5xx (a server failure) are no answer and no era evidence; nor is a bodiless 4xx. */
    @ParameterizedTest(name = "HTTP {0} {1}")
    @CsvSource(delimiter = '|', textBlock = """
            401 | application/json | {"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"no"}}
            403 | application/json | {"jsonrpc":"2.0","id":5,"error":{"code":-32000,"message":"no"}}
            500 | application/json | {"jsonrpc":"2.0","id":5,"error":{"code":-32603,"message":"boom"}}
            502 | application/json | {"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"gateway"}}
            503 | text/plain       | down
            400 | text/html        | <html>bad</html>
            400 | application/json | {"error":"not json-rpc"}
            404 | none             | ''
            405 | none             | ''
            """)
    void otherFailuresAreHttpStatusFailures(int status, String type, String body) throws Exception {
        server.handler((req, ex) -> {
            byte[] b = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            if (!type.equals("none")) {
                ex.getResponseHeaders().set("Content-Type", type);
            }
            ex.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
            if (b.length > 0) {
                ex.getResponseBody().write(b);
            }
        });
        HttpTransport t = open();
        t.send(request(5, "tools/list"), modern(5, "tools/list"));
        McpException failure = sink.awaitSendFailure(RequestId.of(5), WAIT);
        assertThat(failure).isInstanceOf(McpHttpStatusException.class);
        assertThat(((McpTransportException) failure).httpStatus()).hasValue(status);
        // an excerpt of the body (issue 27 item 4): a JSON-RPC error's message as text, a page without its markup;
        // nothing of a 401/403 body
        assertThat(failure.getMessage()).contains("HTTP " + status).doesNotContain("<html>", "jsonrpc");
        if (status == 401 || status == 403) {
            assertThat(failure.getMessage()).doesNotContain("the server said");
        }
        assertThat(sink.messages()).isEmpty();
    }

    @Test
    void legacyStillDeliversA5xxErrorBody() throws Exception {
        server.handler((req, ex) -> json(ex, 500, "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32603,"
                + "\"message\":\"boom\"}}"));
        HttpTransport t = open();
        t.exchange(request(3, "tools/list"), TestSendContext.of(3));
        assertThat(sink.next(WAIT)).isInstanceOf(JsonRpcMessage.ErrorResponse.class);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            application/json | {"hello":"world"}                    | malformed JSON answer
            application/json | not json at all                      | malformed JSON answer
            text/html        | <html>ok</html>                      | unsupported content type
            application/json | {"jsonrpc":"2.0","id":99,"result":{}} | held no response
            """)
    void a2xxWithoutTheJsonRpcAnswerFailsNamingIt(String type, String body, String problem) throws Exception {
        server.handler((req, ex) -> {
            byte[] b = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", type);
            ex.sendResponseHeaders(200, b.length);
            ex.getResponseBody().write(b);
        });
        HttpTransport t = open();
        t.send(request(4, "tools/list"), modern(4, "tools/list"));
        McpException failure = sink.awaitSendFailure(RequestId.of(4), WAIT);
        assertThat(failure).isInstanceOf(McpProtocolException.class);
        assertThat(failure.getMessage()).contains("POST tools/list (id 4)").contains(problem);
    }

    // ------------------------------------------------------------------------------------------- response streams

    @Test
    void anSseAnswerDeliversItsNotificationsThenTheResponseIgnoringCommentsIdsAndServerRequests() throws Exception {
        server.handler((req, ex) -> {
            OutputStream out = sse(ex);
            write(out, ": keep-alive\n\nretry: 5\nid: e1\n");
            write(out, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
                    + "\"params\":{\"progressToken\":\"p\",\"progress\":1}}\n\n");
            write(out, "data: {\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"elicitation/create\",\"params\":{}}\n\n");
            write(out, ":\r\n\r\nid: \u0001bad\ndata: {\"jsonrpc\":\"2.0\",\"id\":8,\"result\":{\"ok\":true}}\n\n");
            out.close();
        });
        HttpTransport t = open();
        t.exchange(request(8, "tools/call"), TestSendContext.of(8).routing(routing("tools/call", "slow")));
        assertThat(sink.messages()).hasSize(2);
        assertThat(sink.messages().get(0)).isInstanceOf(JsonRpcMessage.Notification.class);
        assertThat(sink.messages().get(1)).isEqualTo(new JsonRpcMessage.Response(RequestId.of(8),
                Map.of("ok", true)));
        assertThat(sink.skipped()).singleElement().asString().contains("dropped a server request")
                .contains("elicitation/create");
        assertThat(server.requests).hasSize(1);
    }

    @Test
    void aStreamThatEndsWithoutTheResponseFailsTheRequestAtOnceWithoutResuming() throws Exception {
        server.handler((req, ex) -> {
            OutputStream out = sse(ex);
            write(out, "id: resume-me\nretry: 10\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
                    + "\"params\":{\"progressToken\":\"p\",\"progress\":1}}\n\n");
            out.close();
        });
        HttpTransport t = open();
        t.send(request(6, "tools/call"), TestSendContext.of(6).routing(routing("tools/call", "x")));
        McpException failure = sink.awaitSendFailure(RequestId.of(6), WAIT);
        assertThat(failure).isExactlyInstanceOf(McpTransportException.class)
                .hasMessageContaining("POST tools/call (id 6)").hasMessageContaining("ended before the response");
        assertThat(server.requests).extracting(TestServer.Req::method).containsExactly("POST"); // no GET resumption
    }

    @Test
    void cancellingAbortsTheExchangeAndTheServerSeesTheConnectionClose() throws Exception {
        CountDownLatch streaming = new CountDownLatch(1);
        CountDownLatch serverSawClose = new CountDownLatch(1);
        server.handler((req, ex) -> {
            OutputStream out = sse(ex);
            streaming.countDown();
            try {
                for (int i = 0; i < 400; i++) { // 20 s at most
                    write(out, ": tick\n\n");
                    Thread.sleep(50);
                }
            } catch (IOException e) {
                serverSawClose.countDown();
            }
        });
        HttpTransport t = open();
        TestSendContext ctx = TestSendContext.of(11).routing(routing("tools/call", "long"));
        t.send(request(11, "tools/call"), ctx);
        assertThat(streaming.await(10, TimeUnit.SECONDS)).isTrue();
        ctx.cancel();
        assertThat(serverSawClose.await(10, TimeUnit.SECONDS)).as("the server saw the stream closed").isTrue();
        await().atMost(WAIT).until(() -> t.activeExchangeCount() == 0);
        assertThat(sink.sendFailures()).isEmpty(); // a cancelled call is no news
        assertThat(server.requests).hasSize(1); // no notifications/cancelled POST
    }

    // ------------------------------------------------------------------------------------------------ listen streams

    @Test
    void aRequestWithoutDeadlineOutlivesTheIdleAndHeaderTimeouts() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        server.handler((req, ex) -> {
            Thread.sleep(900); // headers later than connect + idle timeout (200 + 300 ms)
            OutputStream out = sse(ex);
            write(out, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\","
                    + "\"params\":{\"notifications\":{}}}\n\n");
            release.await(20, TimeUnit.SECONDS);
            write(out, "data: " + result(req.rpcId(), "{}") + "\n\n");
            out.close();
        });
        HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).idleTimeout(Duration.ofMillis(300))
                .connectTimeout(Duration.ofMillis(200)));
        TestSendContext listen = new TestSendContext(RequestId.of("L1"), Deadline.NONE)
                .routing(routing("subscriptions/listen", null));
        t.send(new JsonRpcMessage.Request(RequestId.of("L1"), "subscriptions/listen", Map.of()), listen);
        assertThat(sink.next(WAIT)).isInstanceOf(JsonRpcMessage.Notification.class);
        Thread.sleep(1_000); // quiet for more than three idle timeouts: the stream must stay open
        assertThat(sink.sendFailures()).isEmpty();
        assertThat(t.activeExchangeCount()).isEqualTo(1);
        release.countDown();
        assertThat(sink.next(WAIT)).isEqualTo(new JsonRpcMessage.Response(RequestId.of("L1"), Map.of()));
    }

    @Test
    void aJsonAnswerWithoutDeadlineMayPauseLongerThanTheIdleTimeout() throws Exception {
        server.handler((req, ex) -> {
            byte[] b = result(req.rpcId(), "{\"late\":true}").getBytes(java.nio.charset.StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(200, b.length);
            OutputStream out = ex.getResponseBody();
            out.write(b, 0, 5);
            out.flush();
            Thread.sleep(1_000); // more than three idle timeouts in the middle of the body
            out.write(b, 5, b.length - 5);
            out.close();
        });
        HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).idleTimeout(Duration.ofMillis(300)));
        t.exchange(request(14, "resources/read"), new TestSendContext(RequestId.of(14), Deadline.NONE)
                .routing(routing("resources/read", "notes://all")));
        assertThat(sink.next(WAIT)).isEqualTo(new JsonRpcMessage.Response(RequestId.of(14), Map.of("late", true)));
    }

    /** The idle timeout still applies to a modern request with a deadline, and to a legacy one without. */
    @ParameterizedTest(name = "modern={0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {true, false})
    void theIdleTimeoutStaysForModernRequestsWithADeadlineAndForLegacyOnes(boolean modern) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        server.handler((req, ex) -> {
            OutputStream out = sse(ex);
            write(out, ": hello\n\n");
            release.await(20, TimeUnit.SECONDS);
        });
        HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).idleTimeout(Duration.ofMillis(300)));
        TestSendContext ctx = modern ? TestSendContext.of(12).routing(routing("tools/call", "x"))
                : new TestSendContext(RequestId.of(12), Deadline.NONE);
        try {
            t.send(request(12, "tools/call"), ctx);
            assertThat(sink.awaitSendFailure(RequestId.of(12), WAIT)).hasMessageContaining("idle timeout");
        } finally {
            release.countDown();
        }
    }

    @Test
    void cancellingAnUnboundedListenEndsIt() throws Exception {
        AtomicReference<Thread> handler = new AtomicReference<>();
        CountDownLatch streaming = new CountDownLatch(1);
        server.handler((req, ex) -> {
            handler.set(Thread.currentThread());
            OutputStream out = sse(ex);
            write(out, ": open\n\n");
            streaming.countDown();
            Thread.sleep(20_000);
        });
        HttpTransport t = open();
        TestSendContext listen = new TestSendContext(RequestId.of(13), Deadline.NONE)
                .routing(routing("subscriptions/listen", null));
        t.send(request(13, "subscriptions/listen"), listen);
        assertThat(streaming.await(10, TimeUnit.SECONDS)).isTrue();
        listen.cancel();
        await().atMost(WAIT).until(() -> t.activeExchangeCount() == 0);
        handler.get().interrupt();
        assertThat(sink.sendFailures()).isEmpty();
    }
}
