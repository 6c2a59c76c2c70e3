package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.schema.LoggingLevel;
import dev.loommcp.schema.LoggingMessageNotification;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import dev.loommcp.testing.Listen;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Server notifications: the drain queue, the listeners, and the events thread they run on. */
class McpClientNotificationsTest {

    private static final String MARKER = "test/marker";

    @RegisterExtension
    final Sessions sessions = new Sessions();

    /**
     * Connects with a notification listener that counts down {@code marker} when the marker notification arrives:
     * the reader queues a notification before dispatching it, so once the marker is seen every notification delivered
     * before it is queued too.
     */
    private Session connect(Mode mode, CountDownLatch marker, List<JsonRpcMessage.Notification> seen,
                            UnaryOperator<McpClient.Builder> config) throws InterruptedException {
        return connect(mode, marker, seen, config, l -> l);
    }

    /** Like the other, with more of the one client listener set by {@code listen}. */
    private Session connect(Mode mode, CountDownLatch marker, List<JsonRpcMessage.Notification> seen,
                            UnaryOperator<McpClient.Builder> config, UnaryOperator<Listen> listen)
            throws InterruptedException {
        return sessions.connected(mode, t -> { }, b -> config.apply(b.keepNotifications(true)
                .listener(listen.apply(new Listen().notifications(n -> {
                    seen.add(n);
                    if (n.method().equals(MARKER)) {
                        marker.countDown();
                    }
                })))));
    }

    private static void deliverMarker(Session s) {
        s.server().notifyClient(MARKER, null);
    }

