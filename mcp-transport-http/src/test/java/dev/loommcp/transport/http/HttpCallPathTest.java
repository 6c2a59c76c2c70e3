package dev.loommcp.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.testing.LeakCheck;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The path of one request from {@link HttpTransport#send} to the HTTP client, as frames: recorded by a client (the
 * {@link HttpConnector} seam) that takes a stack trace when the transport hands it a request. Each frame names its
 * step, and no step turns back into an earlier one (no method of the module appears twice); a request whose caller
 * waits runs on the calling thread, down to the client's blocking {@code send}. The lists are logged at INFO for
 * the record (issue 28).
 */
@ExtendWith(LeakCheck.class)
class HttpCallPathTest extends ServerTestBase {

    private static final System.Logger LOG = System.getLogger(HttpCallPathTest.class.getName());
    private static final String PACKAGE = "dev.loommcp.transport.http.";
    /** Test classes of the package: not on the transport's path. */
    private static final Set<String> TEST_CLASSES = Set.of("HttpCallPathTest", "DelegatingClient", "TestContext");

    /** The stacks the recording client saw, one per request it was handed. */
    private final List<List<String>> stacks = new CopyOnWriteArrayList<>();
    /** The same stacks from {@code McpClient}'s outermost frame, for requests an McpClient made. */
    private final List<List<String>> fromClient = new CopyOnWriteArrayList<>();

    /**
     * The frames of loom-mcp's main code on the current thread, from the outermost {@code McpClient} frame down to the
     * client ({@code last}), as {@code Class.method} with the package after {@code dev.loommcp.}; empty when no
     * McpClient frame is on the stack.
     */
    private static List<String> pathFromTheFacade(String last) {
        List<String> frames = new ArrayList<>();
        for (StackTraceElement e : Thread.currentThread().getStackTrace()) {
            String c = e.getClassName();
            if (!c.startsWith("dev.loommcp.") || TEST_CLASSES.contains(c.replaceAll(".*\\.", "")
                    .replaceAll("\\$.*", "")) || c.contains("Test")) {
                continue;
            }
            frames.add(c.substring("dev.loommcp.".length()) + "." + e.getMethodName());
        }
        List<String> top = new ArrayList<>(frames.reversed());
        int facade = top.indexOf("McpClient.callTool");
        if (facade < 0) {
            return List.of();
        }
        List<String> path = new ArrayList<>(top.subList(facade, top.size()));
        path.add(last);
        return path;
    }

    /** A connector of the scheme {@code frames:} whose client records the stack of each request it is handed. */
    private final class Recording extends LoopbackConnector {
        Recording() {
            super(server, "frames");
        }

