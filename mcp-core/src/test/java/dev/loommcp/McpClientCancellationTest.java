package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.Root;
import dev.loommcp.testing.Await;
import dev.loommcp.testing.BackgroundCall;
import dev.loommcp.testing.ScriptedTransport;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import dev.loommcp.testing.Listen;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The life of a request when it does not simply succeed: deadline, token, interrupt, close, transport loss, progress
 * resetting the timeout (DESIGN.md section 3; MCP "Cancellation"). Every test runs on both transport modes where the
 * send path differs.
 */
class McpClientCancellationTest {

    private static final Duration SHORT = Duration.ofMillis(100);

    @RegisterExtension
    final Sessions sessions = new Sessions();

    private static Map<String, Object> textResult(String text) {
        return Map.of("content", List.of(Map.of("type", "text", "text", text)));
    }

    private static void assertCancelledSentFor(Session s, RequestId id, String reason) {
        JsonRpcMessage.Notification n = (JsonRpcMessage.Notification) s.server().awaitSent(
                "notifications/cancelled for " + id, m -> m instanceof JsonRpcMessage.Notification c
                        && c.method().equals("notifications/cancelled")
                        && id.value().equals(((Number) c.params().get("requestId")).longValue()));
        assertThat(n.params().get("requestId")).isInstanceOf(Integer.class);
        assertThat(n.params().get("reason")).asString().contains(reason);
        assertThat(s.server().notifications("notifications/cancelled")).hasSize(1);
    }

    private static void assertNoCancelledEverSent(Session s) {
        assertThat(s.server().notifications("notifications/cancelled")).isEmpty();
        assertThat(s.server().rejectedSends()).noneMatch(m -> m instanceof JsonRpcMessage.Notification n
                && n.method().equals("notifications/cancelled"));
    }

    // ------------------------------------------------------------------------------------------------ deadline

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aTimeoutThrowsRemovesThePendingEntrySendsCancelledAndDropsTheLateResponse(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t.hold("tools/call"), b -> b.keepNotifications(true));
        McpClient c = s.client();

        assertThatThrownBy(() -> c.callTool("slow", Map.of(), RequestOptions.ofTimeout(SHORT)))
                .isInstanceOf(McpTimeoutException.class)
                .hasMessageContaining("tools/call").hasMessageContaining("timed out");
        assertThat(c.pendingRequestCount()).isZero();

        JsonRpcMessage.Request request = s.server().awaitRequest("tools/call");
        assertCancelledSentFor(s, request.id(), "timeout");
        if (mode == Mode.BLOCKING) {
            s.server().awaitSendFinished(request.id());
            assertThat(s.server().cancelHookRan(request.id())).isTrue();
        }

