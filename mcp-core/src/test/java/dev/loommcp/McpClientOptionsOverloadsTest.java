package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.schema.LoggingLevel;
import dev.loommcp.schema.PromptReference;
import dev.loommcp.testing.Await;
import dev.loommcp.testing.HookedTransport;
import dev.loommcp.testing.McpThreadLeakCheck;
import dev.loommcp.testing.ScriptedTransport;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every blocking call has an overload taking {@link RequestOptions}, and each honours its options: the timeout bounds
 * the call (and is the deadline the transport gets), a cancelled token stops it before anything is sent (issue 9,
 * item 8). One row per overload that was added.
 */
class McpClientOptionsOverloadsTest {

    @RegisterExtension
    final Sessions sessions = new Sessions();

    /** One overload: how to call it and the wire method it sends. */
    @FunctionalInterface
    interface Call {
        void run(McpClient client, RequestOptions options) throws Exception;
    }

    static Stream<Arguments> requests() {
        return Stream.of(
                Arguments.of("listResources", "resources/list", (Call) (c, o) -> c.listResources(null, o)),
                Arguments.of("listAllResources", "resources/list", (Call) (c, o) -> c.listAllResources(o)),
                Arguments.of("listResourceTemplates", "resources/templates/list",
                        (Call) (c, o) -> c.listResourceTemplates(null, o)),
                Arguments.of("listAllResourceTemplates", "resources/templates/list",
                        (Call) (c, o) -> c.listAllResourceTemplates(o)),
                Arguments.of("subscribe", "resources/subscribe", (Call) (c, o) -> c.subscribe("file:///a", o)),
                Arguments.of("unsubscribe", "resources/unsubscribe", (Call) (c, o) -> c.unsubscribe("file:///a", o)),
                Arguments.of("listPrompts", "prompts/list", (Call) (c, o) -> c.listPrompts(null, o)),
                Arguments.of("listAllPrompts", "prompts/list", (Call) (c, o) -> c.listAllPrompts(o)),
                Arguments.of("complete", "completion/complete", (Call) (c, o) -> c.complete(
                        PromptReference.of("p"), "arg", "v", null, o)),
                Arguments.of("setLoggingLevel", "logging/setLevel",
                        (Call) (c, o) -> c.setLoggingLevel(LoggingLevel.INFO, o)));
    }

    static Stream<Arguments> notifications() {
        return Stream.of(
                Arguments.of("notify", "notifications/custom", (Call) (c, o) -> c.notify("notifications/custom",
                        Map.of("k", 1), o)),
                Arguments.of("notifyRootsListChanged", "notifications/roots/list_changed",
                        (Call) (c, o) -> c.notifyRootsListChanged(o)));
    }

    static Stream<Arguments> all() {
        return Stream.concat(requests(), notifications());
    }

    private static Map<String, Object> answerTo(String method) {
        return switch (method) {
            case "resources/list" -> Map.of("resources", List.of());
            case "resources/templates/list" -> Map.of("resourceTemplates", List.of());
            case "prompts/list" -> Map.of("prompts", List.of());
            case "completion/complete" -> Map.of("completion", Map.of("values", List.of("v1")));
            default -> Map.of();
        };
    }

