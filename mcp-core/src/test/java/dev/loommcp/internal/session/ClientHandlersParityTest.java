package dev.loommcp.internal.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.handler.ElicitationHandler;
import dev.loommcp.McpClient;
import dev.loommcp.McpInputRequiredException;
import dev.loommcp.McpProtocolException;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.handler.RootsHandler;
import dev.loommcp.handler.SamplingHandler;
import dev.loommcp.ClientConfigs;
import dev.loommcp.internal.session.inbound.ClientHandlers;
import dev.loommcp.internal.session.inbound.InboundDispatcher;
import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.CreateMessageResult;
import dev.loommcp.schema.ElicitResult;
import dev.loommcp.schema.Root;
import dev.loommcp.Deadline;
import dev.loommcp.testing.ScriptedTransport;
import dev.loommcp.testing.Sessions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One handler API, two wire shapes (MODERN-ERA.md C.3 item 10): the same handlers give the same answer to a 2025
 * server-to-client request (answered by {@link InboundDispatcher}) and to a 2026 input request (answered inside
 * {@link InputRounds}), and refuse the same things, because both ask {@link ClientHandlers}.
 */
class ClientHandlersParityTest {

    @RegisterExtension
    final Sessions sessions = new Sessions();

    private static final AtomicInteger IDS = new AtomicInteger();

    /** The handlers and settings of one case, applied alike to a client builder and a session configuration. */
    record Setup(ElicitationHandler elicitation, boolean urlMode, boolean defaults, SamplingHandler sampling,
                 RootsHandler roots) {
        static Setup elicit(ElicitationHandler h) {
            return new Setup(h, true, false, null, null);
        }

        /** Hands each handler that is set to the matching setter of a builder. */
        private void configure(BiConsumer<ElicitationHandler, Boolean> onElicitation,
                               Consumer<SamplingHandler> onSampling, Consumer<RootsHandler> onRoots) {
            if (elicitation != null) {
                onElicitation.accept(elicitation, urlMode);
            }
            if (sampling != null) {
                onSampling.accept(sampling);
            }
            if (roots != null) {
                onRoots.accept(roots);
            }
        }

        McpClient.Builder apply(McpClient.Builder b) {
            configure(b::elicitationHandler, b::samplingHandler, b::rootsHandler);
            return b.applyElicitationDefaults(defaults).protocolMode(ProtocolMode.LEGACY);
        }

        ClientHandlers handlers() {
            return new ClientHandlers(ClientConfigs.of(apply(McpClient.newBuilder(
                    ScriptedTransport.create(ScriptedTransport.Mode.INLINE)))));
        }
    }

    /** One request both eras get. */
    record Case(String name, Setup setup, String method, Map<String, Object> params) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final Map<String, Object> FORM = Map.of("message", "Who?", "requestedSchema", Map.of(
            "type", "object", "properties", Map.of("name", Map.of("type", "string"),
                    "color", Map.of("type", "string", "default", "blue"))));
    private static final Map<String, Object> URL = Map.of("mode", "url", "message", "Sign in",
            "url", "https://example.test/auth");
    private static final Map<String, Object> SAMPLE = Map.of("messages", List.of(Map.of("role", "user",
            "content", Map.of("type", "text", "text", "hi"))), "maxTokens", 5);

