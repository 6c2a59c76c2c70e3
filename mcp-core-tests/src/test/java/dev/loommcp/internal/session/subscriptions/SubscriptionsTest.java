package dev.loommcp.internal.session.subscriptions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.CancellationToken;
import dev.loommcp.config.Era;
import dev.loommcp.McpCancelledException;
import dev.loommcp.McpException;
import dev.loommcp.McpTransportException;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.RequestOptions;
import dev.loommcp.event.Subscription;
import dev.loommcp.event.SubscriptionFilter;
import dev.loommcp.event.SubscriptionListener;
import dev.loommcp.internal.session.Session;
import dev.loommcp.ClientConfigs;
import dev.loommcp.McpClient;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.ServerCapabilities;
import dev.loommcp.testing.BackgroundCall;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.ScriptedTransport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import dev.loommcp.Registration;

/**
 * {@link Subscriptions} below the public API: string listen ids (which the session itself never sends, but a modern
 * call path may), the re-open policy and giving up, over a fake host and over a real session with a short backoff.
 */
class SubscriptionsTest {

    private static final String SUB_ID = Subscriptions.SUBSCRIPTION_ID;

    @RegisterExtension
    final LeakCheck leaks = new LeakCheck();

    /** Records listener events as short strings. */
    static final class Events implements SubscriptionListener {
        final BlockingQueue<String> events = new LinkedBlockingQueue<>();
        volatile McpException endCause;

        @Override
        public void onToolsListChanged() {
            events.add("tools");
        }

        @Override
        public void onResourceUpdated(String uri) {
            events.add("updated " + uri);
        }

        @Override
        public void onInterrupted(McpException cause) {
            events.add("interrupted");
        }

        @Override
        public void onReestablished(SubscriptionFilter acknowledged) {
            events.add("reestablished");
        }

        @Override
        public void onEnded(McpException cause) {
            endCause = cause;
            events.add("ended " + (cause == null ? "normally" : cause.getClass().getSimpleName()));
        }

        void expect(String... expected) throws InterruptedException {
            for (String e : expected) {
                assertThat(events.poll(10, TimeUnit.SECONDS)).isEqualTo(e);
            }
        }
    }

    /** A modern host whose listen calls take string ids {@code L1, L2, ...} and end when the test says. */
    static final class FakeHost implements Subscriptions.Host {
        final AtomicInteger ids = new AtomicInteger();
        final ConcurrentHashMap<RequestId, CompletableFuture<Object>> calls = new ConcurrentHashMap<>();
        final BlockingQueue<RequestId> sent = new LinkedBlockingQueue<>();
        final List<Thread> threads = new ArrayList<>();
        final BlockingQueue<Runnable> loop = new LinkedBlockingQueue<>();
        final Thread eventThread = Thread.ofVirtual().name("fake-events").start(() -> {
            try {
                while (true) {
                    loop.take().run();
                }
            } catch (InterruptedException e) {
                // done
            }
        });

        @Override
        public Era era() {
            return Era.MODERN;
        }

        @Override
        public void ensureConnected(String method) {
        }

        @Override
        public boolean isClosed() {
            return false;
        }

        @Override
        public ServerCapabilities serverCapabilities() {
            return ServerCapabilities.of();
        }

        @Override
        public Object call(String method, Map<String, Object> params, RequestOptions options,
                                 Consumer<RequestId> onSent) throws InterruptedException {
            RequestId id = RequestId.of("L" + ids.incrementAndGet());
            CompletableFuture<Object> f = new CompletableFuture<>();
            calls.put(id, f);
            CancellationToken token = options.token().orElseThrow();
            Registration reg = token.onCancel(() -> f.completeExceptionally(
                    new McpCancelledException("cancelled: " + token.reason().orElseThrow())));
            onSent.accept(id);
            sent.add(id);
            try {
                return f.get();
            } catch (ExecutionException e) {
                throw (RuntimeException) e.getCause();
            } finally {
                reg.close();
            }
        }

