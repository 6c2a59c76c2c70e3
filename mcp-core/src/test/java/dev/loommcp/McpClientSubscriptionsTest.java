package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.spi.SendContext;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.testing.BackgroundCall;
import dev.loommcp.testing.Listen;
import dev.loommcp.testing.ScriptedTransport;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.event.Subscription;
import dev.loommcp.event.SubscriptionFilter;
import dev.loommcp.event.SubscriptionListener;

/**
 * {@link McpClient#listen}: the modern era's {@code subscriptions/listen} (acknowledgment, demultiplexing by
 * subscription id, ending it either way, re-opening a broken one) and its legacy mapping onto
 * {@code resources/subscribe} and the session's notifications, over a scripted server in both transport modes.
 */
class McpClientSubscriptionsTest {

    static final String SUB_ID = "io.modelcontextprotocol/subscriptionId";
    static final String LISTEN = "subscriptions/listen";
    static final String ACK = "notifications/subscriptions/acknowledged";

    @RegisterExtension
    final Sessions sessions = new Sessions();

    // ------------------------------------------------------------------------------------------------ fixtures

    /** A modern server: answers server/discover (the era's connect) and holds every listen. */
    static void modernServer(ScriptedTransport t) {
        t.on("server/discover", r -> Map.of("supportedVersions", List.of("2026-07-28"),
                "capabilities", Map.of("tools", Map.of("listChanged", true)),
                "resultType", "complete", "_meta", Map.of("io.modelcontextprotocol/serverInfo",
                        Map.of("name", "scripted-modern", "version", "1"))));
        t.hold(LISTEN);
    }

    private Session modern(Mode mode) throws InterruptedException {
        return modern(mode, l -> { });
    }

    private Session modern(Mode mode, Consumer<Listen> general) throws InterruptedException {
        Listen listen = new Listen();
        general.accept(listen);
        return sessions.connected(mode, McpClientSubscriptionsTest::modernServer,
                b -> b.protocolMode(ProtocolMode.MODERN).keepNotifications(true).listener(listen));
    }

    static Map<String, Object> meta(RequestId id) {
        return Map.of(SUB_ID, id.value());
    }

    static JsonRpcMessage.Notification ack(RequestId id, Map<String, Object> granted) {
        return new JsonRpcMessage.Notification(ACK, Map.of("notifications", granted, "_meta", meta(id)));
    }

    static JsonRpcMessage.Notification toolsChanged(Object subscriptionId) {
        return new JsonRpcMessage.Notification("notifications/tools/list_changed",
                Map.of("_meta", Map.of(SUB_ID, subscriptionId)));
    }

    static JsonRpcMessage.Notification updated(Object subscriptionId, String uri) {
        return new JsonRpcMessage.Notification("notifications/resources/updated",
                Map.of("uri", uri, "_meta", Map.of(SUB_ID, subscriptionId)));
    }

    /** Opens a subscription on a background thread; the fake server acknowledges {@code granted}. */
    static Subscription open(Session s, SubscriptionFilter filter, SubscriptionListener listener, int nth,
                             Map<String, Object> granted) {
        BackgroundCall<Subscription> call = BackgroundCall.start("listen", () -> s.client().listen(filter, listener));
        RequestId id = s.server().awaitRequests(LISTEN, nth).get(nth - 1).id();
        s.server().deliverOn(id, ack(id, granted));
        return call.result();
    }

    /** A subscription and the id of its listen request. */
    record Opened(Subscription sub, RequestId id) {
    }

    /** Opens the first subscription of {@code s}: every list change asked for, tool list changes granted. */
    static Opened openTools(Session s, SubscriptionListener listener) {
        Subscription sub = open(s, SubscriptionFilter.allListChanges(), listener, 1, Map.of("toolsListChanged", true));
        return new Opened(sub, listenId(s, 1));
    }

    static RequestId listenId(Session s, int nth) {
        return s.server().awaitRequests(LISTEN, nth).get(nth - 1).id();
    }