    static Stream<Case> answered() {
        return Stream.of(
                new Case("form accept", Setup.elicit(r -> ElicitResult.accept(Map.of("name", "Ada"))),
                        "elicitation/create", FORM),
                new Case("form accept with defaults", new Setup(r -> ElicitResult.accept(Map.of("name", "Ada")), true,
                        true, null, null), "elicitation/create", FORM),
                new Case("decline drops content", Setup.elicit(r -> new ElicitResult("decline", Map.of("n", "x"),
                        null)), "elicitation/create", FORM),
                new Case("null is a decline", Setup.elicit(r -> null), "elicitation/create", FORM),
                new Case("cancel", Setup.elicit(r -> ElicitResult.cancel()), "elicitation/create", FORM),
                new Case("url accept records consent only", Setup.elicit(r -> ElicitResult.accept(Map.of("x", "y"))),
                        "elicitation/create", URL),
                new Case("sampling", new Setup(null, true, false, r -> CreateMessageResult.ofText("m", "hello"), null),
                        "sampling/createMessage", SAMPLE),
                new Case("roots", new Setup(null, true, false, null, () -> List.of(Root.of("file:///w", "w"))),
                        "roots/list", Map.of()),
                new Case("null roots are none", new Setup(null, true, false, null, () -> null), "roots/list",
                        Map.of()));
    }

    static Stream<Case> refused() {
        return Stream.of(
                new Case("invalid action", Setup.elicit(r -> new ElicitResult("maybe", null, null)),
                        "elicitation/create", FORM),
                new Case("nested content", Setup.elicit(r -> ElicitResult.accept(Map.of("a", List.of(1)))),
                        "elicitation/create", FORM),
                new Case("no sampling result", new Setup(null, true, false, r -> null, null),
                        "sampling/createMessage", SAMPLE),
                new Case("a null root", new Setup(null, true, false, null, () -> new ArrayList<>(
                        java.util.Collections.singletonList((Root) null))), "roots/list", Map.of()),
                new Case("handler failure", new Setup(null, true, false, null, () -> {
                    throw new IllegalStateException("no");
                }), "roots/list", Map.of()),
                new Case("url mode not declared", new Setup(r -> ElicitResult.decline(), false, false, null, null),
                        "elicitation/create", URL));
    }

    static Stream<Case> malformed() {
        return Stream.of(
                new Case("unknown mode", Setup.elicit(r -> ElicitResult.decline()), "elicitation/create",
                        Map.of("mode", "x", "message", "m")),
                new Case("url without url", Setup.elicit(r -> ElicitResult.decline()), "elicitation/create",
                        Map.of("mode", "url", "message", "m")),
                new Case("sampling messages not a list", new Setup(null, true, false,
                        r -> CreateMessageResult.ofText("m", "t"), null), "sampling/createMessage",
                        Map.of("messages", "x", "maxTokens", 1)));
    }

    /** The 2025 era: the server sends the request, the client answers it. */
    private JsonRpcMessage legacyAnswer(Case c) throws InterruptedException {
        Sessions.Session s = sessions.connected(ScriptedTransport.Mode.INLINE, t -> { }, c.setup()::apply);
        RequestId id = RequestId.of("srv-" + IDS.incrementAndGet());
        s.server().deliver(new JsonRpcMessage.Request(id, c.method(), c.params()));
        return s.server().awaitAnswerTo(id);
    }

    /** The 2026 era: the server asks for the same request as an input; returns what the retry carried. */
    private static Object modernAnswer(Case c) throws InterruptedException {
        List<Map<String, Object>> sent = new ArrayList<>();
        InputRounds rounds = new InputRounds(c.setup().handlers(), 10, () -> "parity");
        rounds.complete("tools/call", Map.of("name", "t"), Map.of("resultType", "input_required",
                "inputRequests", Map.of("k", Map.of("method", c.method(), "params", c.params()))), p -> {
                    sent.add(p);
                    return Map.of("content", List.of());
                }, Deadline.after(Duration.ofSeconds(30)), null);
        return ((Map<?, ?>) sent.get(0).get("inputResponses")).get("k");
    }

    @ParameterizedTest
    @MethodSource("answered")
    void bothErasSendTheSameAnswer(Case c) throws Exception {
        JsonRpcMessage legacy = legacyAnswer(c);
        assertThat(legacy).isInstanceOf(JsonRpcMessage.Response.class);
        assertThat(modernAnswer(c)).isEqualTo(((JsonRpcMessage.Response) legacy).result());
    }