    private static JsonRpcMessage.Notification note(String method, Map<String, Object> params) {
        return new JsonRpcMessage.Notification(method, params);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void drainReturnsQueuedNotificationsExceptProgressAndCancelled(Mode mode) throws Exception {
        CountDownLatch marker = new CountDownLatch(1);
        List<JsonRpcMessage.Notification> seen = new CopyOnWriteArrayList<>();
        Session s = connect(mode, marker, seen, b -> b);

        s.server().notifyClient("notifications/resources/updated", Map.of("uri", "file:///a"));
        s.server().notifyClient("notifications/progress", Map.of("progressToken", 999, "progress", 1));
        s.server().notifyClient("notifications/cancelled", Map.of("requestId", 12345));
        s.server().notifyClient("notifications/tools/list_changed", null);
        s.server().notifyClient("notifications/message", Map.of("level", "info", "data", "hello"));
        s.server().notifyClient("x/custom", Map.of("k", List.of(1)));
        deliverMarker(s);
        assertThat(marker.await(10, TimeUnit.SECONDS)).isTrue();

        List<JsonRpcMessage.Notification> drained = s.client().drainNotifications();
        assertThat(drained).containsExactly(
                note("notifications/resources/updated", Map.of("uri", "file:///a")),
                note("notifications/tools/list_changed", null),
                note("notifications/message", Map.of("level", "info", "data", "hello")),
                note("x/custom", Map.of("k", List.of(1))),
                note(MARKER, null));
        assertThat(s.client().drainNotifications()).isEmpty();
        assertThat(s.client().droppedNotificationCount()).isZero();
        assertThat(seen).extracting(JsonRpcMessage.Notification::method).containsExactly(
                "notifications/resources/updated", "notifications/tools/list_changed", "notifications/message",
                "x/custom", MARKER);
    }

    @Test
    void theQueueDropsTheOldestBeyondItsCapacityAndCountsThem() throws Exception {
        CountDownLatch marker = new CountDownLatch(1);
        Session s = connect(Mode.INLINE, marker, new CopyOnWriteArrayList<>(), b -> b.notificationQueueCapacity(3));
        for (int i = 1; i <= 5; i++) {
            s.server().notifyClient("x/n", Map.of("i", i));
        }
        deliverMarker(s);
        assertThat(marker.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(s.client().drainNotifications()).containsExactly(note("x/n", Map.of("i", 4)),
                note("x/n", Map.of("i", 5)), note(MARKER, null));
        assertThat(s.client().droppedNotificationCount()).isEqualTo(3);

        assertThat(s.client().drainNotifications()).isEmpty();
        assertThat(s.client().droppedNotificationCount()).isEqualTo(3);
    }

    @Test
    void notificationsAreQueuedWithoutAnyListener() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> { }, b -> b.keepNotifications(true));
        s.server().notifyClient("x/one", null);
        s.client().ping(); // the reader is FIFO (inline mode): the notification came before the ping's response
        assertThat(s.client().drainNotifications()).containsExactly(note("x/one", null));
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void toolListChangedLoggingAndGeneralListenersAreCalledOnTheEventsThread(Mode mode) throws Exception {
        CountDownLatch marker = new CountDownLatch(1);
        List<JsonRpcMessage.Notification> seen = new CopyOnWriteArrayList<>();
        List<String> threads = new CopyOnWriteArrayList<>();
        AtomicInteger listChanged = new AtomicInteger();
        List<LoggingMessageNotification> logs = new CopyOnWriteArrayList<>();
        Session s = connect(mode, marker, seen, b -> b, l -> l
                .toolsChanged(() -> {
                    listChanged.incrementAndGet();
                    threads.add(Thread.currentThread().getName());
                })
                .logs(m -> {
                    logs.add(m);
                    threads.add(Thread.currentThread().getName());
                }));

        s.server().notifyClient("notifications/tools/list_changed", null);
        s.server().notifyClient("notifications/message", Map.of("level", "warning", "logger", "db",
                "data", Map.of("msg", "slow query", "ms", 1200)));
        s.server().notifyClient("notifications/message", Map.of("level", "bogus", "data", "x"));
        deliverMarker(s);
        assertThat(marker.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(listChanged).hasValue(1);
        assertThat(logs).hasSize(2);
        assertThat(logs.get(0).knownLevel()).contains(LoggingLevel.WARNING);
        assertThat(logs.get(0).logger()).isEqualTo("db");
        assertThat(logs.get(0).data()).isEqualTo(Map.of("msg", "slow query", "ms", 1200));
        assertThat(logs.get(1).level()).isEqualTo("bogus");
        assertThat(logs.get(1).knownLevel()).isEmpty();
        assertThat(threads).isNotEmpty().allSatisfy(name -> assertThat(name).startsWith("mcp-events-"));
        assertThat(seen).extracting(JsonRpcMessage.Notification::method).contains(
                "notifications/tools/list_changed", "notifications/message");
    }

    @Test
    void listenersRunOneAtATimeInArrivalOrder() throws Exception {
        CountDownLatch marker = new CountDownLatch(1);
        List<JsonRpcMessage.Notification> seen = new CopyOnWriteArrayList<>();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger maxInside = new AtomicInteger();
        Session s = sessions.connected(Mode.INLINE, t -> { }, b -> b.listener(new Listen().notifications(n -> {
            maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
            seen.add(n);
            inside.decrementAndGet();
            if (n.method().equals(MARKER)) {
                marker.countDown();
            }
        })));
        for (int i = 0; i < 200; i++) {
            s.server().notifyClient("x/n", Map.of("i", i));
        }
        deliverMarker(s);
        assertThat(marker.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(maxInside).hasValue(1);
        assertThat(seen).hasSize(201);
        for (int i = 0; i < 200; i++) {
            assertThat(seen.get(i).params()).isEqualTo(Map.of("i", i));
        }
    }

    @Test
    void aFailingListenerDoesNotStopLaterNotifications() throws Exception {
        CountDownLatch marker = new CountDownLatch(1);
        Session s = sessions.connected(Mode.INLINE, t -> { }, b -> b.listener(new Listen().notifications(n -> {
            if (n.method().equals(MARKER)) {
                marker.countDown();
                return;
            }
            throw new IllegalStateException("listener bug");
        }).toolsChanged(() -> {
            Thread.currentThread().interrupt(); // a stray interrupt must not end the events loop either
            throw new RuntimeException("another bug");
        })));
        s.server().notifyClient("x/first", null);
        s.server().notifyClient("notifications/tools/list_changed", null);
        deliverMarker(s);
        assertThat(marker.await(10, TimeUnit.SECONDS)).isTrue();
        s.client().ping();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aSlowListenerDoesNotBlockTheReaderOrCalls(Mode mode) throws Exception {
        CountDownLatch inListener = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Session s = sessions.connected(mode, t -> { }, b -> b.listener(new Listen().notifications(n -> {
            inListener.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        })));
        s.server().notifyClient("x/slow", null);
        assertThat(inListener.await(10, TimeUnit.SECONDS)).isTrue();

        s.client().ping();
        s.server().notifyClient("x/second", null);
        s.client().ping();
        release.countDown();
    }

    @Test
    void aListenerMayCallTheClient() throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        List<Object> results = new CopyOnWriteArrayList<>();
        McpClient[] self = new McpClient[1];
        Session s = sessions.connected(Mode.INLINE, t -> t.on("tools/list", r -> Map.of("tools", List.of(
                Map.of("name", "fresh", "inputSchema", Map.of())))), b -> b.listener(new Listen().toolsChanged(() -> {
                    try {
                        results.addAll(self[0].listAllTools());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        done.countDown();
                    }
                })));
        self[0] = s.client();
        s.server().notifyClient("notifications/tools/list_changed", null);
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(results).hasSize(1);
    }

    @Test
    void progressForAnUnknownTokenIsIgnored() throws Exception {
        CountDownLatch marker = new CountDownLatch(1);
        List<JsonRpcMessage.Notification> seen = new CopyOnWriteArrayList<>();
        Session s = connect(Mode.INLINE, marker, seen, b -> b);
        s.server().notifyClient("notifications/progress", Map.of("progressToken", "nobody", "progress", 1));
        s.server().notifyClient("notifications/progress", Map.of("progressToken", 424242, "progress", 1));
        s.server().notifyClient("notifications/progress", Map.of("progress", 1));
        s.server().notifyClient("notifications/progress", null);
        deliverMarker(s);
        assertThat(marker.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(seen).extracting(JsonRpcMessage.Notification::method).containsExactly(MARKER);
        assertThat(s.client().drainNotifications()).containsExactly(note(MARKER, null));
    }

    @Test
    void aLogMessageWithoutParamsNeverReachesTheLoggingListenerAsNull() throws Exception {
        CountDownLatch marker = new CountDownLatch(1);
        List<Object> logs = new CopyOnWriteArrayList<>();
        Session s = connect(Mode.INLINE, marker, new CopyOnWriteArrayList<>(), b -> b, l -> l.logs(logs::add));
        s.server().notifyClient("notifications/message", null);
        deliverMarker(s);
        assertThat(marker.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(logs).doesNotContainNull();
    }

    @Test
    void aMalformedLogMessageIsStillQueuedAndPassedToTheGeneralListener() throws Exception {
        CountDownLatch marker = new CountDownLatch(1);
        List<JsonRpcMessage.Notification> seen = new CopyOnWriteArrayList<>();
        Session s = connect(Mode.INLINE, marker, seen, b -> b, l -> l.logs(m -> { }));
        s.server().notifyClient("notifications/message", Map.of("level", Map.of("nested", true), "data", "x"));
        deliverMarker(s);
        assertThat(marker.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(seen).extracting(JsonRpcMessage.Notification::method).contains("notifications/message");
        assertThat(s.client().drainNotifications()).extracting(JsonRpcMessage.Notification::method)
                .contains("notifications/message");
    }

    // ------------------------------------------------------------------------------------------------ requests

    @Test
    void setLoggingLevelSendsTheWireName() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.on("logging/setLevel", r -> Map.of()), b -> b);
        s.client().setLoggingLevel(LoggingLevel.WARNING);
        assertThat(s.server().awaitRequest("logging/setLevel").params()).isEqualTo(Map.of("level", "warning"));
    }

    @Test
    void subscribeAndUnsubscribeSendTheUri() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.on("resources/subscribe", r -> Map.of())
                .on("resources/unsubscribe", r -> Map.of()), b -> b);
        s.client().subscribe("file:///a b");
        s.client().unsubscribe("file:///a b");
        assertThat(s.server().awaitRequest("resources/subscribe").params()).isEqualTo(Map.of("uri", "file:///a b"));
        assertThat(s.server().awaitRequest("resources/unsubscribe").params())
                .isEqualTo(Map.of("uri", "file:///a b"));
    }
}
