package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.CreateMessageResult;
import dev.loommcp.schema.ElicitResult;
import dev.loommcp.schema.Root;
import dev.loommcp.testing.Await;
import dev.loommcp.testing.HookedTransport;
import dev.loommcp.testing.LogCapture;
import dev.loommcp.testing.ScriptedTransport;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import dev.loommcp.testing.Listen;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Application code that throws, {@link Error}s included (issue 8 item 2): every listener, handler and cancel action
 * is guarded, the failure is logged at WARNING without its message, the event thread keeps running listeners and a
 * server request whose handler failed is answered {@code -32603}.
 */
class McpClientUserCodeFailureTest {

    private static final String SECRET = "s3cr3t-payload";

    @RegisterExtension
    final Sessions sessions = new Sessions();

    @RegisterExtension
    final LogCapture logs = new LogCapture("dev.loommcp.client", "dev.loommcp.CancellationToken");

    /** The throwables user code may throw; each one's message is the secret that must not be logged. */
    static Stream<Arguments> failures() {
        return Stream.of(
                Arguments.of("AssertionError", (Supplier<Throwable>) () -> new AssertionError(SECRET)),
                Arguments.of("StackOverflowError", (Supplier<Throwable>) () -> new StackOverflowError(SECRET)),
                Arguments.of("NoClassDefFoundError", (Supplier<Throwable>) () -> new NoClassDefFoundError(SECRET)),
                Arguments.of("IllegalStateException",
                        (Supplier<Throwable>) () -> new IllegalStateException(SECRET)));
    }

    static Stream<Arguments> failuresInBothModes() {
        return failures().flatMap(a -> Stream.of(Mode.values())
                .map(m -> Arguments.of(m, a.get()[0], a.get()[1])));
    }

    /** Throws any throwable from a lambda that may not declare it. */
    @SuppressWarnings("unchecked")
    private static <T extends Throwable> RuntimeException sneaky(Throwable t) throws T {
        throw (T) t;
    }

    private static int recurse(int n) {
        return recurse(n + 1) + 1;
    }

    private void assertLoggedWithoutMessage(String className) {
        Await.until("a WARNING naming " + className, () -> logs.warnings().stream()
                .anyMatch(e -> e.message().contains(className)));
        assertThat(logs.warnings()).allSatisfy(e -> assertThat(e.text()).doesNotContain(SECRET));
    }

    // ------------------------------------------------------------------------------------------------ listeners

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("failuresInBothModes")
    void everyListenerKindMayThrowAndTheEventThreadRunsTheNextListener(Mode mode, String name,
                                                                       Supplier<Throwable> failure)
            throws Exception {
        Set<String> seen = ConcurrentHashMap.newKeySet();
        Session s = sessions.connected(mode, t -> t.on("tools/call", r -> {
            Object token = ((Map<?, ?>) r.params().get("_meta")).get("progressToken");
            t.deliverOn(r.id(), new JsonRpcMessage.Notification("notifications/progress",
                    Map.of("progressToken", token, "progress", 1)));
            return Map.of("content", List.of());
        }), b -> b
                .listener(new Listen().notifications(n -> {
                    seen.add("notification " + n.method());
                    throw sneaky(failure.get());
                })
                .toolsChanged(() -> {
                    seen.add("tools changed");
                    throw sneaky(failure.get());
                })
                .logs(m -> {
                    seen.add("log");
                    throw sneaky(failure.get());
                })
                .restarts(() -> {
                    seen.add("restarted");
                    throw sneaky(failure.get());
                })));

        s.server().notifyClient("x/first", null);
        Await.until("the first notification", () -> seen.contains("notification x/first"));
        s.server().notifyClient("notifications/tools/list_changed", null);
        Await.until("the tools-changed listener", () -> seen.contains("tools changed"));
        s.server().notifyClient("notifications/message", Map.of("level", "info", "data", SECRET));
        Await.until("the logging listener", () -> seen.contains("log"));
        s.server().expireSession();
        s.client().ping(); // refused in the old session: the client starts a new one and sends it again
        Await.until("the restart listener", () -> seen.contains("restarted"));
        s.client().callTool("t", Map.of(), RequestOptions.newBuilder().progressListener(p -> {
            seen.add("progress");
            throw sneaky(failure.get());
        }).build());
        Await.until("the progress listener", () -> seen.contains("progress"));
        s.server().notifyClient("x/last", null);
        Await.until("a notification after all those failures", () -> seen.contains("notification x/last"));

        assertLoggedWithoutMessage(name);
        s.client().ping(); // the client is still usable
    }

    @Test
    void aListenerThatOverflowsItsStackForRealDoesNotEndTheEventThread() throws Exception {
        Set<String> seen = ConcurrentHashMap.newKeySet();
        Session s = sessions.connected(Mode.INLINE, t -> { }, b -> b.listener(new Listen().notifications(n -> {
            seen.add(n.method());
            if (n.method().equals("x/overflow")) {
                recurse(0);
            }
        })));
        s.server().notifyClient("x/overflow", null);
        s.server().notifyClient("x/after", null);
        Await.until("the notification after the overflow", () -> seen.contains("x/after"));
        assertLoggedWithoutMessage("java.lang.StackOverflowError");
    }