        s.server().reply(request.id(), textResult("too late"));
        c.ping();
        assertThat(c.pendingRequestCount()).isZero();
        assertThat(c.isConnected()).isTrue();
        assertThat(c.drainNotifications()).isEmpty();
    }

    @Test
    void theTimeoutMessageNamesMethodAndId() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.hold("x/slow"), b -> b);
        Throwable e = org.assertj.core.api.Assertions.catchThrowable(
                () -> s.client().request("x/slow", null, RequestOptions.ofTimeout(SHORT)));
        RequestId id = s.server().awaitRequest("x/slow").id();
        assertThat(e).isInstanceOf(McpTimeoutException.class).hasMessageStartingWith("x/slow (id " + id + ")");
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void theClientDefaultTimeoutApplies(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t.hold("tools/call"), b -> b.requestTimeout(SHORT));
        assertThatThrownBy(() -> s.client().callTool("slow", Map.of())).isInstanceOf(McpTimeoutException.class);
        assertCancelledSentFor(s, s.server().awaitRequest("tools/call").id(), "timeout");
    }

    @Test
    void anAbsoluteDeadlineApplies() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.hold("tools/call"), b -> b);
        assertThatThrownBy(() -> s.client().callTool("slow", Map.of(),
                RequestOptions.ofDeadline(Deadline.at(Instant.now().plus(SHORT))))).isInstanceOf(McpTimeoutException.class);
        assertCancelledSentFor(s, s.server().awaitRequest("tools/call").id(), "timeout");
    }

    @Test
    void aDeadlineInThePastTimesOutAtOnce() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.hold("tools/call"), b -> b);
        assertThatThrownBy(() -> s.client().callTool("slow", Map.of(),
                RequestOptions.ofDeadline(Deadline.at(Instant.now().minusSeconds(5))))).isInstanceOf(McpTimeoutException.class);
    }

    /** A deadline already past when the call starts: nothing goes on the wire, and the message says so. */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void aDeadlineAlreadyPastSendsNothing(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t.hold("tools/call"), b -> b);
        assertThatThrownBy(() -> s.client().callTool("slow", Map.of(),
                RequestOptions.ofDeadline(Deadline.at(Instant.now().minusSeconds(5)))))
                .isInstanceOf(McpTimeoutException.class).hasMessageContaining("not sent");
        assertThat(s.server().requests("tools/call")).isEmpty();
        assertNoCancelledEverSent(s);
    }

    @Test
    void theEarlierOfTimeoutAndDeadlineWins() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.hold("tools/call"), b -> b);
        assertThatThrownBy(() -> s.client().callTool("slow", Map.of(), RequestOptions.newBuilder()
                .timeout(Duration.ofHours(1)).deadline(Instant.now().plus(SHORT)).build()))
                .isInstanceOf(McpTimeoutException.class);
        assertThatThrownBy(() -> s.client().callTool("slow", Map.of(), RequestOptions.newBuilder()
                .timeout(SHORT).deadline(Instant.now().plus(Duration.ofHours(1))).build()))
                .isInstanceOf(McpTimeoutException.class);
    }

    /**
     * A per-call timeout replaces the client default (RequestOptions: the default "applies when neither is set").
     * The "clock" is a second call with the default timeout, started later: when it has timed out, the long call
     * must still be waiting.
     */
    @Test
    void aPerCallTimeoutLongerThanTheDefaultIsHonoured() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.hold("tools/call"), b -> b.requestTimeout(SHORT));
        BackgroundCall<CallToolResult> longCall = BackgroundCall.start("long",
                () -> s.client().callTool("long", Map.of(), RequestOptions.ofTimeout(Duration.ofHours(1))));
        JsonRpcMessage.Request longRequest = s.server().awaitRequest("tools/call");

        assertThatThrownBy(() -> s.client().callTool("clock", Map.of())).isInstanceOf(McpTimeoutException.class);
        assertThat(longCall.isDone()).isFalse();
        s.server().reply(longRequest.id(), textResult("finally"));
        assertThat(longCall.result().text()).isEqualTo("finally");
    }

    @Test
    void aPerCallDeadlineLaterThanTheDefaultIsHonoured() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.hold("tools/call"), b -> b.requestTimeout(SHORT));
        BackgroundCall<CallToolResult> longCall = BackgroundCall.start("long", () -> s.client().callTool("long",
                Map.of(), RequestOptions.ofDeadline(Deadline.at(Instant.now().plus(Duration.ofHours(1))))));
        JsonRpcMessage.Request longRequest = s.server().awaitRequest("tools/call");

        // two default timeouts pass (a wrongly applied default would have expired a whole timeout ago)
        assertThatThrownBy(() -> s.client().callTool("clock", Map.of())).isInstanceOf(McpTimeoutException.class);
        assertThatThrownBy(() -> s.client().callTool("clock", Map.of())).isInstanceOf(McpTimeoutException.class);
        s.server().reply(longRequest.id(), textResult("finally"));
        assertThat(longCall.result().text()).isEqualTo("finally");
    }

    // ------------------------------------------------------------------------------------------------ token

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aTokenCancelsTheCallAndSendsCancelled(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t.hold("tools/call"), b -> b);
        CancellationToken token = CancellationToken.create();
        BackgroundCall<CallToolResult> call = BackgroundCall.start("call",
                () -> s.client().callTool("slow", Map.of(), RequestOptions.ofToken(token)));
        JsonRpcMessage.Request request = s.server().awaitRequest("tools/call");

        token.cancel("user abort");

        assertThat(call.failure()).isInstanceOf(McpCancelledException.class)
                .hasMessageContaining("tools/call").hasMessageContaining("user abort");
        assertThat(s.client().pendingRequestCount()).isZero();
        assertCancelledSentFor(s, request.id(), "user abort");
        if (mode == Mode.BLOCKING) {
            s.server().awaitSendFinished(request.id());
            assertThat(s.server().cancelHookRan(request.id())).isTrue();
        }
        s.server().reply(request.id(), textResult("late"));
        s.client().ping();
    }

    @Test
    void theTokenReasonIsSentAsTheCancelledReason() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.hold("tools/call"), b -> b);
        CancellationToken token = CancellationToken.create();
        BackgroundCall<CallToolResult> call = BackgroundCall.start("call",
                () -> s.client().callTool("slow", Map.of(), RequestOptions.ofToken(token)));
        s.server().awaitRequest("tools/call");
        token.cancel("user abort");
        call.failure();
        assertThat(s.server().awaitNotification("notifications/cancelled").params().get("reason"))
                .isEqualTo("user abort");
    }

    @Test
    void anAlreadyCancelledTokenSendsNothing() throws Exception {
        Session s = sessions.connected(Mode.INLINE);
        CancellationToken token = CancellationToken.create();
        token.cancel("early");
        assertThatThrownBy(() -> s.client().callTool("t", Map.of(), RequestOptions.ofToken(token)))
                .isInstanceOf(McpCancelledException.class).hasMessageContaining("early");
        assertThat(s.server().requests("tools/call")).isEmpty();
        assertThat(s.server().notifications("notifications/cancelled")).isEmpty();
    }

    @Test
    void oneTokenCancelsEveryCallHoldingIt() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.hold("tools/call"), b -> b);
        CancellationToken token = CancellationToken.create();
        List<BackgroundCall<CallToolResult>> calls = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            calls.add(BackgroundCall.start("call-" + i,
                    () -> s.client().callTool("slow", Map.of(), RequestOptions.ofToken(token))));
        }
        List<JsonRpcMessage.Request> requests = s.server().awaitRequests("tools/call", 3);
        token.cancel();
        for (BackgroundCall<CallToolResult> c : calls) {
            assertThat(c.failure()).isInstanceOf(McpCancelledException.class);
        }
        for (JsonRpcMessage.Request r : requests) {
            s.server().awaitSent("cancelled for " + r.id(), m -> m instanceof JsonRpcMessage.Notification n
                    && n.method().equals("notifications/cancelled")
                    && r.id().value().equals(((Number) n.params().get("requestId")).longValue()));
        }
    }

    @Test
    void aTokenThatNeverFiresDoesNotDisturbTheCall() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.on("tools/call", r -> textResult("ok")), b -> b);
        CancellationToken token = CancellationToken.create();
        for (int i = 0; i < 3; i++) {
            assertThat(s.client().callTool("t", Map.of(), RequestOptions.ofToken(token)).text()).isEqualTo("ok");
        }
        token.cancel();
        assertThat(s.server().notifications("notifications/cancelled")).isEmpty();
    }

    // ------------------------------------------------------------------------------------------------ interrupt

    @ParameterizedTest
    @EnumSource(Mode.class)
    void anInterruptThrowsInterruptedExceptionAndSendsCancelled(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t.hold("tools/call"), b -> b);
        BackgroundCall<CallToolResult> call = BackgroundCall.start("call",
                () -> s.client().callTool("slow", Map.of()));
        JsonRpcMessage.Request request = s.server().awaitRequest("tools/call");

        call.thread().interrupt();

        assertThat(call.failure()).isInstanceOf(InterruptedException.class)
                .hasMessage("tools/call (id " + request.id().value() + ") interrupted while waiting for its response");
        assertThat(s.client().pendingRequestCount()).isZero();
        assertCancelledSentFor(s, request.id(), "interrupted");
        s.server().reply(request.id(), textResult("late"));
        s.client().ping();
    }

    @Test
    void anAlreadyInterruptedThreadSendsNothing() throws Exception {
        Session s = sessions.connected(Mode.INLINE);
        BackgroundCall<CallToolResult> call = BackgroundCall.start("call", () -> {
            Thread.currentThread().interrupt();
            return s.client().callTool("t", Map.of());
        });
        assertThat(call.failure()).isInstanceOf(InterruptedException.class);
        assertThat(s.server().requests("tools/call")).isEmpty();
        assertThat(s.server().notifications("notifications/cancelled")).isEmpty();
    }

    // ------------------------------------------------------------------------------------------------ close

    @ParameterizedTest
    @EnumSource(Mode.class)
    void closeDuringACallFailsItWithClosedAndSendsNoCancelled(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t.hold("tools/call"), b -> b);
        McpClient c = s.client();
        BackgroundCall<CallToolResult> call = BackgroundCall.start("call", () -> c.callTool("slow", Map.of()));
        JsonRpcMessage.Request request = s.server().awaitRequest("tools/call");

        c.close();

        assertThat(call.failure()).isInstanceOf(McpClosedException.class).hasMessageContaining("tools/call");
        assertThat(c.isClosed()).isTrue();
        assertThat(c.isConnected()).isFalse();
        assertThat(s.server().isClosed()).isTrue();
        assertNoCancelledEverSent(s);
        if (mode == Mode.BLOCKING) {
            s.server().awaitSendFinished(request.id());
        }

        assertThatThrownBy(c::ping).isInstanceOf(McpClosedException.class).hasMessageContaining("ping");
        assertThatThrownBy(() -> c.callTool("t", Map.of())).isInstanceOf(McpClosedException.class);
        assertThatThrownBy(c::listAllTools).isInstanceOf(McpClosedException.class);
        assertThatThrownBy(() -> c.request("x", null, RequestOptions.DEFAULT))
                .isInstanceOf(McpClosedException.class);
        assertThatThrownBy(() -> c.notify("notifications/x", null)).isInstanceOf(McpClosedException.class);

        c.close();
        c.close();
        assertThat(s.server().closeCount()).isEqualTo(1);
        assertNoCancelledEverSent(s);
    }

    @Test
    void closeIsIdempotentAndSafeFromManyThreadsAtOnce() throws Exception {
        Session s = sessions.connected(Mode.INLINE);
        CountDownLatch go = new CountDownLatch(1);
        List<BackgroundCall<Void>> closers = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            closers.add(BackgroundCall.start("closer-" + i, () -> {
                go.await();
                s.client().close();
                return null;
            }));
        }
        go.countDown();
        for (BackgroundCall<Void> closer : closers) {
            closer.result();
        }
        assertThat(s.client().isClosed()).isTrue();
        assertThat(s.server().closeCount()).isEqualTo(1);
    }

    /**
     * A second close while the first is still releasing (its transport's close takes a while, as a stdio server that
     * ignores SIGTERM does) returns only once the release is over: before, it returned at once with the process and
     * threads still there.
     */
    @Test
    void aSecondCloseWaitsForTheFirstToFinish() throws Exception {
        CountDownLatch closing = new CountDownLatch(1);
        CountDownLatch letClose = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean transportClosed = new java.util.concurrent.atomic.AtomicBoolean();
        Session s = sessions.connected(Mode.INLINE, t -> t.onClose(() -> {
            closing.countDown();
            try {
                letClose.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            transportClosed.set(true);
        }), b -> b);
        BackgroundCall<Void> first = BackgroundCall.start("first-closer", () -> {
            s.client().close();
            return null;
        });
        assertThat(closing.await(10, TimeUnit.SECONDS)).isTrue();
        BackgroundCall<Void> second = BackgroundCall.start("second-closer", () -> {
            s.client().close();
            return transportClosed.get() ? null : fail("the second close returned before the transport was closed");
        });
        Thread.sleep(200);
        assertThat(second.isDone()).as("the second close waits for the first").isFalse();
        letClose.countDown();
        second.result();
        first.result();
        assertThat(s.server().closeCount()).isEqualTo(1);
    }

    /**
     * The release tells the event listener that the transport closed, on the closing thread: a listener that closes
     * the client again there returns at once (a second close waits for the release, but not on the thread running it).
     */
    @Test
    void closeFromTheListenerThatTheReleaseRunsDoesNotDeadlock() throws Exception {
        AtomicReference<McpClient> self = new AtomicReference<>();
        CountDownLatch told = new CountDownLatch(1);
        Session s = sessions.connected(Mode.INLINE, t -> { }, b -> b.eventListener(new dev.loommcp.event.McpEventListener() {
            @Override
            public void transportClosed(Throwable cause) {
                self.get().close();
                told.countDown();
            }
        }));
        self.set(s.client());
        BackgroundCall<Void> closer = BackgroundCall.start("closer", () -> {
            s.client().close();
            return null;
        });
        closer.result();
        assertThat(told.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(s.client().isClosed()).isTrue();
    }

    @Test
    void closeBeforeConnectClosesTheTransport() {
        Session s = sessions.unconnected(Mode.INLINE, t -> { }, b -> b);
        s.client().close();
        assertThat(s.client().isClosed()).isTrue();
        assertThat(s.server().isClosed()).isTrue();
        assertThatThrownBy(s.client()::ping).isInstanceOf(McpClosedException.class);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void closeFromAListenerDoesNotDeadlock(Mode mode) throws Exception {
        AtomicReference<McpClient> self = new AtomicReference<>();
        CountDownLatch closed = new CountDownLatch(1);
        Session s = sessions.connected(mode, t -> t.hold("tools/call"), b -> b.listener(new Listen().toolsChanged(() -> {
            self.get().close();
            closed.countDown();
        })));
        self.set(s.client());
        BackgroundCall<CallToolResult> call = BackgroundCall.start("call", () -> s.client().callTool("t", Map.of()));
        s.server().awaitRequest("tools/call");

        s.server().notifyClient("notifications/tools/list_changed", null);

        assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(s.client().isClosed()).isTrue();
        assertThat(call.failure()).isInstanceOf(McpClosedException.class);
        assertThat(s.server().isClosed()).isTrue();
        assertNoCancelledEverSent(s);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void closeFromAProgressListenerFailsItsOwnCall(Mode mode) throws Exception {
        AtomicReference<McpClient> self = new AtomicReference<>();
        Session s = sessions.connected(mode, t -> t.on("tools/call", r -> {
            Object token = ((Map<?, ?>) r.params().get("_meta")).get("progressToken");
            t.deliverOn(r.id(), McpClientToolsTest.progress(token, 1, null, null));
            return ScriptedTransport.HOLD;
        }), b -> b);
        self.set(s.client());
        assertThatThrownBy(() -> s.client().callTool("t", Map.of(), RequestOptions.newBuilder()
                .progressListener(p -> self.get().close()).build())).isInstanceOf(McpClosedException.class);
        assertThat(s.client().isClosed()).isTrue();
        assertNoCancelledEverSent(s);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void closeFromAHandlerDoesNotDeadlockAndSendsNoAnswer(Mode mode) throws Exception {
        AtomicReference<McpClient> self = new AtomicReference<>();
        AtomicReference<Thread> handlerThread = new AtomicReference<>();
        CountDownLatch closed = new CountDownLatch(1);
        Session s = sessions.connected(mode, t -> { }, b -> b.rootsHandler(() -> {
            handlerThread.set(Thread.currentThread());
            self.get().close();
            closed.countDown();
            return List.of(Root.of("file:///r", "r"));
        }));
        self.set(s.client());
        RequestId id = RequestId.of("srv-1");

        s.server().deliver(new JsonRpcMessage.Request(id, "roots/list", null));

        assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(s.client().isClosed()).isTrue();
        Await.ended("the handler thread", handlerThread.get());
        assertThat(s.server().answersTo(id)).isEmpty();
        assertThat(s.server().rejectedSends()).isEmpty();
    }

    // ------------------------------------------------------------------------------------------------ loss

    @ParameterizedTest
    @EnumSource(Mode.class)
    void transportLossFailsEveryPendingCallAtOnceThenTheClientIsClosed(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t.hold("tools/call").hold("x/other"), b -> b);
        McpClient c = s.client();
        List<BackgroundCall<?>> calls = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            calls.add(BackgroundCall.start("call-" + i, () -> c.callTool("slow", Map.of())));
        }
        calls.add(BackgroundCall.start("other", () -> c.request("x/other", null, RequestOptions.DEFAULT)));
        s.server().awaitRequests("tools/call", 3);
        s.server().awaitRequest("x/other");

        McpTransportException exit = new McpTransportException("server exited with code 1; stderr: boom");
        s.server().lose(exit);

        for (BackgroundCall<?> call : calls) {
            assertThat(call.failure()).isSameAs(exit);
        }
        Await.until("the client to be closed after the loss", c::isClosed);
        assertThatThrownBy(c::ping).isInstanceOf(McpClosedException.class).hasCause(exit);
        assertThatThrownBy(() -> c.callTool("t", Map.of())).isInstanceOf(McpClosedException.class).hasCause(exit);
        assertThat(c.isConnected()).isFalse();
        Await.until("the transport to be closed", s.server()::isClosed);
        assertNoCancelledEverSent(s);
    }

    @Test
    void theClientIsClosedAsSoonAsOnClosedReturns() throws Exception {
        Session s = sessions.connected(Mode.INLINE);
        McpTransportException exit = new McpTransportException("gone");
        // Occupy every carrier of the virtual-thread scheduler so that no virtual thread (such as one the client
        // starts to finish the close) can run until the checks below are done: what onClosed itself did is all
        // there is. This test runs on a platform thread.
        int carriers = Integer.getInteger("jdk.virtualThreadScheduler.parallelism",
                Runtime.getRuntime().availableProcessors());
        java.util.concurrent.atomic.AtomicBoolean spin = new java.util.concurrent.atomic.AtomicBoolean(true);
        CountDownLatch spinning = new CountDownLatch(carriers);
        List<Thread> spinners = new ArrayList<>();
        for (int i = 0; i < carriers; i++) {
            spinners.add(Thread.ofVirtual().name("test-spinner-" + i).start(() -> {
                spinning.countDown();
                while (spin.get()) {
                    Thread.onSpinWait();
                }
            }));
        }
        boolean closedAtOnce;
        Throwable pingFailure;
        try {
            assertThat(spinning.await(10, TimeUnit.SECONDS)).isTrue();
            s.server().lose(exit);
            closedAtOnce = s.client().isClosed();
            pingFailure = org.assertj.core.api.Assertions.catchThrowable(s.client()::ping);
        } finally {
            spin.set(false);
            for (Thread t : spinners) {
                t.join();
            }
        }
        assertThat(closedAtOnce).as("closed as soon as onClosed returned").isTrue();
        assertThat(pingFailure).isInstanceOf(McpClosedException.class).hasCause(exit);
        assertThat(s.server().rejectedSends()).isEmpty();
    }

    // ------------------------------------------------------------------------------------------------ progress

    @ParameterizedTest
    @EnumSource(Mode.class)
    void progressResetsTheTimeout(Mode mode) throws Exception {
        Duration timeout = Duration.ofMillis(500);
        Session s = sessions.connected(mode, t -> t.hold("tools/call"), b -> b);
        CountDownLatch sawProgress = new CountDownLatch(1);
        long start = System.nanoTime();
        BackgroundCall<CallToolResult> call = slowCall(s, RequestOptions.newBuilder().timeout(timeout)
                .resetTimeoutOnProgress(Duration.ofHours(1)).progressListener(p -> sawProgress.countDown()).build());
        JsonRpcMessage.Request request = s.server().awaitRequest("tools/call");
        Object token = ((Map<?, ?>) request.params().get("_meta")).get("progressToken");

        // keep the call alive with progress (one every 10 ms, 50x inside the timeout) for two timeouts
        int n = 0;
        while (System.nanoTime() - start < 2 * timeout.toNanos()) {
            s.server().deliverOn(request.id(), McpClientToolsTest.progress(token, ++n, null, null));
            assertThat(call.isDone()).as("the call must stay alive while progress arrives").isFalse();
            Thread.sleep(10);
        }
        s.server().reply(request.id(), textResult("done"));
        assertThat(call.result().text()).isEqualTo("done");
        assertThat(sawProgress.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(s.server().notifications("notifications/cancelled")).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void progressNeverExtendsPastTheMaximum(Mode mode) throws Exception {
        Duration timeout = Duration.ofMillis(300);
        Duration max = Duration.ofMillis(600);
        Session s = sessions.connected(mode, t -> t.hold("tools/call"), b -> b);
        long start = System.nanoTime();
        BackgroundCall<CallToolResult> call = slowCall(s, RequestOptions.newBuilder().timeout(timeout)
                .resetTimeoutOnProgress(max).progressListener(p -> { }).build());
        JsonRpcMessage.Request request = progressUntilItEnds(s, call, start, 1, 10);
        assertThat(call.failure()).isInstanceOf(McpTimeoutException.class);
        assertThat(System.nanoTime() - start).as("timed out by the maximum, not before")
                .isGreaterThanOrEqualTo(max.toNanos());
        assertCancelledSentFor(s, request.id(), "timeout");
    }

    /**
     * Progress faster than the listener takes it never empties the call's queue: the deadline still ends the call
     * (it was checked only when the queue ran dry, so such a call never returned), and it is cancelled on the wire.
     */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void progressFasterThanItsListenerDoesNotHoldTheCallPastItsDeadline(Mode mode) throws Exception {
        Duration timeout = Duration.ofMillis(400);
        Session s = sessions.connected(mode, t -> t.hold("tools/call"), b -> b);
        long start = System.nanoTime();
        BackgroundCall<CallToolResult> call = slowCall(s, RequestOptions.newBuilder().timeout(timeout)
                .progressListener(p -> {
                    try {
                        Thread.sleep(5); // a listener slower than the progress comes
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }).build());
        // about 20 a millisecond against a listener that takes 5 ms each
        JsonRpcMessage.Request request = progressUntilItEnds(s, call, start, 20, 1);
        assertThat(call.failure()).isInstanceOf(McpTimeoutException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("ended near its deadline, not at the test's limit")
                .isLessThan(Await.DEFAULT.dividedBy(2));
        assertCancelledSentFor(s, request.id(), "timeout");
    }

    /** Calls the tool {@code slow} with {@code options} on a background thread. */
    private static BackgroundCall<CallToolResult> slowCall(Session s, RequestOptions options) {
        return BackgroundCall.start("call", () -> s.client().callTool("slow", Map.of(), options));
    }

    /**
     * Answers the call's {@code tools/call} with progress only, {@code perTick} notifications every {@code tickMillis},
     * until the call ends (or the test's wait bound since {@code start} passed).
     *
     * @return the request
     */
    private static JsonRpcMessage.Request progressUntilItEnds(Session s, BackgroundCall<?> call, long start,
                                                              int perTick, long tickMillis) throws Exception {
        JsonRpcMessage.Request request = s.server().awaitRequest("tools/call");
        Object token = ((Map<?, ?>) request.params().get("_meta")).get("progressToken");
        int n = 0;
        while (!call.isDone() && System.nanoTime() - start < Await.DEFAULT.toNanos()) {
            for (int i = 0; i < perTick; i++) {
                s.server().deliverOn(request.id(), McpClientToolsTest.progress(token, ++n, null, null));
            }
            Thread.sleep(tickMillis);
        }
        return request;
    }

    /** {@code resetTimeoutOnProgress} alone asks for progress (a token) and is kept alive by it, no listener needed. */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void progressResetsTheTimeoutWithoutAListener(Mode mode) throws Exception {
        Duration timeout = Duration.ofMillis(300);
        Session s = sessions.connected(mode, t -> t.hold("tools/call"), b -> b);
        long start = System.nanoTime();
        BackgroundCall<CallToolResult> call = slowCall(s, RequestOptions.newBuilder().timeout(timeout)
                .resetTimeoutOnProgress(Duration.ofHours(1)).build());
        JsonRpcMessage.Request request = s.server().awaitRequest("tools/call");
        @SuppressWarnings("unchecked")
        Map<String, Object> meta = (Map<String, Object>) request.params().get("_meta");
        assertThat(meta).as("_meta of the request").isNotNull().containsKey("progressToken");
        int n = 0;
        while (System.nanoTime() - start < 3 * timeout.toNanos()) {
            s.server().deliverOn(request.id(), McpClientToolsTest.progress(meta.get("progressToken"), ++n, null, null));
            assertThat(call.isDone()).as("the call must stay alive while progress arrives").isFalse();
            Thread.sleep(10);
        }
        s.server().reply(request.id(), textResult("done"));
        assertThat(call.result().text()).isEqualTo("done");
    }

    @Test
    void progressDoesNotExtendACallWithoutReset() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.on("tools/call", r -> {
            Object token = ((Map<?, ?>) r.params().get("_meta")).get("progressToken");
            t.deliverOn(r.id(), McpClientToolsTest.progress(token, 1, null, null));
            return ScriptedTransport.HOLD;
        }), b -> b);
        assertThatThrownBy(() -> s.client().callTool("slow", Map.of(), RequestOptions.newBuilder().timeout(SHORT)
                .progressListener(p -> { }).build())).isInstanceOf(McpTimeoutException.class);
    }

    // ------------------------------------------------------------------------------------------------ SPI context

    @Test
    void aBlockingExchangeRunsOnTheTransportsOwnMcpThreadNotTheCallers() throws Exception {
        AtomicReference<String> sendThread = new AtomicReference<>();
        Session s = sessions.connected(Mode.BLOCKING, t -> t.on("tools/call", r -> {
            sendThread.set(Thread.currentThread().getName());
            return textResult("ok");
        }), b -> b);
        s.client().callTool("t", Map.of());
        // send queued and returned; the exchange ran on a thread the transport took from TransportContext.threads()
        assertThat(sendThread.get()).startsWith("mcp-scripted-exchange-")
                .isNotEqualTo(Thread.currentThread().getName());
    }

    @Test
    void aSuccessfulBlockingExchangeIsNotCancelled() throws Exception {
        Session s = sessions.connected(Mode.BLOCKING, t -> t.on("tools/call", r -> textResult("ok")), b -> b);
        s.client().callTool("t", Map.of());
        RequestId id = s.server().awaitRequest("tools/call").id();
        s.server().awaitSendFinished(id);
        assertThat(s.server().cancelHookRan(id)).isFalse();
        assertThat(s.server().sendInterrupted(id)).isFalse();
    }
}