    private static boolean sends(JsonRpcMessage m, String method) {
        return m instanceof JsonRpcMessage.Request r && r.method().equals(method)
                || m instanceof JsonRpcMessage.Notification n && n.method().equals(method);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void theOptionsTimeoutIsTheDeadlineTheTransportGets(String name, String method, Call call) throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.on(method, r -> answerTo(method)), b -> b);
        Duration timeout = Duration.ofMinutes(7); // the client default is 60 s: only the options give 7 min
        long before = System.nanoTime();
        call.run(s.client(), RequestOptions.ofTimeout(timeout));
        long after = System.nanoTime();
        long deadline = s.server().recordOf(m -> sends(m, method)).deadlineNanos();
        assertThat(deadline).as(name).isBetween(before + timeout.toNanos(), after + timeout.toNanos());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void aCancelledTokenStopsTheCallBeforeAnythingIsSent(String name, String method, Call call) throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.on(method, r -> answerTo(method)), b -> b);
        CancellationToken token = CancellationToken.create();
        token.cancel("user gave up");
        assertThatThrownBy(() -> call.run(s.client(), RequestOptions.ofToken(token))).as(name)
                .isInstanceOf(McpCancelledException.class).hasMessageContaining("user gave up");
        assertThat(s.server().sent()).as(name).noneMatch(m -> sends(m, method));
    }

    @ParameterizedTest(name = "{0} ({1})")
    @MethodSource("requestsInBothModes")
    void aShortTimeoutEndsAHeldRequestAndCancelsItOnTheWire(String name, Mode mode, String method, Call call)
            throws Exception {
        Session s = sessions.connected(mode, t -> t.hold(method), b -> b);
        assertThatThrownBy(() -> call.run(s.client(), RequestOptions.ofTimeout(Duration.ofMillis(100)))).as(name)
                .isInstanceOf(McpTimeoutException.class);
        JsonRpcMessage.Request sent = s.server().awaitRequest(method);
        JsonRpcMessage.Notification cancelled = s.server().awaitNotification("notifications/cancelled");
        assertThat(String.valueOf(cancelled.params().get("requestId"))).isEqualTo(String.valueOf(sent.id().value()));
        assertThat(cancelled.params()).containsEntry("reason", "timeout");
    }

    static Stream<Arguments> requestsInBothModes() {
        return requests().flatMap(a -> Stream.of(Mode.INLINE, Mode.BLOCKING).map(m -> Arguments.of(a.get()[0], m,
                a.get()[1], a.get()[2])));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requests")
    void aTokenFiredWhileWaitingEndsTheCall(String name, String method, Call call) throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.hold(method), b -> b);
        CancellationToken token = CancellationToken.create();
        Thread canceller = Thread.ofVirtual().start(() -> {
            s.server().awaitRequest(method);
            token.cancel("stop");
        });
        try {
            assertThatThrownBy(() -> call.run(s.client(), RequestOptions.ofToken(token))).as(name)
                    .isInstanceOf(McpCancelledException.class);
        } finally {
            canceller.join(TimeUnit.SECONDS.toMillis(30));
        }
        assertThat(s.server().awaitNotification("notifications/cancelled").params()).containsEntry("reason", "stop");
    }

    /** A notification whose send blocks (an HTTP POST) is aborted by the token through the send context. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Mode.class)
    void aTokenFiredWhileANotificationIsSentAbortsTheSend(Mode mode) throws Exception {
        Set<Long> threadsBefore = McpThreadLeakCheck.snapshot();
        CountDownLatch sending = new CountDownLatch(1);
        HookedTransport transport = new HookedTransport(ScriptedTransport.create(mode)).beforeSend((m, c) -> {
            if (m instanceof JsonRpcMessage.Notification n && n.method().equals("notifications/custom")) {
                CountDownLatch aborted = new CountDownLatch(1);
                c.onCancel(aborted::countDown);
                sending.countDown();
                if (!aborted.await(30, TimeUnit.SECONDS)) {
                    throw new AssertionError("the send was never aborted");
                }
                throw new McpTransportException("exchange aborted");
            }
        });
        McpClient client = McpClient.newBuilder(transport).build();
        try {
            client.connect();
            CancellationToken token = CancellationToken.create();
            Thread canceller = Thread.ofVirtual().start(() -> {
                try {
                    sending.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    return;
                }
                token.cancel("enough");
            });
            assertThatThrownBy(() -> client.notify("notifications/custom", null, RequestOptions.ofToken(token)))
                    .isInstanceOf(McpCancelledException.class).hasMessageContaining("enough");
            canceller.join(TimeUnit.SECONDS.toMillis(30));
            Await.until("client still usable", client::isConnected);
        } finally {
            client.close();
        }
        McpThreadLeakCheck.assertNoNewThreads(threadsBefore);
    }
}
