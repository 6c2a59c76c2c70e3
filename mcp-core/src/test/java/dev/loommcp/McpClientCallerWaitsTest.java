package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.spi.SendContext;
import dev.loommcp.testing.Await;
import dev.loommcp.testing.HookedTransport;
import dev.loommcp.testing.McpThreadLeakCheck;
import dev.loommcp.testing.ScriptedTransport;
import dev.loommcp.testing.ScriptedTransport.Mode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The core tells a transport when the caller only blocks for the answer after the send
 * ({@link SendContext#callerWaits()}), so that the transport may run the exchange on the calling thread; and whatever
 * ends such a call (a token, the deadline) reaches the exchange through the context's cancel, since no other thread
 * would notice.
 */
class McpClientCallerWaitsTest {

    private record Sent(String method, boolean callerWaits) {
    }

    private static HookedTransport recording(Mode mode, List<Sent> sent) {
        ScriptedTransport server = ScriptedTransport.create(mode);
        server.on("tools/call", r -> Map.of("content", List.of()));
        return new HookedTransport(server).beforeSend((m, c) -> sent.add(new Sent(switch (m) {
            case JsonRpcMessage.Request r -> r.method();
            case JsonRpcMessage.Notification n -> n.method();
            default -> "response";
        }, c.callerWaits())));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Mode.class)
    void aPlainRequestSaysTheCallerWaitsAndOneWithProgressOrANotificationDoesNot(Mode mode) throws Exception {
        Set<Long> threadsBefore = McpThreadLeakCheck.snapshot();
        List<Sent> sent = new CopyOnWriteArrayList<>();
        McpClient client = McpClient.newBuilder(recording(mode, sent)).build();
        try {
            client.connect();
            sent.clear();
            client.callTool("plain", Map.of());
            client.callTool("progress", Map.of(), RequestOptions.newBuilder().progressListener(p -> { }).build());
            client.callTool("reset", Map.of(), RequestOptions.newBuilder()
                    .resetTimeoutOnProgress(Duration.ofMinutes(1)).build());
            client.notify("notifications/custom", null, RequestOptions.DEFAULT);
        } finally {
            client.close();
        }
        assertThat(sent).startsWith(new Sent("tools/call", true), new Sent("tools/call", false),
                new Sent("tools/call", false), new Sent("notifications/custom", false));
        McpThreadLeakCheck.assertNoNewThreads(threadsBefore);
    }

    /** An exchange running on the caller's thread ends when the token fires: the token cancels the send context. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Mode.class)
    void aTokenEndsAnExchangeThatRunsOnTheCallersThread(Mode mode) throws Exception {
        CancellationToken token = CancellationToken.create();
        assertAnInlineExchangeIsEnded(mode, RequestOptions.ofToken(token), () -> token.cancel("enough"),
                McpCancelledException.class, "enough");
    }

    /**
     * An exchange running on the caller's thread ends at the deadline: the core cancels the send context then (the
     * contract of {@link SendContext#callerWaits()}), so a transport may leave a wait it cannot bound to that cancel.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Mode.class)
    void theDeadlineEndsAnExchangeThatRunsOnTheCallersThread(Mode mode) throws Exception {
        assertAnInlineExchangeIsEnded(mode, RequestOptions.ofTimeout(Duration.ofMillis(300)), () -> { },
                McpTimeoutException.class, "tools/call");
    }

    /**
     * Calls a tool whose inline exchange blocks until its context is cancelled, runs {@code ender} once it blocks,
     * and expects the call to fail as given, promptly, with the client still usable.
     */
    private static void assertAnInlineExchangeIsEnded(Mode mode, RequestOptions options, Runnable ender,
                                                      Class<? extends McpException> failure, String message)
            throws Exception {
        Set<Long> threadsBefore = McpThreadLeakCheck.snapshot();
        CountDownLatch sending = new CountDownLatch(1);
        HookedTransport transport = new HookedTransport(ScriptedTransport.create(mode)).beforeSend((m, c) -> {
            if (m instanceof JsonRpcMessage.Request r && r.method().equals("tools/call") && c.callerWaits()) {
                CountDownLatch aborted = new CountDownLatch(1); // an inline exchange: blocks like a POST would
                c.onCancel(aborted::countDown);
                sending.countDown();
                if (!aborted.await(30, TimeUnit.SECONDS)) {
                    throw new AssertionError("the inline exchange was never cancelled");
                }
            }
        });
        McpClient client = McpClient.newBuilder(transport).build();
        try {
            client.connect();
            Thread enderThread = Thread.ofVirtual().start(() -> {
                try {
                    sending.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    return;
                }
                ender.run();
            });
            long start = System.nanoTime();
            assertThatThrownBy(() -> client.callTool("slow", Map.of(), options))
                    .isInstanceOf(failure).hasMessageContaining(message);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
            enderThread.join(TimeUnit.SECONDS.toMillis(30));
            Await.until("client still usable", client::isConnected);
        } finally {
            client.close();
        }
        McpThreadLeakCheck.assertNoNewThreads(threadsBefore);
    }
}
