package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.testing.BackgroundCall;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import dev.loommcp.event.McpEventListener;

/** {@link McpEventListener}: one start and one end event per request, with durations, and the transport's close. */
class McpClientEventListenerTest {

    private static final Duration SHORT = Duration.ofMillis(200);

    @RegisterExtension
    final Sessions sessions = new Sessions();

    /** One recorded event. */
    record Event(String kind, String method, RequestId id, Duration elapsed, Object detail) {
    }

    /** Records every event; thread-safe. */
    static final class Recorder implements McpEventListener {
        final List<Event> events = new CopyOnWriteArrayList<>();
        final CountDownLatch closed = new CountDownLatch(1);

        @Override
        public void requestStart(String method, RequestId id) {
            events.add(new Event("start", method, id, null, null));
        }

        @Override
        public void requestEnd(String method, RequestId id, Duration elapsed) {
            events.add(new Event("end", method, id, elapsed, null));
        }

        @Override
        public void requestFailed(String method, RequestId id, Duration elapsed, Throwable failure) {
            events.add(new Event("failed", method, id, elapsed, failure));
        }

        @Override
        public void requestCancelled(String method, RequestId id, Duration elapsed, String reason) {
            events.add(new Event("cancelled", method, id, elapsed, reason));
        }

        @Override
        public void transportClosed(Throwable cause) {
            events.add(new Event("closed", null, null, null, cause));
            closed.countDown();
        }

        List<Event> of(String method) {
            return events.stream().filter(e -> method.equals(e.method())).toList();
        }

        long count(String kind) {
            return events.stream().filter(e -> e.kind().equals(kind)).count();
        }
    }