    @ParameterizedTest
    @MethodSource("refused")
    void whatThe2025EraRefusesWithAnErrorThe2026EraDoesNotRetry(Case c) throws Exception {
        JsonRpcMessage legacy = legacyAnswer(c);
        assertThat(legacy).isInstanceOf(JsonRpcMessage.ErrorResponse.class);
        assertThat(((JsonRpcMessage.ErrorResponse) legacy).error().code())
                .isIn(JsonRpcError.INTERNAL_ERROR, JsonRpcError.INVALID_PARAMS);
        assertThatThrownBy(() -> modernAnswer(c)).isInstanceOf(McpInputRequiredException.class)
                .hasMessageContaining("'k'").hasMessageContaining(c.method());
    }

    @ParameterizedTest
    @MethodSource("malformed")
    void whatThe2025EraCallsInvalidParamsIsAProtocolErrorIn2026(Case c) throws Exception {
        JsonRpcMessage legacy = legacyAnswer(c);
        assertThat(legacy).isInstanceOf(JsonRpcMessage.ErrorResponse.class);
        assertThat(((JsonRpcMessage.ErrorResponse) legacy).error().code()).isEqualTo(JsonRpcError.INVALID_PARAMS);
        assertThatThrownBy(() -> modernAnswer(c)).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("'k'");
    }
    /**
     * A URL-mode elicitation reaches the handler (and so the user or a browser) only with an https URL, or http on a
     * loopback host; anything else is refused in both eras with the reason, and the handler never sees it.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            javascript:alert(document.cookie)          | scheme javascript
            JavaScript:alert(1)                        | scheme javascript
            file:///etc/passwd                         | scheme file
            data:text/html;base64,PHNjcmlwdD4=         | scheme data
            vbscript:msgbox                            | scheme vbscript
            http://example.com/auth                    | plain http url on the host example.com
            http://127.evil.example/auth               | plain http url on the host 127.evil.example
            http://10.0.0.1/auth                       | plain http url on the host 10.0.0.1
            https://bank.example@evil.example/x        | user info
            https:opaque                               | without a host
            """)
    void aUrlElicitationWithAnUnsafeUrlIsRefusedInBothErasBeforeTheHandler(String url, String reason)
            throws Exception {
        AtomicInteger calls = new AtomicInteger();
        Case c = new Case(url, Setup.elicit(r -> {
            calls.incrementAndGet();
            return ElicitResult.accept(null);
        }), "elicitation/create", Map.of("mode", "url", "message", "Sign in", "url", url, "elicitationId", "e1"));
        JsonRpcMessage legacy = legacyAnswer(c);
        assertThat(legacy).isInstanceOf(JsonRpcMessage.ErrorResponse.class);
        JsonRpcError error = ((JsonRpcMessage.ErrorResponse) legacy).error();
        assertThat(error.code()).isEqualTo(JsonRpcError.INVALID_PARAMS);
        assertThat(error.message()).contains("refused").contains(reason);
        assertThatThrownBy(() -> modernAnswer(c)).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("refused").hasMessageContaining(reason);
        assertThat(calls).hasValue(0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://example.com/auth?x=1", "HTTPS://Example.com/a", "http://127.0.0.1:8080/cb",
            "http://127.1.2.3/cb", "http://localhost/cb", "http://[::1]:9/cb"})
    void aUrlElicitationWithAnHttpsOrLoopbackUrlReachesTheHandler(String url) throws Exception {
        List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        Case c = new Case(url, Setup.elicit(r -> {
            seen.add(r.url());
            return ElicitResult.decline();
        }), "elicitation/create", Map.of("mode", "url", "message", "Sign in", "url", url, "elicitationId", "e1"));
        assertThat(legacyAnswer(c)).isInstanceOf(JsonRpcMessage.Response.class);
        assertThat(modernAnswer(c)).isEqualTo(Map.of("action", "decline"));
        assertThat(seen).containsExactly(url, url);
    }
}
