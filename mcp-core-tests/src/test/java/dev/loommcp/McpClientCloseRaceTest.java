package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.Root;
import dev.loommcp.testing.BackgroundCall;
import dev.loommcp.testing.HookedTransport;
import dev.loommcp.testing.ScriptedTransport;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import dev.loommcp.testing.Listen;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code close()} racing other things (issue 8 items 3 and 5): a closer that is interrupted still waits for what it
 * closes and then restores its interrupt; a {@code connect()} or call that the close cuts off fails with
 * {@link McpClosedException}, whatever the transport threw.
 */
class McpClientCloseRaceTest {

    /** How long the listener or handler under test keeps running after close() interrupted it. */
    private static final Duration LINGER = Duration.ofMillis(300);

    @RegisterExtension
    final Sessions sessions = new Sessions();

    /** Sleeps for the whole duration whatever interrupts arrive, and re-asserts the last one. */
    private static void lingerIgnoringInterrupts() {
        long end = System.nanoTime() + LINGER.toNanos();
        boolean interrupted = false;
        for (long left; (left = end - System.nanoTime()) > 0; ) {
            LockSupport.parkNanos(left);
            interrupted |= Thread.interrupted();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Blocks until this thread is interrupted (at most 10 s). */
    private static void awaitInterrupt() {
        try {
            Thread.sleep(Duration.ofSeconds(10));
            throw new AssertionError("not interrupted by close()");
        } catch (InterruptedException expected) {
            // close() interrupted it
        }
    }

    /** What the closing thread saw when close() returned. */
    private record CloseOutcome(boolean workFinished, boolean interruptSet) {
    }

    // ------------------------------------------------------------------------------------------------ item 3

    @ParameterizedTest
    @EnumSource(Mode.class)
    void closeFromAnInterruptedThreadWaitsForTheRunningListenerThenRestoresTheInterrupt(Mode mode)
            throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        AtomicBoolean finished = new AtomicBoolean();
        Session s = sessions.connected(mode, t -> { }, b -> b.listener(new Listen().notifications(n -> {
            entered.countDown();
            awaitInterrupt();           // until close() interrupts it
            lingerIgnoringInterrupts(); // then still runs for a while
            finished.set(true);
        })));
        s.server().notifyClient("x/slow", null);
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

        CloseOutcome outcome = BackgroundCall.start("interrupted-closer", () -> {
            Thread.currentThread().interrupt(); // as Future.cancel(true) on a task that closes its client
            s.client().close();
            return new CloseOutcome(finished.get(), Thread.currentThread().isInterrupted());
        }).result();

        assertThat(outcome.workFinished()).as("the listener had finished when close() returned").isTrue();
        assertThat(outcome.interruptSet()).as("the interrupt is restored").isTrue();
    }

    @Test
    void anInterruptThatArrivesWhileCloseWaitsDoesNotCutTheWaitShort() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        AtomicBoolean finished = new AtomicBoolean();
        AtomicReference<Thread> closer = new AtomicReference<>();
        CountDownLatch closerKnown = new CountDownLatch(1);
        Session s = sessions.connected(Mode.INLINE, t -> { }, b -> b.listener(new Listen().notifications(n -> {
            entered.countDown();
            awaitInterrupt(); // until close() interrupts it
            try {
                closerKnown.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            closer.get().interrupt(); // the closer is interrupted while it waits for this listener
            lingerIgnoringInterrupts();
            finished.set(true);
        })));
        s.server().notifyClient("x/slow", null);
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

        CloseOutcome outcome = BackgroundCall.start("closer", () -> {
            closer.set(Thread.currentThread());
            closerKnown.countDown();
            s.client().close();
            return new CloseOutcome(finished.get(), Thread.currentThread().isInterrupted());
        }).result();

        assertThat(outcome.workFinished()).as("the listener had finished when close() returned").isTrue();
        assertThat(outcome.interruptSet()).as("the interrupt is restored").isTrue();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void closeFromAnInterruptedThreadWaitsForARunningHandlerThatSendsNoAnswer(Mode mode) throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        AtomicBoolean finished = new AtomicBoolean();
        Session s = sessions.connected(mode, t -> { }, b -> b.rootsHandler(() -> {
            entered.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                lingerIgnoringInterrupts();
            }
            finished.set(true);
            return List.of(Root.of("file:///x", "x"));
        }));
        RequestId id = RequestId.of("slow-roots");
        s.server().deliver(new JsonRpcMessage.Request(id, "roots/list", null));
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

        CloseOutcome outcome = BackgroundCall.start("interrupted-closer", () -> {
            Thread.currentThread().interrupt();
            s.client().close();
            return new CloseOutcome(finished.get(), Thread.currentThread().isInterrupted());
        }).result();

        assertThat(outcome.workFinished()).as("the handler had finished when close() returned").isTrue();
        assertThat(outcome.interruptSet()).isTrue();
        assertThat(s.server().answersTo(id)).isEmpty();
    }