        @Override
        public HttpClient newClient(URI endpoint, Options options) {
            return new DelegatingClient(super.newClient(endpoint, options)) {
                @Override
                public <T> HttpResponse<T> send(HttpRequest r, HttpResponse.BodyHandler<T> h)
                        throws java.io.IOException, InterruptedException {
                    stacks.add(path("HttpClient.send"));
                    fromClient.add(pathFromTheFacade("HttpClient.send"));
                    return super.send(r, h);
                }

                @Override
                public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest r,
                                                                        HttpResponse.BodyHandler<T> h) {
                    stacks.add(path("HttpClient.sendAsync"));
                    return super.sendAsync(r, h);
                }
            };
        }
    }

    /**
     * The frames of the current thread from the outermost frame of the transport's main code down to the client
     * ({@code last}), as {@code Class.method}.
     */
    private static List<String> path(String last) {
        List<String> frames = new ArrayList<>();
        for (StackTraceElement e : Thread.currentThread().getStackTrace()) {
            String c = e.getClassName();
            if (!c.startsWith(PACKAGE)) {
                continue;
            }
            String simple = c.substring(PACKAGE.length());
            if (TEST_CLASSES.contains(simple.replaceAll("\\$.*", ""))) {
                continue;
            }
            frames.add(simple + "." + e.getMethodName());
        }
        List<String> top = new ArrayList<>(frames.reversed());
        top.add(last);
        return top;
    }

    private HttpTransport transport(HttpTransport.Builder b) {
        return open(b);
    }

    private HttpTransport.Builder recording() {
        return HttpTransport.newBuilder(URI.create("frames:/mcp"), new Recording());
    }

    private List<String> onePost(HttpTransport t, TestContext ctx) throws Exception {
        stacks.clear();
        t.send(new JsonRpcMessage.Request(RequestId.of(1), "tools/call", Map.of("name", "t")), ctx);
        assertThat(sink.next(HttpTransportTest.WAIT)).isInstanceOf(JsonRpcMessage.Response.class);
        assertThat(stacks).hasSize(1);
        return stacks.get(0);
    }

    private void answerEveryRequest() {
        server.handler((req, ex) -> TestServer.json(ex, 200, TestServer.result(req.rpcId(), "{}")));
    }

    private static void record(String name, List<String> frames) {
        LOG.log(Level.INFO, "{0} ({1} frames):\n  {2}", name, frames.size(), String.join("\n  ", frames));
    }

    /** No method of the module appears twice on the path: no step turns back into an earlier one. */
    private static void assertStraight(List<String> frames) {
        Set<String> seen = new HashSet<>();
        for (String f : frames) {
            assertThat(seen.add(f)).as("%s appears twice in %s", f, frames).isTrue();
        }
    }

    @Test
    void aLegacyPostWhoseCallerWaitsReachesTheClientsBlockingSendOnTheCallingThread() throws Exception {
        answerEveryRequest();
        List<String> frames = onePost(transport(recording()), TestContext.of(1).waiting());
        record("legacy POST, caller waits", frames);
        assertThat(frames).containsExactly("HttpTransport.send", "Sender.startRequest", "Sender.exchange",
                "LegacyDialect.postRequest", "Redirects.send", "RefusalRetry.send", "Transmit.send",
                "HttpClient.send");
        assertStraight(frames);
    }

    /**
     * The whole path of a legacy {@code tools/call} whose caller waits, from {@code McpClient.callTool} to the HTTP
     * client's blocking {@code send}: at most 14 frames before it, each naming its step, none twice, entering the
     * engine's {@code Session} once (issue 28, section 3).
     */
    @Test
    void aLegacyToolCallReachesTheClientsSendInAtMost14FramesFromTheFacade() throws Exception {
        server.handler((req, ex) -> {
            switch (String.valueOf(req.rpcMethod())) {
                case "initialize" -> TestServer.json(ex, 200, TestServer.result(req.rpcId(),
                        "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{}},"
                                + "\"serverInfo\":{\"name\":\"frames\",\"version\":\"1\"}}"));
                case "tools/call" -> TestServer.json(ex, 200, TestServer.result(req.rpcId(),
                        "{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}"));
                default -> TestServer.status(ex, 202);
            }
        });
        try (dev.loommcp.McpClient client = dev.loommcp.McpClient.newBuilder(recording().build())
                .protocolMode(dev.loommcp.config.ProtocolMode.LEGACY).build()) {
            client.connect();
            fromClient.clear();
            assertThat(client.callTool("echo", Map.of()).text()).isEqualTo("ok");
        }
        assertThat(fromClient).hasSize(1);
        List<String> frames = fromClient.get(0);
        record("legacy tools/call from McpClient.callTool", frames);
        assertThat(frames.getLast()).isEqualTo("HttpClient.send");
        assertThat(frames.size() - 1).as("frames before HttpClient.send: %s", frames).isLessThanOrEqualTo(14);
        assertThat(frames).filteredOn(f -> f.startsWith("internal.session.Session.")).hasSize(1);
        assertStraight(frames);
    }

    @Test
    void aModernPostWhoseCallerWaitsReachesTheClientsBlockingSendOnTheCallingThread() throws Exception {
        answerEveryRequest();
        List<String> frames = onePost(transport(recording()),
                TestContext.of(1).routing(HttpModernTest.routing("tools/call", "t")).waiting());
        record("modern POST, caller waits", frames);
        assertThat(frames).containsExactly("HttpTransport.send", "Sender.startRequest", "Sender.exchange",
                "ModernDialect.postRequest", "Redirects.send", "RefusalRetry.send", "Transmit.send",
                "HttpClient.send");
        assertStraight(frames);
    }

    @Test
    void aQueuedLegacyPostRunsOnItsOwnThread() throws Exception {
        answerEveryRequest();
        List<String> frames = onePost(transport(recording()), TestContext.of(1));
        record("legacy POST, queued", frames);
        assertThat(frames).doesNotContain("HttpTransport.send");
        assertThat(frames.subList(1, frames.size())).containsExactly("Sender.runQueued", "Sender.exchange",
                "LegacyDialect.postRequest", "Redirects.send", "RefusalRetry.send", "Transmit.send",
                "Transmit.sendAsync", "HttpClient.sendAsync");
        assertStraight(frames);
    }

    @Test
    void aPostWithAnAuthorizationProviderAndASignerPassesTheirSteps() throws Exception {
        answerEveryRequest();
        AuthorizationProvider auth = new AuthorizationProvider() {
            @Override
            public Map<String, String> credentials(AuthorizationRequest request) {
                return Map.of("Authorization", "Bearer t");
            }

            @Override
            public boolean onChallenge(AuthorizationRequest request, AuthorizationFailure failure) {
                return false;
            }
        };
        List<String> frames = onePost(transport(recording().authorization(auth)
                .requestSigner((m, u, h, b) -> Map.of("X-Signature", "s"))), TestContext.of(1).waiting());
        record("legacy POST with authorization and signer, caller waits", frames);
        // user code in the exchange: it runs on a thread of its own, and passes the two steps that call it
        assertThat(frames.subList(1, frames.size())).containsExactly("Sender.runQueued", "Sender.exchange",
                "LegacyDialect.postRequest", "Authorization.send", "Redirects.send", "RefusalRetry.send",
                "Authorization$Credentials.send", "Signing.send", "Transmit.send", "Transmit.sendAsync",
                "HttpClient.sendAsync");
        assertStraight(frames);
    }
}