        @Override
        public Map<String, Object> request(String method, Map<String, Object> params, RequestOptions options) {
            throw new AssertionError("no legacy requests in the modern era");
        }

        @Override
        public void dispatch(Runnable listenerCall, long bytes) {
            loop.add(listenerCall);
        }

        @Override
        public void startBackground(String purpose, Runnable task) {
            Thread t = Thread.ofVirtual().name("fake-" + purpose).start(task);
            threads.add(t);
        }

        @Override
        public Duration requestTimeout() {
            return Duration.ofSeconds(10);
        }

        @Override
        public String describe() {
            return "fake";
        }

        RequestId next() throws InterruptedException {
            RequestId id = sent.poll(10, TimeUnit.SECONDS);
            assertThat(id).as("a listen call").isNotNull();
            return id;
        }

        void stop() throws InterruptedException {
            for (Thread t : threads) {
                assertThat(t.join(Duration.ofSeconds(10))).as("thread " + t + " ended").isTrue();
            }
            eventThread.interrupt();
            eventThread.join(Duration.ofSeconds(10));
        }
    }

    private static JsonRpcMessage.Notification note(String method, Map<String, Object> params) {
        return new JsonRpcMessage.Notification(method, params);
    }

    private static JsonRpcMessage.Notification ack(Object id, Map<String, Object> granted) {
        return note(Subscriptions.ACKNOWLEDGED, Map.of("notifications", granted, "_meta", Map.of(SUB_ID, id)));
    }

    @Test
    void stringListenIdsAreDemultiplexedAsJsonValues() throws Exception {
        FakeHost host = new FakeHost();
        Subscriptions subs = new Subscriptions(host);
        Events a = new Events();
        Events b = new Events();
        BackgroundCall<Subscription> openA = BackgroundCall.start("a", () -> subs.open(
                SubscriptionFilter.allListChanges(), a, RequestOptions.DEFAULT));
        RequestId idA = host.next();
        subs.onNotification(ack("L1", Map.of("toolsListChanged", true)));
        Subscription subA = openA.result();
        BackgroundCall<Subscription> openB = BackgroundCall.start("b", () -> subs.open(
                SubscriptionFilter.NONE.withResources("r://1"), b, RequestOptions.DEFAULT));
        RequestId idB = host.next();
        assertThat(idA).isEqualTo(RequestId.of("L1"));
        assertThat(idB).isEqualTo(RequestId.of("L2"));
        subs.onNotification(ack("L2", Map.of("resourceSubscriptions", List.of("r://1"))));
        Subscription subB = openB.result();

        subs.onNotification(note("notifications/resources/updated", Map.of("uri", "r://1",
                "_meta", Map.of(SUB_ID, "L2"))));
        subs.onNotification(note("notifications/tools/list_changed", Map.of("_meta", Map.of(SUB_ID, "L3"))));
        subs.onNotification(note("notifications/tools/list_changed", Map.of("_meta", Map.of(SUB_ID, 1))));
        subs.onNotification(note("notifications/tools/list_changed", Map.of("_meta", Map.of(SUB_ID, "L1"))));
        subs.onNotification(note("notifications/resources/updated", Map.of("uri", "r://2",
                "_meta", Map.of(SUB_ID, "L2"))));

        a.expect("tools");
        b.expect("updated r://1", "updated r://2");
        assertThat(subB.acknowledged()).isEqualTo(SubscriptionFilter.NONE.withResources("r://1"));

        // a server-sent cancel naming a string listen id ends that subscription only
        subs.onNotification(note("notifications/cancelled", Map.of("requestId", "L2")));
        b.expect("ended normally");
        assertThat(subB.isActive()).isFalse();
        assertThat(subA.isActive()).isTrue();
        subA.close();
        a.expect("ended normally");
        assertThat(subs.activeCount()).isZero();
        host.stop();
    }