    // ------------------------------------------------------------------------------------------------ handlers

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("failuresInBothModes")
    void everyHandlerKindThatThrowsIsAnsweredWithInternalErrorAndTheNextRequestWorks(Mode mode, String name,
                                                                                   Supplier<Throwable> failure)
            throws Exception {
        AtomicInteger calls = new AtomicInteger();
        Session s = sessions.connected(mode, t -> { }, b -> b
                .rootsHandler(() -> {
                    if (calls.incrementAndGet() % 2 == 1) {
                        throw sneaky(failure.get());
                    }
                    return List.of(Root.of("file:///w", "w"));
                })
                .samplingHandler(r -> {
                    if (calls.incrementAndGet() % 2 == 1) {
                        throw sneaky(failure.get());
                    }
                    return CreateMessageResult.ofText("m", "ok");
                })
                .elicitationHandler(r -> {
                    if (calls.incrementAndGet() % 2 == 1) {
                        throw sneaky(failure.get());
                    }
                    return ElicitResult.decline();
                }));
        Map<String, Map<String, Object>> requests = Map.of(
                "roots/list", Map.of(),
                "sampling/createMessage", Map.of("messages", List.of(), "maxTokens", 1),
                "elicitation/create", Map.of("message", "m", "requestedSchema", Map.of("type", "object")));
        int id = 0;
        for (Map.Entry<String, Map<String, Object>> r : requests.entrySet()) {
            RequestId failing = RequestId.of(++id);
            s.server().deliver(new JsonRpcMessage.Request(failing, r.getKey(), r.getValue()));
            JsonRpcMessage answer = s.server().awaitAnswerTo(failing);
            assertThat(answer).isInstanceOf(JsonRpcMessage.ErrorResponse.class);
            JsonRpcError error = ((JsonRpcMessage.ErrorResponse) answer).error();
            assertThat(error.code()).isEqualTo(JsonRpcError.INTERNAL_ERROR);
            assertThat(error.message()).contains(r.getKey()).doesNotContain(SECRET);

            RequestId next = RequestId.of(++id);
            s.server().deliver(new JsonRpcMessage.Request(next, r.getKey(), r.getValue()));
            assertThat(s.server().awaitAnswerTo(next)).isInstanceOf(JsonRpcMessage.Response.class);
        }
        assertLoggedWithoutMessage(name);
    }

    @Test
    void aHandlerThatThrowsInterruptedExceptionOfItsOwnIsAnsweredToo() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> { }, b -> b.rootsHandler(() -> {
            throw new InterruptedException(SECRET);
        }));
        RequestId id = RequestId.of("own-interrupt");
        s.server().deliver(new JsonRpcMessage.Request(id, "roots/list", null));
        JsonRpcMessage answer = s.server().awaitAnswerTo(id);
        assertThat(answer).isInstanceOf(JsonRpcMessage.ErrorResponse.class);
        assertThat(((JsonRpcMessage.ErrorResponse) answer).error().code()).isEqualTo(JsonRpcError.INTERNAL_ERROR);
    }

    // ------------------------------------------------------------------------------------------------ cancel actions

    @Test
    void aCancelActionThatThrowsIsLoggedWithoutItsMessageAndTheOthersRun() {
        CancellationToken token = CancellationToken.create();
        AtomicInteger ran = new AtomicInteger();
        token.onCancel(() -> {
            throw new IllegalStateException(SECRET);
        });
        token.onCancel(ran::incrementAndGet);
        token.cancel();
        assertThat(ran).hasValue(1);
        assertLoggedWithoutMessage("java.lang.IllegalStateException");

        // an action registered on a fired token runs at once: its failure is logged the same way
        token.onCancel(() -> {
            throw new UnsupportedOperationException(SECRET);
        });
        assertLoggedWithoutMessage("java.lang.UnsupportedOperationException");
    }

    /**
     * A cancel action of the transport (SPI code) that throws an Error must not replace the call's own outcome nor
     * stop the cleanup: the call still times out with {@link McpTimeoutException} and the server is told.
     */
    @Test
    void aTransportCancelActionThatThrowsAnErrorLeavesTheCallsTimeoutAndCancelIntact() throws Exception {
        ScriptedTransport server = ScriptedTransport.create(Mode.BLOCKING).hold("tools/call");
        HookedTransport transport = new HookedTransport(server).beforeSend((m, c) -> {
            if (m instanceof JsonRpcMessage.Request r && r.method().equals("tools/call")) {
                c.onCancel(() -> {
                    throw new AssertionError(SECRET);
                });
            }
        });
        try (McpClient client = McpClient.newBuilder(transport).build()) {
            client.connect();
            assertThatThrownBy(() -> client.callTool("slow", Map.of(),
                    RequestOptions.newBuilder().timeout(Duration.ofMillis(50)).build()))
                    .isInstanceOf(McpTimeoutException.class);
            assertThat(server.awaitNotification("notifications/cancelled").params()).containsKey("requestId");
            client.ping();
        }
        assertLoggedWithoutMessage("java.lang.AssertionError");
    }
}