    // ------------------------------------------------------------------------------------------------ item 5

    static Stream<Arguments> transportFailures() {
        return Stream.of(
                Arguments.of("HTTP-like IllegalStateException",
                        (Function<String, RuntimeException>) IllegalStateException::new),
                Arguments.of("stdio-like McpTransportException",
                        (Function<String, RuntimeException>) McpTransportException::new));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transportFailures")
    void connectRacingCloseFailsWithClosedWhateverTheTransportThrew(String name,
                                                                     Function<String, RuntimeException> failure)
            throws Exception {
        CountDownLatch opening = new CountDownLatch(1);
        HookedTransport transport = new HookedTransport(ScriptedTransport.create(Mode.INLINE));
        transport.beforeOpen((m, c) -> {
            opening.countDown();
            transport.awaitClose();
            throw failure.apply("transport closed while opening");
        });
        McpClient client = McpClient.newBuilder(transport).build();
        try {
            BackgroundCall<Void> connect = BackgroundCall.start("connect", () -> {
                client.connect();
                return null;
            });
            assertThat(opening.await(10, TimeUnit.SECONDS)).isTrue();
            client.close();

            Throwable thrown = connect.failure();
            assertThat(thrown).isInstanceOf(McpClosedException.class);
            assertThat(thrown.getSuppressed()).singleElement().isInstanceOf(failure.apply("x").getClass());
            assertThat(client.isClosed()).isTrue();
        } finally {
            client.close();
        }
    }

    /**
     * A server lost while a request is being sent, whose send then fails of the client's end (a fork into its ended
     * scope throws "the request has ended"), fails the call as closed, with the loss as cause; connect reports the
     * loss itself, as when it comes while the handshake waits (once seen as a raw IllegalStateException under load).
     */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void aServerLostWhileARequestIsSentFailsItWithTheLossAsPendingCallsAndANotificationAsClosed(Mode mode) throws Exception {
        McpTransportException exit = new McpTransportException("server exited with code 3");
        HookedTransport transport = new HookedTransport(ScriptedTransport.create(mode));
        transport.beforeSend(lostOn("tools/call", transport, exit));
        McpClient client = McpClient.newBuilder(transport).build();
        try {
            client.connect();
            // the call was pending when the server was lost: it fails as every pending call does, with the loss
            Throwable thrown = catchFailure(() -> client.callTool("echo", Map.of()));
            assertThat(thrown).isSameAs(exit);
            assertThat(client.isClosed()).isTrue();
        } finally {
            client.close();
        }
        HookedTransport notifying = new HookedTransport(ScriptedTransport.create(mode));
        notifying.beforeSend(lostOn("notifications/roots/list_changed", notifying, exit));
        McpClient notifier = McpClient.newBuilder(notifying).build();
        try {
            notifier.connect();
            Throwable thrown = catchFailure(notifier::notifyRootsListChanged);
            assertThat(thrown).isInstanceOf(McpClosedException.class).hasCause(exit);
        } finally {
            notifier.close();
        }
        HookedTransport handshake = new HookedTransport(ScriptedTransport.create(mode));
        handshake.beforeSend(lostOn("initialize", handshake, exit));
        McpClient connecting = McpClient.newBuilder(handshake).build();
        try {
            assertThat(catchFailure(connecting::connect)).isSameAs(exit);
        } finally {
            connecting.close();
        }
    }

    private static HookedTransport.Hook lostOn(String method, HookedTransport transport, McpTransportException exit) {
        return (m, c) -> {
            String sent = m instanceof JsonRpcMessage.Request r ? r.method()
                    : m instanceof JsonRpcMessage.Notification n ? n.method() : null;
            if (method.equals(sent)) {
                transport.server().lose(exit);
                throw new IllegalStateException("the request has ended: exchange not started");
            }
        };
    }

    /** Something that should fail. */
    @FunctionalInterface
    private interface Attempt {
        void run() throws Exception;
    }

    private static Throwable catchFailure(Attempt attempt) {
        try {
            attempt.run();
        } catch (Throwable t) {
            return t;
        }
        throw new AssertionError("no failure");
    }

    /** Something a test does with a connected client. */
    @FunctionalInterface
    private interface ClientOperation {
        void run(McpClient client) throws Exception;
    }

    /**
     * Connects a client whose transport, when it is about to send a matching message, waits until it is closed and
     * then throws {@code failure}; runs {@code operation} on another thread, closes the client while that message is
     * being sent, and returns what the operation threw.
     */
    private static Throwable failureOfAnOperationCutOffByClose(Mode mode, Predicate<JsonRpcMessage> which,
                                                               Function<String, RuntimeException> failure,
                                                               ClientOperation operation) throws Exception {
        CountDownLatch sending = new CountDownLatch(1);
        HookedTransport transport = new HookedTransport(ScriptedTransport.create(mode));
        transport.beforeSend((m, c) -> {
            if (which.test(m)) {
                sending.countDown();
                transport.awaitClose();
                throw failure.apply("transport closed while sending");
            }
        });
        McpClient client = McpClient.newBuilder(transport).build();
        try {
            client.connect();
            BackgroundCall<Object> call = BackgroundCall.start("operation", () -> {
                operation.run(client);
                return null;
            });
            assertThat(sending.await(10, TimeUnit.SECONDS)).isTrue();
            client.close();
            return call.failure();
        } finally {
            client.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transportFailures")
    void aCallRacingCloseFailsWithClosedWhateverTheTransportThrew(String name,
                                                                  Function<String, RuntimeException> failure)
            throws Exception {
        for (Mode mode : Mode.values()) {
            assertThat(failureOfAnOperationCutOffByClose(mode,
                    m -> m instanceof JsonRpcMessage.Request r && r.method().equals("tools/call"), failure,
                    client -> client.callTool("t", Map.of())))
                    .as(mode.name()).isInstanceOf(McpClosedException.class);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transportFailures")
    void aNotificationRacingCloseFailsWithClosedWhateverTheTransportThrew(String name,
                                                                          Function<String, RuntimeException> failure)
            throws Exception {
        assertThat(failureOfAnOperationCutOffByClose(Mode.INLINE,
                m -> m instanceof JsonRpcMessage.Notification n && n.method().equals("x/note"), failure,
                client -> client.notify("x/note", null)))
                .isInstanceOf(McpClosedException.class);
    }

    /** The transport's own failure still comes through when it was not close() that ended the client. */
    @Test
    void aTransportFailureWithoutCloseIsNotDisguised() throws Exception {
        HookedTransport transport = new HookedTransport(ScriptedTransport.create(Mode.INLINE));
        transport.beforeOpen((m, c) -> {
            throw new McpTransportException("cannot start the server");
        });
        McpClient client = McpClient.newBuilder(transport).build();
        try {
            Throwable thrown = BackgroundCall.start("connect", () -> {
                client.connect();
                return null;
            }).failure();
            assertThat(thrown).isInstanceOf(McpTransportException.class).hasMessage("cannot start the server");
        } finally {
            client.close();
        }
    }

    /**
     * A call abandoned just before close (Ctrl+C in a CLI: the call is interrupted, then the client closed) is still
     * cancelled on the wire on a transport that sends off the caller's thread: close() lets the
     * {@code notifications/cancelled} already on its way go out before it closes the transport.
     */
    @Test
    void closeLetsACancellationAlreadyOnItsWayGoOutBeforeItClosesTheTransport() throws Exception {
        ScriptedTransport server = ScriptedTransport.create(Mode.BLOCKING);
        server.on("tools/call", r -> ScriptedTransport.HOLD);
        HookedTransport transport = new HookedTransport(server);
        transport.beforeSend((m, c) -> {
            if (m instanceof JsonRpcMessage.Notification n && n.method().equals("notifications/cancelled")) {
                Thread.sleep(300); // a slow network: close() arrives while the cancellation is still being sent
            }
        });
        McpClient client = McpClient.newBuilder(transport).build();
        try {
            client.connect();
            BackgroundCall<Object> call = BackgroundCall.start("abandoned", () -> client.callTool("t", Map.of()));
            server.awaitRequests("tools/call", 1);
            call.thread().interrupt();
            assertThat(call.failure()).isInstanceOf(InterruptedException.class);
            client.close();
            assertThat(server.notifications("notifications/cancelled")).hasSize(1);
            assertThat(server.rejectedSends()).isEmpty();
        } finally {
            client.close();
        }
    }
}
