package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.TestServer.json;
import static dev.loommcp.transport.http.TestServer.result;
import static dev.loommcp.transport.http.TestServer.sse;
import static dev.loommcp.transport.http.TestServer.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpExchange;
import dev.loommcp.McpException;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.Deadline;
import dev.loommcp.spi.RequestRouting;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.TestSendContext;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The transport's {@link AuthorizationProvider} hook against the scriptable in-process server: credentials on every
 * request (POST, GET stream and its reconnection, resumption GET, DELETE, redirect hops), their place before the
 * {@link RequestSigner}, 401/403 handed to the provider and resent at most {@link AuthorizationProvider#MAX_RETRIES}
 * times, the provider's exceptions, {@code onResponse}, and nothing changed without a provider; in both eras.
 */
@ExtendWith(LeakCheck.class)
class HttpAuthorizationTest extends ServerTestBase {

    static final Duration WAIT = Duration.ofSeconds(10);
    static final String MODERN = "2026-07-28";
    static final String CHALLENGE = "Bearer error=\"invalid_token\", scope=\"files:read files:write\", "
            + "resource_metadata=\"https://mcp.example/.well-known/oauth-protected-resource\", DPoP algs=\"ES256\"";

    static JsonRpcMessage.Request request(long id, String method) {
        return new JsonRpcMessage.Request(RequestId.of(id), method, Map.of());
    }

    static TestSendContext modern(long id, String method) {
        return TestSendContext.of(id).routing(new RequestRouting(MODERN, method, null, Map.of()));
    }

    /** A provider that records every call; its token, challenge answer and failures are scriptable. */
    static final class Recorder implements AuthorizationProvider {
        final AtomicReference<String> token = new AtomicReference<>("tok-1");
        final List<AuthorizationRequest> asked = new CopyOnWriteArrayList<>();
        final List<AuthorizationRequest> challenged = new CopyOnWriteArrayList<>();
        final List<AuthorizationFailure> failures = new CopyOnWriteArrayList<>();
        final List<String> responses = new CopyOnWriteArrayList<>();
        volatile Function<AuthorizationRequest, Map<String, String>> credentials =
                r -> Map.of("Authorization", "Bearer " + token.get());
        /** What onChallenge does: by default takes the next token ("tok-2", ...) and asks for a resend. */
        volatile Function<AuthorizationFailure, Boolean> onChallenge = f -> {
            token.updateAndGet(t -> "tok-" + (Integer.parseInt(t.substring(4)) + 1));
            return true;
        };
        volatile RuntimeException onResponseFailure;

        @Override
        public Map<String, String> credentials(AuthorizationRequest request) {
            asked.add(request);
            return credentials.apply(request);
        }

        @Override
        public boolean onChallenge(AuthorizationRequest request, AuthorizationFailure failure) {
            challenged.add(request);
            failures.add(failure);
            return onChallenge.apply(failure);
        }

        @Override
        public void onResponse(AuthorizationRequest request, int status, HttpHeaders headers) {
            responses.add(request.method() + " " + request.uri().getPath() + " " + status);
            RuntimeException e = onResponseFailure;
            if (e != null) {
                throw e;
            }
        }

        List<String> askedMethods() {
            return asked.stream().map(r -> r.method() + "#" + r.attempt()).toList();
        }

        @Override
        public String toString() {
            return "Recorder holding " + token.get();
        }
    }

    /** A legacy-era server: requests without "Bearer okToken" are refused; no GET stream; requests get JSON. */
    void legacyServer(String okToken) {
        server.handler((req, ex) -> {
            if (!("Bearer " + okToken).equals(req.header("Authorization"))) {
                challenge(ex, 401);
            } else if (req.method().equals("GET")) {
                TestServer.status(ex, 405);
            } else {
                legacy(req, ex, (r, e) -> json(e, 200, result(r.rpcId(), "{\"ok\":true}")));
            }
        });
    }

    /**
     * Answers a legacy-era POST or DELETE: the DELETE 204, initialize with session "s", notifications 202, any other
     * request as {@code requests} says.
     */
    static void legacy(TestServer.Req req, HttpExchange ex, TestServer.Handler requests) throws Exception {
        if (req.method().equals("DELETE")) {
            TestServer.status(ex, 204);
        } else if ("initialize".equals(req.rpcMethod())) {
            ex.getResponseHeaders().set("Mcp-Session-Id", "s");
            json(ex, 200, HttpTransportTest.initResult(req.rpcId(), "2025-11-25"));
        } else if (req.rpcId() == null) {
            TestServer.status(ex, 202);
        } else {
            requests.handle(req, ex);
        }
    }

    static void challenge(HttpExchange ex, int status) throws IOException {
        ex.getResponseHeaders().add("WWW-Authenticate", CHALLENGE);
        ex.getResponseHeaders().set("DPoP-Nonce", "nonce-7");
        json(ex, status, "{\"error\":\"invalid_token\"}");
    }

    // ------------------------------------------------------------------------------------ credentials on every request

    @Test
    void everyRequestOfALegacySessionCarriesTheCredentialsAndTheSignerSeesThem() throws Exception {
        AtomicInteger plainGets = new AtomicInteger();
        CountDownLatch streamDone = new CountDownLatch(1);
        server.handler((req, ex) -> {
            assertThat(req.header("Authorization")).isEqualTo("Bearer tok-1");
            assertThat(req.header("Signature")).isEqualTo("signed Bearer tok-1");
            if (req.method().equals("GET") && req.header("Last-Event-ID") != null) {
                write(sse(ex), "data: " + result(2, "{}") + "\n\n"); // the resumed request stream
            } else if (req.method().equals("GET")) {
                if (plainGets.incrementAndGet() == 1) {
                    write(sse(ex), "retry: 0\n: the first GET stream ends at once\n\n");
                } else {
                    streamDone.countDown();
                    TestServer.status(ex, 405); // the reconnection: no more streams
                }
            } else {
                // a request's stream ends before its answer: resumed with a GET
                legacy(req, ex, (r, e) -> write(sse(e), "id: ev-1\nretry: 0\ndata:\n\n"));
            }
        });
        Recorder auth = new Recorder();
        List<String> signerSaw = new CopyOnWriteArrayList<>();
        HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp?tenant=a")).authorization(auth)
                .reconnectDelay(Duration.ofMillis(10))
                .requestSigner((method, uri, headers, body) -> {
                    signerSaw.add(method + " " + headers.get("authorization"));
                    return Map.of("Signature", "signed " + headers.get("Authorization").get(0));
                }));
        t.exchange(HttpTransportTest.initialize(1), TestSendContext.of(1));
        t.exchange(HttpTransportTest.INITIALIZED, TestSendContext.none());
        t.handshakeCompleted("2025-11-25");
        assertThat(streamDone.await(10, TimeUnit.SECONDS)).isTrue();
        // the GET stream's thread has seen its last answer before the next request starts (a fixed order below)
        await().atMost(WAIT).until(() -> auth.responses.contains("GET /mcp 405"));
        t.exchange(request(2, "tools/call"), TestSendContext.of(2));
        assertThat(sink.messages()).contains(new JsonRpcMessage.Response(RequestId.of(2), Map.of()));
        t.close();

        assertThat(auth.askedMethods()).containsExactly("POST#0", "POST#0", "GET#0", "GET#0", "POST#0", "GET#0",
                "DELETE#0");
        assertThat(auth.asked).allSatisfy(r -> {
            assertThat(r.endpoint()).isEqualTo(server.uri("/mcp?tenant=a"));
            assertThat(r.uri()).isEqualTo(server.uri("/mcp?tenant=a"));
        });
        // the GET stream has no deadline; every other request has its caller's (or close's)
        assertThat(auth.asked.get(2).deadline()).isEqualTo(Deadline.NONE);
        assertThat(auth.asked.get(3).deadline()).isEqualTo(Deadline.NONE);
        assertThat(auth.asked.get(0).deadline()).isNotEqualTo(Deadline.NONE);
        assertThat(auth.asked.get(5).deadline()).isNotEqualTo(Deadline.NONE);
        assertThat(server.requests).hasSize(7);
        assertThat(signerSaw).hasSize(7).allSatisfy(s -> assertThat(s).endsWith(" [Bearer tok-1]"));
        assertThat(auth.challenged).isEmpty();
        assertThat(auth.responses).containsExactly("POST /mcp 200", "POST /mcp 202", "GET /mcp 200",
                "GET /mcp 405", "POST /mcp 200", "GET /mcp 200", "DELETE /mcp 204");
    }

    @Test
    void everyRedirectHopIsAuthorizedForItsOwnUri() throws Exception {
        server.handler((req, ex) -> {
            String proof = req.header("DPoP");
            assertThat(proof).isEqualTo("proof " + req.method() + " " + req.uri().getPath());
            if (req.uri().getPath().equals("/mcp")) {
                ex.getResponseHeaders().set("Location", "/moved");
                TestServer.status(ex, 307);
            } else {
                json(ex, 200, result(req.rpcId(), "{}"));
            }
        });
        Recorder auth = new Recorder();
        auth.credentials = r -> Map.of("Authorization", "DPoP tok", "DPoP",
                "proof " + r.method() + " " + r.uri().getPath());
        HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).authorization(auth));
        t.exchange(request(1, "tools/list"), TestSendContext.of(1));
        assertThat(auth.asked).extracting(AuthorizationRequest::uri)
                .containsExactly(server.uri("/mcp"), server.uri("/moved"));
        assertThat(auth.asked).extracting(AuthorizationRequest::endpoint).containsOnly(server.uri("/mcp"));
        assertThat(auth.responses).containsExactly("POST /mcp 307", "POST /moved 200");
        assertThat(server.requests).hasSize(2);
    }

    @Test
    void theProvidersCredentialsReplaceACallerHeaderOfTheSameName() throws Exception {
        server.handler((req, ex) -> json(ex, 200, result(req.rpcId(), "{}")));
        Recorder auth = new Recorder();
        HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).header("authorization", "Bearer static")
                .header("X-Other", "kept").authorization(auth).requestSigner((m, u, h, b) -> {
                    assertThat(h.get("Authorization")).containsExactly("Bearer tok-1");
                    return Map.of();
                }));
        t.exchange(request(1, "ping"), TestSendContext.of(1));
        TestServer.Req r = server.requests.get(0);
        List<String> values = r.headers().entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(
                "Authorization")).flatMap(e -> e.getValue().stream()).toList();
        assertThat(values).containsExactly("Bearer tok-1");
        assertThat(r.header("X-Other")).isEqualTo("kept");
    }

    // ------------------------------------------------------------------------------------------------ 401 and 403

    @ParameterizedTest
    @ValueSource(ints = {401, 403})
    void aRefusalIsHandedToTheProviderParsedAndTheRequestIsResentWithNewCredentials(int status) throws Exception {
        server.handler((req, ex) -> {
            if ("Bearer tok-2".equals(req.header("Authorization"))) {
                json(ex, 200, result(req.rpcId(), "{\"ok\":true}"));
            } else {
                challenge(ex, status);
            }
        });
        Recorder auth = new Recorder();
        HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).authorization(auth));
        t.exchange(request(1, "tools/list"), TestSendContext.of(1));
        assertThat(sink.next(WAIT)).isEqualTo(new JsonRpcMessage.Response(RequestId.of(1), Map.of("ok", true)));

        assertThat(server.requests).extracting(r -> r.header("Authorization"))
                .containsExactly("Bearer tok-1", "Bearer tok-2");
        assertThat(server.requests.get(1).body()).isEqualTo(server.requests.get(0).body());
        assertThat(auth.askedMethods()).containsExactly("POST#0", "POST#1");
        assertThat(auth.challenged).singleElement().satisfies(r -> assertThat(r.attempt()).isZero());
        AuthorizationFailure f = auth.failures.get(0);
        assertThat(f.status()).isEqualTo(status);
        assertThat(f.challenges()).extracting(AuthChallenge::scheme).containsExactly("Bearer", "DPoP");
        assertThat(f.challenge("Basic")).isEmpty();
        AuthChallenge bearer = f.challenge("bearer").orElseThrow();
        assertThat(bearer.parameter("error")).contains("invalid_token");
        assertThat(bearer.parameter("scope")).contains("files:read files:write");
        assertThat(bearer.parameter("resource_metadata"))
                .contains("https://mcp.example/.well-known/oauth-protected-resource");
        assertThat(f.challenge("DPoP").flatMap(c -> c.parameter("algs"))).contains("ES256");
        assertThat(f.headers().firstValue("dpop-nonce")).contains("nonce-7");
        assertThat(auth.responses).containsExactly("POST /mcp " + status, "POST /mcp 200");
    }

    @Test
    void aDeclinedChallengeFailsWithTheStatusAsWithoutAProvider() throws Exception {
        server.handler((req, ex) -> challenge(ex, 401));
        Recorder auth = new Recorder();
        auth.onChallenge = f -> false;
        HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).authorization(auth));
        assertThatThrownBy(() -> t.exchange(request(1, "tools/list"), TestSendContext.of(1)))
                .isInstanceOfSatisfying(McpHttpStatusException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(401);
                    assertThat(e.authParameters()).containsEntry("error", "invalid_token");
                })
                .hasMessageEndingWith("failed with HTTP 401"); // nothing was renewed
        assertThat(server.requests).hasSize(1);
        assertThat(auth.challenged).hasSize(1);
    }

    @Test
    void aRequestIsResentAtMostMaxRetriesTimes() throws Exception {
        server.handler((req, ex) -> challenge(ex, 401));
        Recorder auth = new Recorder();
        HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).authorization(auth));
        assertThatThrownBy(() -> t.exchange(request(1, "tools/list"), TestSendContext.of(1)))
                .isInstanceOfSatisfying(McpHttpStatusException.class, e -> assertThat(e.statusCode()).isEqualTo(401))
                // issue 26 (break test 14): the message says the renewed credentials were refused too, and why
                .hasMessageEndingWith("failed with HTTP 401: the server refused the credentials the authorization "
                        + "provider renewed (3 times; WWW-Authenticate error invalid_token)");
        assertThat(server.requests).hasSize(AuthorizationProvider.MAX_RETRIES + 1);
        assertThat(auth.challenged).extracting(AuthorizationRequest::attempt).containsExactly(0, 1, 2);
        assertThat(auth.askedMethods()).containsExactly("POST#0", "POST#1", "POST#2", "POST#3");
        assertThat(server.requests).extracting(r -> r.header("Authorization"))
                .containsExactly("Bearer tok-1", "Bearer tok-2", "Bearer tok-3", "Bearer tok-4");
        assertThat(auth.responses).hasSize(4);
        // the next request starts afresh
        assertThatThrownBy(() -> t.exchange(request(2, "tools/list"), TestSendContext.of(2)))
                .isInstanceOf(McpHttpStatusException.class);
        assertThat(server.requests).hasSize(2 * (AuthorizationProvider.MAX_RETRIES + 1));
    }

    @Test
    void theGetStreamAndTheDeleteAreReauthorizedToo() throws Exception {
        legacyServer("tok-2");
        Recorder auth = new Recorder();
        auth.token.set("tok-2");
        HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).authorization(auth));
        t.exchange(HttpTransportTest.initialize(1), TestSendContext.of(1));
        auth.token.set("tok-1"); // expired meanwhile, as the server will say
        t.handshakeCompleted("2025-11-25");
        await().atMost(WAIT).until(() -> auth.responses.contains("GET /mcp 405")); // the stream is done
        auth.token.set("tok-1");
        t.close();
        assertThat(auth.askedMethods()).containsExactly("POST#0", "GET#0", "GET#1", "DELETE#0", "DELETE#1");
        assertThat(auth.challenged).extracting(AuthorizationRequest::method).containsExactly("GET", "DELETE");
        assertThat(server.requests("GET")).extracting(r -> r.header("Authorization"))
                .containsExactly("Bearer tok-1", "Bearer tok-2");
        assertThat(server.requests("DELETE")).extracting(r -> r.header("Authorization"))
                .containsExactly("Bearer tok-1", "Bearer tok-2");
        assertThat(auth.responses).endsWith("GET /mcp 401", "GET /mcp 405", "DELETE /mcp 401", "DELETE /mcp 204");
    }

    @Test
    void aOneWayMessageIsReauthorizedToo() throws Exception {
        server.handler((req, ex) -> {
            if ("Bearer tok-2".equals(req.header("Authorization"))) {
                TestServer.status(ex, 202);
            } else {
                challenge(ex, 401);
            }
        });
        Recorder auth = new Recorder();
        HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).authorization(auth));
        t.exchange(HttpTransportTest.INITIALIZED, TestSendContext.none());
        assertThat(server.requests).extracting(r -> r.header("Authorization"))
                .containsExactly("Bearer tok-1", "Bearer tok-2");
    }

    // ---------------------------------------------------------------------------------------- provider failures

    @Test
    void aProvidersMcpExceptionFailsTheRequestUnchanged() throws Exception {
        server.handler((req, ex) -> challenge(ex, 401));
        McpException refused = new McpProtocolException("authorization server refused: access_denied");
        Recorder auth = new Recorder();
        auth.credentials = r -> {
            throw refused;
        };
        HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).authorization(auth));
        assertThatThrownBy(() -> t.exchange(request(1, "ping"), TestSendContext.of(1))).isSameAs(refused);
        assertThat(server.requests).isEmpty();

        Recorder second = new Recorder();
        second.onChallenge = f -> {
            throw refused;
        };
        HttpTransport t2 = open(HttpTransport.newBuilder(server.uri("/mcp")).authorization(second));
        assertThatThrownBy(() -> t2.exchange(request(2, "ping"), TestSendContext.of(2))).isSameAs(refused);
        assertThat(server.requests).hasSize(1);

        Recorder third = new Recorder();
        third.onResponseFailure = refused;
        HttpTransport t3 = open(HttpTransport.newBuilder(server.uri("/mcp")).authorization(third));
        assertThatThrownBy(() -> t3.exchange(request(3, "ping"), TestSendContext.of(3))).isSameAs(refused);
        assertThat(server.requests).hasSize(2);
        assertThat(third.challenged).isEmpty();
    }

    @Test
    void aProvidersRuntimeExceptionIsWrappedWithItAsTheCause() throws Exception {
        server.handler((req, ex) -> challenge(ex, 401));
        // issue 26 (break test 4): the cause's message is shown (a quoting one is left out, see below)
        IllegalStateException boom = new IllegalStateException("token cache broken");
        List<Recorder> providers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            providers.add(new Recorder());
        }
        providers.get(0).credentials = r -> {
            throw boom;
        };
        providers.get(1).onChallenge = f -> {
            throw boom;
        };
        providers.get(2).onResponseFailure = boom;
        int id = 0;
        for (Recorder p : providers) {
            HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).authorization(p));
            long n = ++id;
            assertThatThrownBy(() -> t.exchange(request(n, "ping"), TestSendContext.of(n)))
                    .isExactlyInstanceOf(McpTransportException.class)
                    .hasMessageContaining("authorization provider failed (IllegalStateException: token cache broken)")
                    .cause().isSameAs(boom);
        }
        assertThat(server.requests).hasSize(2); // none for the failing credentials, one each for the others
        for (String quoting : new String[] {"bad value \"Bearer abc\"", "two\nlines"}) {
            Recorder p = new Recorder();
            p.credentials = r -> {
                throw new IllegalArgumentException(quoting);
            };
            HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).authorization(p));
            long n = ++id;
            assertThatThrownBy(() -> t.exchange(request(n, "ping"), TestSendContext.of(n)))
                    .hasMessageEndingWith("authorization provider failed (IllegalArgumentException)");
        }
    }

    @Test
    void headersTheTransportOwnsOrTheJdkRefusesAreRefusedNamingThemButNeverTheirValue() throws Exception {
        server.handler((req, ex) -> json(ex, 200, result(req.rpcId(), "{}")));
        Object[][] table = {
                {Map.of("Accept", "secret-1"), "the header Accept, which the transport sets itself"},
                {Map.of("mcp-session-id", "secret-1"), "the header mcp-session-id, which the transport sets itself"},
                {Map.of("MCP-Protocol-Version", "secret-1"), "the header MCP-Protocol-Version, which the transport sets"},
                {Map.of("Mcp-Param-Region", "secret-1"), "the header Mcp-Param-Region, which the transport sets"},
                {Map.of("Host", "secret-1"), "the header Host, which the HTTP client does not allow"},
                {Map.of("Authorization", "Bearer secret-1\r\nX-Injected: 1"), "an invalid value (control or "
                        + "non-ASCII character) for the header Authorization"},
                {Map.of("Bad Name", "secret-1"), "a header name that is not an HTTP token"},
                // the JDK would write it as US-ASCII, "secret-caf?": refused rather than sent altered
                {Map.of("X-Api-Key", "secret-caf\u00e9"), "an invalid value (control or non-ASCII character) for the "
                        + "header X-Api-Key"},
        };
        int id = 0;
        for (Object[] row : table) {
            @SuppressWarnings("unchecked")
            Map<String, String> creds = (Map<String, String>) row[0];
            Recorder auth = new Recorder();
            auth.credentials = r -> creds;
            HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).authorization(auth));
            long n = ++id;
            assertThatThrownBy(() -> t.exchange(request(n, "ping"), TestSendContext.of(n))).as(row[1].toString())
                    .isInstanceOf(McpTransportException.class)
                    .hasMessageContaining("the authorization provider returned " + row[1])
                    .hasMessageNotContaining("secret-1");
        }
        Recorder nul = new Recorder();
        nul.credentials = r -> null;
        HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).authorization(nul));
        assertThatThrownBy(() -> t.exchange(request(99, "ping"), TestSendContext.of(99)))
                .isInstanceOf(McpTransportException.class).hasMessageContaining("authorization provider returned null");
        assertThat(server.requests).isEmpty();
    }

    @Test
    void noCredentialsAtAllIsAPlainRequestThatTheServersChallengeThenStarts() throws Exception {
        server.handler((req, ex) -> {
            if (req.header("Authorization") == null) {
                challenge(ex, 401);
            } else {
                json(ex, 200, result(req.rpcId(), "{}"));
            }
        });
        Recorder auth = new Recorder();
        auth.token.set(null);
        auth.credentials = r -> auth.token.get() == null ? Map.of() : Map.of("Authorization", auth.token.get());
        auth.onChallenge = f -> {
            auth.token.set("Bearer fresh");
            return true;
        };
        HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).authorization(auth));
        t.exchange(request(1, "ping"), TestSendContext.of(1));
        assertThat(server.requests).extracting(r -> r.header("Authorization")).containsExactly(null, "Bearer fresh");
    }

    /** User code (a provider, a signer) busy until just after a deadline: one sleep, no polling. */
    private static void workPast(Deadline deadline) {
        try {
            Thread.sleep(deadline.remaining().plusMillis(5));
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aProviderThatUsesUpTheDeadlineFailsTheCallAsATimeoutWithoutSendingIt() throws Exception {
        server.handler((req, ex) -> json(ex, 200, result(req.rpcId(), "{}")));
        Recorder auth = new Recorder();
        auth.credentials = r -> {
            // an authorization that takes longer than the caller waits
            workPast(r.deadline());
            return Map.of("Authorization", "Bearer late");
        };
        HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).authorization(auth));
        assertThatThrownBy(() -> t.exchange(request(1, "ping"), new TestSendContext(RequestId.of(1),
                Duration.ofMillis(200))))
                .isInstanceOf(McpTimeoutException.class)
                .hasMessageContaining("waiting for the authorization provider");
        assertThat(server.requests).isEmpty();
    }

    @Test
    void aSignerThatUsesUpTheDeadlineFailsTheCallAsATimeoutWithoutSendingIt() throws Exception {
        // the same kind of user code before the send as the provider: no request goes out after the deadline
        server.handler((req, ex) -> json(ex, 200, result(req.rpcId(), "{}")));
        Deadline deadline = Deadline.after(Duration.ofMillis(200));
        HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).requestSigner((m, u, h, b) -> {
            workPast(deadline);
            return Map.of("Signature", "late");
        }));
        assertThatThrownBy(() -> t.exchange(request(1, "ping"), new TestSendContext(RequestId.of(1), deadline)))
                .isInstanceOf(McpTimeoutException.class)
                .hasMessageContaining("waiting for the request signer");
        assertThat(server.requests).isEmpty();
    }

    @Test
    void anInterruptedProviderInterruptsTheCall() throws Exception {
        AuthorizationProvider auth = new AuthorizationProvider() {
            @Override
            public Map<String, String> credentials(AuthorizationRequest request) throws InterruptedException {
                throw new InterruptedException("cancelled while refreshing");
            }

            @Override
            public boolean onChallenge(AuthorizationRequest request, AuthorizationFailure failure) {
                return false;
            }
        };
        HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).authorization(auth));
        assertThatThrownBy(() -> t.exchange(request(1, "ping"), TestSendContext.of(1)))
                .isInstanceOf(InterruptedException.class);
        assertThat(server.requests).isEmpty();
    }

    // ------------------------------------------------------------------------------------------------ no provider

    @Test
    void withoutAProviderNothingIsAddedAndA401FailsWithItsChallenges() throws Exception {
        server.handler((req, ex) -> challenge(ex, 401));
        HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")));
        assertThatThrownBy(() -> t.exchange(request(1, "tools/list"), TestSendContext.of(1)))
                .isInstanceOfSatisfying(McpHttpStatusException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(401);
                    assertThat(e.authParameters()).containsEntry("scope", "files:read files:write");
                });
        assertThat(server.requests).hasSize(1);
        assertThat(server.requests.get(0).header("Authorization")).isNull();
    }

    @Test
    void toStringsSayAProviderIsSetButNeverShowIt() {
        Recorder auth = new Recorder();
        auth.token.set("SECRET-TOKEN");
        HttpTransport.Builder b = HttpTransport.newBuilder(server.uri("/mcp")).authorization(auth);
        assertThat(b.toString()).contains("authorization=set").doesNotContain("SECRET").doesNotContain("Recorder");
        HttpTransport t = b.build();
        assertThat(t.toString()).contains("authorization=set").doesNotContain("SECRET").doesNotContain("Recorder");
        HttpTransport.Builder none = HttpTransport.newBuilder(server.uri("/mcp"));
        assertThat(none.toString()).contains("authorization=none");
        assertThat(none.build().toString()).contains("authorization=none");
    }

    // ------------------------------------------------------------------------------------------------ modern era

    @Test
    void inTheModernEraEachPostIsAuthorizedAndReauthorizedOnItsOwn() throws Exception {
        server.handler((req, ex) -> {
            assertThat(req.header("Mcp-Session-Id")).isNull();
            if ("Bearer tok-2".equals(req.header("Authorization"))) {
                json(ex, 200, result(req.rpcId(), "{\"m\":\"" + req.header("Mcp-Method") + "\"}"));
            } else {
                challenge(ex, 401);
            }
        });
        Recorder auth = new Recorder();
        HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).authorization(auth));
        t.exchange(request(1, "server/discover"), modern(1, "server/discover"));
        t.exchange(request(2, "tools/list"), modern(2, "tools/list"));
        assertThat(sink.messages()).containsExactly(
                new JsonRpcMessage.Response(RequestId.of(1), Map.of("m", "server/discover")),
                new JsonRpcMessage.Response(RequestId.of(2), Map.of("m", "tools/list")));
        assertThat(server.requests).extracting(r -> r.header("Mcp-Method") + " " + r.header("Authorization"))
                .containsExactly("server/discover Bearer tok-1", "server/discover Bearer tok-2",
                        "tools/list Bearer tok-2");
        assertThat(auth.askedMethods()).containsExactly("POST#0", "POST#1", "POST#0");
        t.close();
        assertThat(server.requests).hasSize(3); // no GET stream, no DELETE
    }

    @Test
    void aModernListenStreamWithoutDeadlineIsAuthorizedWithNoDeadline() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        server.handler((req, ex) -> {
            OutputStream out = sse(ex);
            write(out, "data: " + result(req.rpcId(), "{}") + "\n\n");
            release.await(5, TimeUnit.SECONDS);
        });
        Recorder auth = new Recorder();
        HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")).authorization(auth));
        try {
            t.exchange(request(1, "subscriptions/listen"), new TestSendContext(RequestId.of(1), Deadline.NONE)
                    .routing(new RequestRouting(MODERN, "subscriptions/listen", null, Map.of())));
        } finally {
            release.countDown();
        }
        assertThat(auth.asked).singleElement().satisfies(r -> assertThat(r.deadline()).isEqualTo(Deadline.NONE));
        assertThat(URI.create(auth.asked.get(0).uri().toString())).isEqualTo(server.uri("/mcp"));
    }
}