    private static void assertStartThen(List<Event> events, String endKind) {
        assertThat(events).extracting(Event::kind).containsExactly("start", endKind);
        assertThat(events.get(1).id()).isEqualTo(events.get(0).id());
        assertThat(events.get(1).elapsed()).isGreaterThanOrEqualTo(Duration.ZERO);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aSuccessfulRequestGetsStartAndEnd(Mode mode) throws Exception {
        Recorder r = new Recorder();
        Session s = sessions.connected(mode, t -> { }, b -> b.eventListener(r));
        assertStartThen(r.of("initialize"), "end");
        s.client().ping();
        s.client().ping();
        assertThat(r.of("ping")).extracting(Event::kind).containsExactly("start", "end", "start", "end");
        assertStartThen(r.of("ping").subList(0, 2), "end");
        assertThat(r.of("ping").get(0).id()).isNotEqualTo(r.of("ping").get(2).id());
        assertThat(r.count("closed")).isZero();
    }

    @Test
    void anRpcErrorIsAFailureWithTheException() throws Exception {
        Recorder r = new Recorder();
        Session s = sessions.connected(Mode.INLINE, t -> t.hold("x/err"), b -> b.eventListener(r));
        BackgroundCall<Map<String, Object>> call = BackgroundCall.start("err",
                () -> s.client().request("x/err", null, RequestOptions.DEFAULT));
        RequestId id = s.server().awaitRequest("x/err").id();
        s.server().replyError(id, -32602, "bad params", null);
        assertThat(call.failure()).isInstanceOf(McpRpcException.class);
        List<Event> events = r.of("x/err");
        assertStartThen(events, "failed");
        assertThat(events.get(0).id()).isEqualTo(id);
        assertThat(events.get(1).detail()).isInstanceOf(McpRpcException.class);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aTimeoutIsAFailureLastingAtLeastTheTimeout(Mode mode) throws Exception {
        Recorder r = new Recorder();
        Session s = sessions.connected(mode, t -> t.hold("tools/call"), b -> b.eventListener(r));
        assertThatThrownBy(() -> s.client().callTool("slow", Map.of(), RequestOptions.ofTimeout(SHORT)))
                .isInstanceOf(McpTimeoutException.class);
        List<Event> events = r.of("tools/call");
        assertStartThen(events, "failed");
        assertThat(events.get(1).detail()).isInstanceOf(McpTimeoutException.class);
        assertThat(events.get(1).elapsed()).isGreaterThanOrEqualTo(SHORT);
    }

    @Test
    void aFiredTokenIsACancellationWithItsReason() throws Exception {
        Recorder r = new Recorder();
        Session s = sessions.connected(Mode.INLINE, t -> t.hold("tools/call"), b -> b.eventListener(r));
        CancellationToken token = CancellationToken.create();
        BackgroundCall<Object> call = BackgroundCall.start("cancel",
                () -> s.client().callTool("slow", Map.of(), RequestOptions.ofToken(token)));
        s.server().awaitRequest("tools/call");
        token.cancel("user pressed stop");
        assertThat(call.failure()).isInstanceOf(McpCancelledException.class);
        List<Event> events = r.of("tools/call");
        assertStartThen(events, "cancelled");
        assertThat(events.get(1).detail()).isEqualTo("user pressed stop");
    }

    @Test
    void anInterruptIsACancellation() throws Exception {
        Recorder r = new Recorder();
        Session s = sessions.connected(Mode.INLINE, t -> t.hold("tools/call"), b -> b.eventListener(r));
        BackgroundCall<Object> call = BackgroundCall.start("interrupt",
                () -> s.client().callTool("slow", Map.of()));
        s.server().awaitRequest("tools/call");
        call.thread().interrupt();
        assertThat(call.failure()).isInstanceOf(InterruptedException.class);
        List<Event> events = r.of("tools/call");
        assertStartThen(events, "cancelled");
        assertThat(events.get(1).detail()).isEqualTo("interrupted");
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void closeFailsTheCallInFlightAndReportsTheTransportClosedOnce(Mode mode) throws Exception {
        Recorder r = new Recorder();
        Session s = sessions.connected(mode, t -> t.hold("tools/call"), b -> b.eventListener(r));
        BackgroundCall<Object> call = BackgroundCall.start("closed",
                () -> s.client().callTool("slow", Map.of()));
        s.server().awaitRequest("tools/call");
        s.client().close();
        s.client().close();
        assertThat(call.failure()).isInstanceOf(McpClosedException.class);
        List<Event> events = r.of("tools/call");
        assertStartThen(events, "failed");
        assertThat(events.get(1).detail()).isInstanceOf(McpClosedException.class);
        assertThat(r.events).filteredOn(e -> e.kind().equals("closed")).singleElement()
                .extracting(Event::detail).isNull();
        assertThatThrownBy(() -> s.client().ping()).isInstanceOf(McpClosedException.class);
        assertThat(r.of("ping")).isEmpty(); // refused before it was sent: no events
    }

    @Test
    void aLostTransportIsReportedWithItsCause() throws Exception {
        Recorder r = new Recorder();
        Session s = sessions.connected(Mode.INLINE, t -> { }, b -> b.eventListener(r));
        McpTransportException cause = new McpTransportException("server exited with code 3", null);
        s.server().lose(cause);
        assertThat(r.closed.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(r.events).filteredOn(e -> e.kind().equals("closed")).singleElement()
                .extracting(Event::detail).isSameAs(cause);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aThrowingEventListenerNeverBreaksACall(Mode mode) throws Exception {
        McpEventListener throwing = new McpEventListener() {
            @Override
            public void requestStart(String method, RequestId id) {
                throw new IllegalStateException("start bug");
            }

            @Override
            public void requestEnd(String method, RequestId id, Duration elapsed) {
                throw new AssertionError("end bug");
            }

            @Override
            public void requestFailed(String method, RequestId id, Duration elapsed, Throwable failure) {
                throw new IllegalStateException("failed bug");
            }

            @Override
            public void requestCancelled(String method, RequestId id, Duration elapsed, String reason) {
                throw new IllegalStateException("cancelled bug");
            }

            @Override
            public void transportClosed(Throwable cause) {
                throw new IllegalStateException("closed bug");
            }
        };
        Session s = sessions.connected(mode, t -> t.hold("x/slow").hold("x/err"), b -> b.eventListener(throwing));
        s.client().ping();
        assertThatThrownBy(() -> s.client().request("x/slow", null, RequestOptions.ofTimeout(SHORT)))
                .isInstanceOf(McpTimeoutException.class);
        CancellationToken token = CancellationToken.create();
        token.cancel("early");
        assertThatThrownBy(() -> s.client().request("x/slow", null, RequestOptions.ofToken(token)))
                .isInstanceOf(McpCancelledException.class);
        BackgroundCall<Map<String, Object>> err = BackgroundCall.start("err",
                () -> s.client().request("x/err", null, RequestOptions.DEFAULT));
        s.server().replyError(s.server().awaitRequest("x/err").id(), -32000, "nope", null);
        assertThat(err.failure()).isInstanceOf(McpRpcException.class);
        assertThat(s.client().pendingRequestCount()).isZero();
        s.client().ping();
        s.client().close();
        assertThat(s.client().isClosed()).isTrue();
    }

    @Test
    void addedListenersHearEveryEventBesideTheSetOneAndOneThatThrowsKeepsNoneFromHearing() throws Exception {
        Recorder set = new Recorder();
        Recorder added = new Recorder();
        McpEventListener throwing = new McpEventListener() {
            @Override
            public void requestStart(String method, RequestId id) {
                throw new IllegalStateException("a broken listener");
            }
        };
        // eventListener set after addEventListener replaces nothing that was added
        Session s = sessions.connected(Mode.INLINE, t -> { },
                b -> b.addEventListener(throwing).eventListener(set).addEventListener(added));
        s.client().ping();
        assertThat(set.of("ping")).extracting(Event::kind).containsExactly("start", "end");
        assertThat(added.of("ping")).extracting(Event::kind).containsExactly("start", "end");
        assertThat(added.of("ping").get(0).id()).isEqualTo(set.of("ping").get(0).id());
        s.client().close();
        assertThat(set.closed.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(added.closed.await(10, TimeUnit.SECONDS)).isTrue();
    }
}