    @Test
    void reopensBackOffAndGiveUpAfterTheAttemptsWithTheLastFailure() throws Exception {
        FakeHost host = new FakeHost();
        Subscriptions subs = new Subscriptions(host);
        subs.backoff(new Subscriptions.Backoff(Duration.ofMillis(1), Duration.ofMillis(4), 3));
        Events e = new Events();
        BackgroundCall<Subscription> open = BackgroundCall.start("open", () -> subs.open(
                SubscriptionFilter.allListChanges(), e, RequestOptions.DEFAULT));
        RequestId first = host.next();
        subs.onNotification(ack(first.value(), Map.of("toolsListChanged", true)));
        Subscription sub = open.result();

        host.calls.get(first).completeExceptionally(new McpTransportException("stream ended"));
        e.expect("interrupted");
        // the first re-open is acknowledged, then breaks too: the count of failures starts again
        RequestId second = host.next();
        subs.onNotification(ack(second.value(), Map.of()));
        e.expect("reestablished");
        host.calls.get(second).completeExceptionally(new McpTransportException("stream ended again"));
        e.expect("interrupted");
        for (int i = 1; i <= 3; i++) {
            RequestId id = host.next();
            host.calls.get(id).completeExceptionally(new McpTransportException("refused " + i));
        }

        e.expect("ended McpTransportException");
        assertThat(e.endCause).hasMessage("refused 3");
        assertThat(sub.isActive()).isFalse();
        assertThat(host.ids.get()).isEqualTo(5);
        sub.close();
        assertThat(e.events).isEmpty();
        host.stop();
    }

    @Test
    void backoffDoublesUpToItsLimit() {
        Subscriptions.Backoff b = Subscriptions.Backoff.DEFAULT;
        assertThat(List.of(b.delay(0), b.delay(1), b.delay(2), b.delay(3), b.delay(4), b.delay(5), b.delay(60)))
                .containsExactly(Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(2),
                        Duration.ofSeconds(4), Duration.ofSeconds(8), Duration.ofSeconds(10), Duration.ofSeconds(10));
        assertThat(b.attempts()).isEqualTo(5);
    }

    @Test
    void aRealSessionGivesUpAfterTheAttemptsAndLeavesNoThread() throws Exception {
        ScriptedTransport server = ScriptedTransport.create(ScriptedTransport.Mode.INLINE);
        server.on("server/discover", r -> Map.of("supportedVersions", List.of("2026-07-28"),
                "capabilities", Map.of(), "resultType", "complete"));
        AtomicInteger listens = new AtomicInteger();
        server.on(Subscriptions.LISTEN, r -> {
            if (listens.incrementAndGet() > 1) {
                // the server process is gone: every re-open fails as it is sent
                server.failSend(r.id(), new McpTransportException("no server (" + listens.get() + ")"));
            }
            return ScriptedTransport.HOLD;
        });
        Session session = new Session(ClientConfigs.of(McpClient.newBuilder(server).protocolMode(ProtocolMode.MODERN)));
        try {
            session.connect(RequestOptions.DEFAULT);
            session.subscriptions().backoff(new Subscriptions.Backoff(Duration.ofMillis(1), Duration.ofMillis(8), 4));
            Events e = new Events();
            BackgroundCall<Subscription> open = BackgroundCall.start("open", () -> session.listen(
                    SubscriptionFilter.allListChanges(), e, RequestOptions.DEFAULT));
            RequestId id = server.awaitRequest(Subscriptions.LISTEN).id();
            server.deliver(ack(id.value(), Map.of("toolsListChanged", true)));
            Subscription sub = open.result();

            server.failSend(id, new McpTransportException("process restarted"));

            e.expect("interrupted", "ended McpTransportException");
            assertThat(e.endCause).hasMessage("no server (5)");
            List<JsonRpcMessage.Request> sent = server.requests(Subscriptions.LISTEN);
            assertThat(sent).hasSize(5);
            assertThat(sent.stream().map(JsonRpcMessage.Request::id).distinct()).hasSize(5); // a new id each
            assertThat(sub.isActive()).isFalse();
            assertThat(session.pendingCount()).isZero();
        } finally {
            session.close();
        }
        assertThat(LeakCheck.threads("listen")).isEmpty();
    }
}