    /** Records what a subscription listener hears, as short strings, in order. */
    static class Recorder implements SubscriptionListener {
        final BlockingQueue<String> events = new LinkedBlockingQueue<>();
        final List<JsonRpcMessage.Notification> notes = new CopyOnWriteArrayList<>();
        final AtomicInteger ended = new AtomicInteger();
        volatile McpException endCause;
        volatile McpException interruptCause;

        @Override
        public void onToolsListChanged() {
            events.add("tools");
        }

        @Override
        public void onPromptsListChanged() {
            events.add("prompts");
        }

        @Override
        public void onResourcesListChanged() {
            events.add("resources");
        }

        @Override
        public void onResourceUpdated(String uri) {
            events.add("updated " + uri);
        }

        @Override
        public void onNotification(JsonRpcMessage.Notification notification) {
            notes.add(notification);
            events.add("note " + notification.method());
        }

        @Override
        public void onInterrupted(McpException cause) {
            interruptCause = cause;
            events.add("interrupted");
        }

        @Override
        public void onReestablished(SubscriptionFilter acknowledged) {
            events.add("reestablished " + acknowledged);
        }

        @Override
        public void onEnded(McpException cause) {
            endCause = cause;
            ended.incrementAndGet();
            events.add("ended " + (cause == null ? "normally" : cause.getClass().getSimpleName()));
        }

        String next() throws InterruptedException {
            String e = events.poll(10, TimeUnit.SECONDS);
            assertThat(e).as("the next subscription event").isNotNull();
            return e;
        }

        void expect(String... expected) throws InterruptedException {
            for (String e : expected) {
                assertThat(next()).isEqualTo(e);
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ modern

    @ParameterizedTest
    @EnumSource(Mode.class)
    void theAcknowledgedSubsetIsReportedAndTheRestRefused(Mode mode) throws Exception {
        Session s = modern(mode);
        SubscriptionFilter filter = SubscriptionFilter.allListChanges().withResources("notes://all", "notes://x");
        Recorder r = new Recorder();

        Subscription sub = open(s, filter, r, 1, Map.of("toolsListChanged", true,
                "resourceSubscriptions", List.of("notes://all", "not-asked-for://y")));

        JsonRpcMessage.Request listen = s.server().awaitRequest(LISTEN);
        assertThat(listen.params().get("notifications")).isEqualTo(Map.of("toolsListChanged", true,
                "promptsListChanged", true, "resourcesListChanged", true,
                "resourceSubscriptions", List.of("notes://all", "notes://x")));
        assertThat(sub.requested()).isEqualTo(filter);
        assertThat(sub.acknowledged()).isEqualTo(new SubscriptionFilter(true, false, false, List.of("notes://all")));
        assertThat(sub.refused()).isEqualTo(new SubscriptionFilter(false, true, true, List.of("notes://x")));
        assertThat(sub.isActive()).isTrue();
        sub.close();
        r.expect("ended normally");
        assertThat(sub.isActive()).isFalse();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void notificationsGoToTheSubscriptionTheirIdNamesAndStillReachTheClient(Mode mode) throws Exception {
        AtomicInteger toolsChanged = new AtomicInteger();
        Session s = modern(mode, l -> l.toolsChanged(toolsChanged::incrementAndGet));
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        Subscription subA = open(s, SubscriptionFilter.allListChanges(), a, 1, Map.of("toolsListChanged", true));
        Subscription subB = open(s, SubscriptionFilter.NONE.withResources("notes://all"), b, 2,
                Map.of("resourceSubscriptions", List.of("notes://all")));
        RequestId idA = listenId(s, 1);
        RequestId idB = listenId(s, 2);
        assertThat(idA).isNotEqualTo(idB);

        s.server().deliverOn(idB, updated(idB.value(), "notes://all"));
        s.server().deliverOn(idA, toolsChanged(idA.value()));
        // the same number as a string is another JSON value: it names no subscription
        s.server().deliver(toolsChanged(String.valueOf(idA.value())));
        s.server().deliverOn(idA, new JsonRpcMessage.Notification("notifications/tasks",
                Map.of("taskId", "t1", "_meta", meta(idA))));
        s.server().deliverOn(idB, updated(idB.value(), "notes://all"));

        a.expect("tools", "note notifications/tools/list_changed", "note notifications/tasks");
        b.expect("updated notes://all", "note notifications/resources/updated",
                "updated notes://all", "note notifications/resources/updated");
        // the client's own listener and drain queue see them as before; a tools list change marks the catalog
        // stale for both (the one with the string id included: it is still a server notification)
        dev.loommcp.testing.Await.until("two tools list changes at the client listener",
                () -> toolsChanged.get() == 2);
        assertThat(s.client().drainNotifications()).extracting(JsonRpcMessage.Notification::method)
                .contains(ACK, "notifications/tools/list_changed", "notifications/resources/updated");

        subA.close();
        subB.close();
        a.expect("ended normally");
        b.expect("ended normally");
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void anotherSubscriptionsMessagesMayComeBeforeTheAcknowledgment(Mode mode) throws Exception {
        Session s = modern(mode);
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        Subscription subA = open(s, SubscriptionFilter.allListChanges(), a, 1, Map.of("toolsListChanged", true));
        RequestId idA = listenId(s, 1);

        BackgroundCall<Subscription> openB = BackgroundCall.start("listen-b",
                () -> s.client().listen(SubscriptionFilter.NONE.withResources("r://1"), b));
        RequestId idB = listenId(s, 2);
        s.server().deliver(toolsChanged(idA.value()));
        s.server().deliver(updated(idA.value(), "r://other"));
        assertThat(openB.isDone()).isFalse();
        s.server().deliver(ack(idB, Map.of("resourceSubscriptions", List.of("r://1"))));
        Subscription subB = openB.result();
        s.server().deliver(updated(idB.value(), "r://1"));

        a.expect("tools", "note notifications/tools/list_changed",
                "updated r://other", "note notifications/resources/updated");
        b.expect("updated r://1", "note notifications/resources/updated");
        assertThat(subB.acknowledged().resourceSubscriptions()).containsExactly("r://1");
        subA.close();
        subB.close();
    }

    @Test
    void closeOnStdioSendsCancelledForTheListenId() throws Exception {
        Session s = modern(Mode.INLINE);
        Recorder r = new Recorder();
        Opened o = openTools(s, r);
        Subscription sub = o.sub();
        RequestId id = o.id();

        sub.close();

        JsonRpcMessage.Notification cancelled = s.server().awaitNotification("notifications/cancelled");
        assertThat(RequestId.of(((Number) cancelled.params().get("requestId")).longValue())).isEqualTo(id);
        r.expect("ended normally");
        assertThat(sub.isActive()).isFalse();
        sub.close(); // idempotent
        assertThat(s.server().notifications("notifications/cancelled")).hasSize(1);
        assertThat(r.ended).hasValue(1);
        assertThat(s.client().pendingRequestCount()).isZero();
    }

    @Test
    void closeOnAnExchangePerRequestTransportAbortsTheExchangeAndSendsNothing() throws Exception {
        ScriptedTransport server = ScriptedTransport.create(Mode.BLOCKING);
        modernServer(server);
        try (McpClient client = McpClient.newBuilder(new PerRequest(server)).protocolMode(ProtocolMode.MODERN)
                .build()) {
            client.connect();
            Recorder r = new Recorder();
            BackgroundCall<Subscription> call = BackgroundCall.start("listen",
                    () -> client.listen(SubscriptionFilter.allListChanges(), r));
            RequestId id = server.awaitRequest(LISTEN).id();
            server.deliverOn(id, ack(id, Map.of("toolsListChanged", true)));
            Subscription sub = call.result();

            sub.close();

            server.awaitSendFinished(id);
            assertThat(server.cancelHookRan(id)).isTrue();
            assertThat(server.notifications("notifications/cancelled")).isEmpty();
            r.expect("ended normally");
            assertThat(client.pendingRequestCount()).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aResultForTheListenEndsItNormally(Mode mode) throws Exception {
        Session s = modern(mode);
        Recorder r = new Recorder();
        Opened o = openTools(s, r);
        Subscription sub = o.sub();
        RequestId id = o.id();

        s.server().deliverOn(id, toolsChanged(id.value()));
        s.server().reply(id, Map.of("resultType", "complete", "_meta", meta(id)));

        r.expect("tools", "note notifications/tools/list_changed", "ended normally"); // what came first, first
        assertThat(sub.isActive()).isFalse();
        sub.close();
        assertThat(r.ended).hasValue(1);
        assertThat(s.server().requests(LISTEN)).hasSize(1); // not re-opened
    }

    @Test
    void aServerSentCancelledForTheListenEndsItNormally() throws Exception {
        Session s = modern(Mode.INLINE);
        Recorder r = new Recorder();
        Opened o = openTools(s, r);
        Subscription sub = o.sub();
        RequestId id = o.id();

        s.server().notifyClient("notifications/cancelled", Map.of("requestId", id.value(), "reason", "shutdown"));

        r.expect("ended normally");
        assertThat(sub.isActive()).isFalse();
        assertThat(s.server().requests(LISTEN)).hasSize(1);
        Await.pendingZero(s);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void anAbruptEndIsReopenedWithANewIdAndTheListenerIsTold(Mode mode) throws Exception {
        Session s = modern(mode);
        Recorder r = new Recorder();
        Subscription sub = open(s, SubscriptionFilter.NONE.withResources("r://1"), r, 1,
                Map.of("resourceSubscriptions", List.of("r://1")));
        RequestId first = listenId(s, 1);

        s.server().failSend(first, new McpTransportException("the listen stream ended"));

        r.expect("interrupted");
        assertThat(r.interruptCause).isInstanceOf(McpTransportException.class)
                .hasMessageContaining("the listen stream ended");
        assertThat(sub.isActive()).isTrue();
        RequestId second = listenId(s, 2);
        assertThat(second).isNotEqualTo(first);
        assertThat(s.server().requests(LISTEN).get(1).params().get("notifications"))
                .isEqualTo(Map.of("resourceSubscriptions", List.of("r://1")));
        s.server().deliverOn(first, updated(first.value(), "r://1")); // the old id is gone: dropped
        s.server().deliverOn(second, ack(second, Map.of()));
        r.expect("reestablished " + SubscriptionFilter.NONE);
        assertThat(sub.acknowledged()).isEqualTo(SubscriptionFilter.NONE);
        s.server().deliverOn(second, updated(second.value(), "r://1"));
        r.expect("updated r://1", "note notifications/resources/updated");

        sub.close();
        r.expect("ended normally");
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void closingTheClientEndsEverySubscriptionOnceAndLeavesNoThread(Mode mode) throws Exception {
        Session s = modern(mode);
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        Subscription subA = open(s, SubscriptionFilter.allListChanges(), a, 1, Map.of("toolsListChanged", true));
        Subscription subB = open(s, SubscriptionFilter.allListChanges(), b, 2, Map.of("toolsListChanged", true));
        assertThat(dev.loommcp.testing.McpThreadLeakCheck.live("listen")).hasSizeGreaterThanOrEqualTo(2);

        s.client().close();

        a.expect("ended normally");
        b.expect("ended normally");
        assertThat(subA.isActive()).isFalse();
        assertThat(subB.isActive()).isFalse();
        subA.close();
        subB.close();
        assertThat(a.ended).hasValue(1);
        assertThat(b.ended).hasValue(1);
        assertThat(a.events).isEmpty();
        assertThat(dev.loommcp.testing.McpThreadLeakCheck.live("listen")).isEmpty(); // joined by close()
        assertThatThrownBy(() -> s.client().listen(SubscriptionFilter.allListChanges(), new Recorder()))
                .isInstanceOf(McpClosedException.class);
    }

    @Test
    void aLostTransportEndsTheSubscriptionsWithTheCause() throws Exception {
        Session s = modern(Mode.INLINE);
        Recorder r = new Recorder();
        open(s, SubscriptionFilter.allListChanges(), r, 1, Map.of("toolsListChanged", true));

        s.server().lose(new McpTransportException("server process exited"));

        // the loss reaches the listen call a moment before the client counts as closed: the listener may hear the
        // interruption first
        String first = r.next();
        if (first.equals("interrupted")) {
            first = r.next();
        }
        assertThat(first).isEqualTo("ended McpClosedException");
        assertThat(r.endCause.getCause()).hasMessage("server process exited");
        assertThat(r.ended).hasValue(1);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void anUnacknowledgedListenTimesOutAndIsCancelled(Mode mode) throws Exception {
        Session s = modern(mode);
        Recorder r = new Recorder();

        assertThatThrownBy(() -> s.client().listen(SubscriptionFilter.allListChanges(), r,
                RequestOptions.ofTimeout(Duration.ofMillis(200))))
                .isInstanceOf(McpTimeoutException.class).hasMessageContaining(LISTEN);

        RequestId id = listenId(s, 1);
        if (mode == Mode.INLINE) {
            JsonRpcMessage.Notification cancelled = s.server().awaitNotification("notifications/cancelled");
            assertThat(((Number) cancelled.params().get("requestId")).longValue()).isEqualTo(id.value());
        } else {
            s.server().awaitSendFinished(id);
        }
        s.server().deliverOn(id, ack(id, Map.of("toolsListChanged", true))); // too late: ignored
        Await.pendingZero(s);
        assertThat(r.events).isEmpty();
    }

    @Test
    void anErrorAnswerFailsTheOpen() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> {
            modernServer(t);
            t.on(LISTEN, req -> new dev.loommcp.jsonrpc.JsonRpcError(-32602, "bad filter", null));
        }, b -> b.protocolMode(ProtocolMode.MODERN));
        Recorder r = new Recorder();

        assertThatThrownBy(() -> s.client().listen(SubscriptionFilter.allListChanges(), r))
                .isInstanceOf(McpRpcException.class).hasMessageContaining("bad filter");
        assertThat(r.events).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aThrowingListenerDoesNotEndTheSubscription(Mode mode) throws Exception {
        Session s = modern(mode);
        Recorder r = new Recorder() {
            @Override
            public void onToolsListChanged() {
                super.onToolsListChanged();
                throw new IllegalStateException("listener bug");
            }

            @Override
            public void onNotification(JsonRpcMessage.Notification notification) {
                super.onNotification(notification);
                throw new OutOfMemoryError("listener bug (simulated)");
            }
        };
        Opened o = openTools(s, r);
        Subscription sub = o.sub();
        RequestId id = o.id();

        s.server().deliverOn(id, toolsChanged(id.value()));
        s.server().deliverOn(id, toolsChanged(id.value()));

        r.expect("tools", "note notifications/tools/list_changed", "tools", "note notifications/tools/list_changed");
        assertThat(sub.isActive()).isTrue();
        sub.close();
        r.expect("ended normally");
    }

    @Test
    void anErrorAnswerToARunningListenEndsItWithThatError() throws Exception {
        Session s = modern(Mode.INLINE);
        Recorder r = new Recorder();
        Opened o = openTools(s, r);
        Subscription sub = o.sub();
        RequestId id = o.id();

        s.server().replyError(id, -32603, "subscription torn down", null);

        r.expect("ended McpRpcException");
        assertThat(r.endCause).hasMessageContaining("subscription torn down");
        assertThat(sub.isActive()).isFalse();
        assertThat(s.server().requests(LISTEN)).hasSize(1);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void theCallersTokenOrInterruptStopsTheOpenAndCancelsTheListen(Mode mode) throws Exception {
        Session s = modern(mode);
        Recorder r = new Recorder();
        CancellationToken token = CancellationToken.create();
        BackgroundCall<Subscription> byToken = BackgroundCall.start("listen", () -> s.client().listen(
                SubscriptionFilter.allListChanges(), r, RequestOptions.ofToken(token)));
        RequestId first = listenId(s, 1);
        token.cancel("user gave up");
        assertThat(byToken.failure()).isInstanceOf(McpCancelledException.class).hasMessageContaining("user gave up");

        BackgroundCall<Subscription> byInterrupt = BackgroundCall.start("listen", () -> s.client().listen(
                SubscriptionFilter.allListChanges(), r));
        RequestId second = listenId(s, 2);
        byInterrupt.thread().interrupt();
        assertThat(byInterrupt.failure()).isInstanceOf(InterruptedException.class);

        if (mode == Mode.INLINE) {
            dev.loommcp.testing.Await.until("both listens cancelled on the wire",
                    () -> s.server().notifications("notifications/cancelled").size() == 2);
        } else {
            s.server().awaitSendFinished(first);
            s.server().awaitSendFinished(second);
        }
        Await.pendingZero(s);
        assertThat(r.events).isEmpty();
        // a token cancelled before: nothing is sent
        assertThatThrownBy(() -> s.client().listen(SubscriptionFilter.allListChanges(), r,
                RequestOptions.ofToken(token))).isInstanceOf(McpCancelledException.class);
        assertThat(s.server().requests(LISTEN)).hasSize(2);
    }

    // ------------------------------------------------------------------------------------------------ legacy

    private Session legacy(Map<String, Object> capabilities) throws InterruptedException {
        return sessions.connected(Mode.INLINE, t -> {
            t.serverCapabilities(capabilities);
            t.on("resources/subscribe", req -> "bad://1".equals(req.params().get("uri"))
                    ? new dev.loommcp.jsonrpc.JsonRpcError(-32602, "no such resource", null) : Map.of());
            t.on("resources/unsubscribe", req -> Map.of());
        }, b -> b);
    }

    @Test
    void legacyMapsOntoResourcesSubscribeWithSharedUrisCounted() throws Exception {
        Session s = legacy(Map.of("resources", Map.of("subscribe", true, "listChanged", true),
                "tools", Map.of("listChanged", true)));
        Recorder a = new Recorder();
        Recorder b = new Recorder();

        Subscription subA = s.client().listen(SubscriptionFilter.allListChanges().withResources("r://1", "bad://1"),
                a);
        Subscription subB = s.client().listen(SubscriptionFilter.NONE.withResources("r://1", "r://2"), b);

        assertThat(subA.acknowledged()).isEqualTo(new SubscriptionFilter(true, false, true, List.of("r://1")));
        assertThat(subA.refused()).isEqualTo(new SubscriptionFilter(false, true, false, List.of("bad://1")));
        assertThat(subB.acknowledged()).isEqualTo(SubscriptionFilter.NONE.withResources("r://1", "r://2"));
        assertThat(s.server().requests("resources/subscribe")).extracting(m -> m.params().get("uri"))
                .containsExactly("r://1", "bad://1", "r://2"); // r://1 once: B shares A's
        assertThat(s.server().requests(LISTEN)).isEmpty();

        s.server().notifyClient("notifications/resources/updated", Map.of("uri", "r://2"));
        s.server().notifyClient("notifications/tools/list_changed", null);
        s.server().notifyClient("notifications/resources/updated", Map.of("uri", "r://1"));
        s.server().notifyClient("notifications/prompts/list_changed", null);
        s.server().notifyClient("notifications/resources/list_changed", null);

        a.expect("tools", "note notifications/tools/list_changed", "updated r://1",
                "note notifications/resources/updated", "prompts", "note notifications/prompts/list_changed",
                "resources", "note notifications/resources/list_changed");
        b.expect("updated r://2", "note notifications/resources/updated", "updated r://1",
                "note notifications/resources/updated");

        subA.close();
        a.expect("ended normally");
        assertThat(s.server().requests("resources/unsubscribe")).isEmpty(); // B still holds r://1
        s.server().notifyClient("notifications/resources/updated", Map.of("uri", "r://1"));
        b.expect("updated r://1", "note notifications/resources/updated");

        subB.close();
        b.expect("ended normally");
        assertThat(s.server().requests("resources/unsubscribe")).extracting(m -> m.params().get("uri"))
                .containsExactlyInAnyOrder("r://1", "r://2");
        subB.close();
        assertThat(s.server().requests("resources/unsubscribe")).hasSize(2);

        // a URI released by everyone is subscribed again by the next subscription that wants it
        Subscription subC = s.client().listen(SubscriptionFilter.NONE.withResources("r://1"), new Recorder());
        assertThat(s.server().requests("resources/subscribe")).extracting(m -> m.params().get("uri"))
                .containsExactly("r://1", "bad://1", "r://2", "r://1");
        subC.close();
    }

    @Test
    void legacyWithoutTheSubscribeCapabilityRefusesTheUrisAndSendsNothing() throws Exception {
        Session s = legacy(Map.of("resources", Map.of(), "prompts", Map.of("listChanged", true)));
        Recorder r = new Recorder();

        Subscription sub = s.client().listen(SubscriptionFilter.allListChanges().withResources("r://1"), r);

        assertThat(sub.acknowledged()).isEqualTo(new SubscriptionFilter(false, true, false, List.of()));
        assertThat(sub.refused()).isEqualTo(new SubscriptionFilter(true, false, true, List.of("r://1")));
        assertThat(s.server().requests("resources/subscribe")).isEmpty();
        s.server().notifyClient("notifications/resources/updated", Map.of("uri", "r://1")); // not subscribed
        s.server().notifyClient("notifications/prompts/list_changed", null);
        r.expect("prompts", "note notifications/prompts/list_changed");
        s.client().close();
        r.expect("ended normally");
        assertThat(s.server().requests("resources/unsubscribe")).isEmpty();
    }

    @Test
    void legacyResourcesAreSubscribedAgainWhenTheServerStartsANewSession() throws Exception {
        Session s = legacy(Map.of("resources", Map.of("subscribe", true), "tools", Map.of("listChanged", true)));
        Recorder r = new Recorder();
        Subscription sub = s.client().listen(new SubscriptionFilter(true, false, false, List.of("r://1", "r://2")),
                r);
        s.server().on("tools/list", req -> Map.of("tools", List.of()));
        s.server().expireSession();
        s.server().on("resources/subscribe", req -> "r://2".equals(req.params().get("uri"))
                ? new dev.loommcp.jsonrpc.JsonRpcError(-32602, "gone", null) : Map.of());

        s.client().listTools(null); // expires, renews the session, is sent again

        r.expect("interrupted", "reestablished " + new SubscriptionFilter(true, false, false, List.of("r://1")));
        assertThat(r.interruptCause).isInstanceOf(McpSessionExpiredException.class);
        assertThat(s.server().requests("resources/subscribe")).extracting(m -> m.params().get("uri"))
                .containsExactlyInAnyOrder("r://1", "r://2", "r://1", "r://2");
        assertThat(sub.acknowledged().resourceSubscriptions()).containsExactly("r://1");
        s.server().notifyClient("notifications/resources/updated", Map.of("uri", "r://2"));
        s.server().notifyClient("notifications/resources/updated", Map.of("uri", "r://1"));
        r.expect("updated r://1", "note notifications/resources/updated");

        sub.close();
        r.expect("ended normally");
        // r://1 is unsubscribed; r://2 no longer is subscribed, so nothing is sent for it
        assertThat(s.server().requests("resources/unsubscribe")).extracting(m -> m.params().get("uri"))
                .containsExactly("r://1");
    }

    @Test
    void legacyClientCloseEndsOnceWithoutUnsubscribing() throws Exception {
        Session s = legacy(Map.of("resources", Map.of("subscribe", true)));
        Recorder r = new Recorder();
        Subscription sub = s.client().listen(SubscriptionFilter.NONE.withResources("r://1"), r);

        s.client().close();
        sub.close();

        r.expect("ended normally");
        assertThat(r.ended).hasValue(1);
        assertThat(s.server().requests("resources/unsubscribe")).isEmpty();
        assertThat(s.server().rejectedSends()).isEmpty();
    }

    // ------------------------------------------------------------------------------------------------ helpers

    /** A blocking scripted transport that says one exchange per request, as the modern HTTP transport does. */
    static final class PerRequest implements McpTransport {
        private final ScriptedTransport delegate;

        PerRequest(ScriptedTransport delegate) {
            this.delegate = delegate;
        }

        @Override
        public void open(TransportContext context) throws InterruptedException {
            delegate.open(context);
        }

        @Override
        public void send(JsonRpcMessage message, SendContext context) throws InterruptedException {
            delegate.send(message, context);
        }

        @Override
        public boolean exchangePerRequest() {
            return true;
        }

        @Override
        public String describe() {
            return delegate.describe();
        }

        @Override
        public void close() {
            delegate.close();
        }
    }

    /** Waits used here. */
    static final class Await {
        static void pendingZero(Session s) {
            dev.loommcp.testing.Await.until("no request pending", () -> s.client().pendingRequestCount() == 0);
        }
    }
}
