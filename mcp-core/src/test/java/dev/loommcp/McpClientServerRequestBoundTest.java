package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.Root;
import dev.loommcp.testing.Await;
import dev.loommcp.testing.BackgroundCall;
import dev.loommcp.testing.McpThreadLeakCheck;
import dev.loommcp.testing.ScriptedTransport;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import dev.loommcp.testing.Listen;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Requests from the server run at most {@link McpClient.Builder#maxConcurrentServerRequests} handlers at once; the
 * rest are refused at once, and {@code close()} bounds its wait for handlers (issue 8 item 6).
 */
class McpClientServerRequestBoundTest {

    @RegisterExtension
    final Sessions sessions = new Sessions();

    private static JsonRpcError errorOf(JsonRpcMessage answer) {
        assertThat(answer).isInstanceOf(JsonRpcMessage.ErrorResponse.class);
        return ((JsonRpcMessage.ErrorResponse) answer).error();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void byDefaultAtMost64HandlersRunAndTheRestAreRefusedAtOnce(Mode mode) throws Exception {
        int bound = McpClient.DEFAULT_MAX_CONCURRENT_SERVER_REQUESTS;
        assertThat(bound).isEqualTo(64);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger running = new AtomicInteger();
        Set<Long> before = McpThreadLeakCheck.snapshot();
        Session s = sessions.connected(mode, t -> { }, b -> b.rootsHandler(() -> {
            running.incrementAndGet();
            release.await();
            return List.of(Root.of("file:///w", "w"));
        }));
        int extra = 20;
        for (int i = 0; i < bound + extra; i++) {
            s.server().deliver(new JsonRpcMessage.Request(RequestId.of(i), "roots/list", null));
        }
        // the reader handles them in order: the first 64 park in the handler, the others are refused at once
        for (int i = bound; i < bound + extra; i++) {
            JsonRpcError e = errorOf(s.server().awaitAnswerTo(RequestId.of(i)));
            assertThat(e.code()).isEqualTo(JsonRpcError.INTERNAL_ERROR);
            assertThat(e.message()).contains("roots/list").contains("64");
        }
        Await.until("64 handlers running", () -> running.get() == bound);
        assertThat(McpThreadLeakCheck.liveSince(before, "handler")).hasSize(bound);
        for (int i = 0; i < bound; i++) {
            assertThat(s.server().answersTo(RequestId.of(i))).isEmpty();
        }

        release.countDown();
        for (int i = 0; i < bound; i++) {
            assertThat(s.server().awaitAnswerTo(RequestId.of(i))).isInstanceOf(JsonRpcMessage.Response.class);
        }
        // the permits came back: a new request runs its handler again
        RequestId later = RequestId.of("later");
        s.server().deliver(new JsonRpcMessage.Request(later, "roots/list", null));
        assertThat(s.server().awaitAnswerTo(later)).isInstanceOf(JsonRpcMessage.Response.class);
        assertThat(running).hasValue(bound + 1);
    }

    /**
     * A burst of refusals is reported so that every refusal is counted once (issue 26 item 26, the same kind:
     * only the first and every 1000th was logged, "1 refused so far" for a burst of hundreds).
     */
    @Test
    void theWarningsCountEveryRefusedRequest() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (dev.loommcp.testing.LogCapture log = dev.loommcp.testing.LogCapture.warnings("dev.loommcp.client")) {
            Session s = sessions.connected(Mode.INLINE, t -> { }, b -> b.maxConcurrentServerRequests(2)
                    .rootsHandler(() -> {
                        release.await();
                        return List.of();
                    }));
            int refused = 685;
            for (int i = 0; i < 2 + refused; i++) {
                s.server().deliver(new JsonRpcMessage.Request(RequestId.of(i), "roots/list", null));
            }
            s.server().awaitAnswerTo(RequestId.of(2 + refused - 1));
            release.countDown();
            assertThat(s.server().awaitAnswerTo(RequestId.of(0))).isInstanceOf(JsonRpcMessage.Response.class);
            assertThat(s.server().awaitAnswerTo(RequestId.of(1))).isInstanceOf(JsonRpcMessage.Response.class);
            java.util.regex.Pattern p = java.util.regex.Pattern.compile(
                    "refused (\\d+) with an error \\((\\d+) in all\\)");
            Await.until("every refusal reported", () -> log.warnings().stream()
                    .map(e -> p.matcher(e.message())).filter(java.util.regex.Matcher::find)
                    .mapToLong(m -> Long.parseLong(m.group(1))).sum() == refused);
            assertThat(log.warnings()).anyMatch(e -> e.message().contains("(" + refused + " in all)"));
        }
    }

    @Test
    void theBoundIsABuilderOption() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Session s = sessions.connected(Mode.INLINE, t -> { }, b -> b.maxConcurrentServerRequests(2)
                .rootsHandler(() -> {
                    release.await();
                    return List.of();
                }));
        for (int i = 1; i <= 3; i++) {
            s.server().deliver(new JsonRpcMessage.Request(RequestId.of(i), "roots/list", null));
        }
        assertThat(errorOf(s.server().awaitAnswerTo(RequestId.of(3))).message()).contains("2");
        // pings need no handler and are still answered
        s.server().deliver(new JsonRpcMessage.Request(RequestId.of("p"), "ping", null));
        assertThat(s.server().awaitAnswerTo(RequestId.of("p"))).isInstanceOf(JsonRpcMessage.Response.class);
        release.countDown();
        assertThat(s.server().awaitAnswerTo(RequestId.of(1))).isInstanceOf(JsonRpcMessage.Response.class);
        assertThat(s.server().awaitAnswerTo(RequestId.of(2))).isInstanceOf(JsonRpcMessage.Response.class);

        assertThatThrownBy(() -> McpClient.newBuilder(ScriptedTransport.create(Mode.INLINE))
                .maxConcurrentServerRequests(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxConcurrentServerRequests");
    }

    /**
     * Answers from the reader (pings) are handed to {@code send}, which queues and returns: the core starts no thread
     * for them and the reader goes on at once. An HTTP transport POSTs them on its own threads, bounded there
     * (HttpSendContractTest.oneWaySendsBeyondTheBoundAreDroppedAndTheSenderNeverWaits).
     */
    @Test
    void answersFromTheReaderAreQueuedOnTheTransportWithoutCoreThreads() throws Exception {
        ScriptedTransport server = ScriptedTransport.create(Mode.BLOCKING);
        Set<Long> before = McpThreadLeakCheck.snapshot();
        CountDownLatch marker = new CountDownLatch(1);
        try (McpClient client = McpClient.newBuilder(server).maxConcurrentServerRequests(2)
                .listener(new Listen().notifications(n -> marker.countDown())).build()) {
            client.connect();
            for (int i = 0; i < 10; i++) {
                server.deliver(new JsonRpcMessage.Request(RequestId.of(i), "ping", null));
            }
            server.notifyClient("x/marker", null);
            // the reader handles messages in order: once the marker is seen, every ping was answered
            assertThat(marker.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(server.sent().stream().filter(m -> m instanceof JsonRpcMessage.Response).count())
                    .isEqualTo(10);
            assertThat(McpThreadLeakCheck.liveSince(before, "respond")).isEmpty();
        }
    }

    @Test
    void closeBoundsItsWaitForHandlersThatIgnoreTheirInterrupt() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch allIn = new CountDownLatch(3);
        Session s = sessions.connected(Mode.INLINE, t -> { }, b -> b.rootsHandler(() -> {
            allIn.countDown();
            while (true) {
                try {
                    if (release.await(30, TimeUnit.SECONDS)) {
                        return List.of();
                    }
                } catch (InterruptedException ignored) {
                    // this handler ignores close()'s interrupt
                }
            }
        }));
        for (int i = 1; i <= 3; i++) {
            s.server().deliver(new JsonRpcMessage.Request(RequestId.of(i), "roots/list", null));
        }
        assertThat(allIn.await(10, TimeUnit.SECONDS)).isTrue();
        boolean interruptRestored = BackgroundCall.start("interrupted-closer", () -> {
            Thread.currentThread().interrupt();
            s.client().close(); // returns within its bound although the handlers go on
            return Thread.currentThread().isInterrupted();
        }).result();
        assertThat(interruptRestored).isTrue();
        assertThat(s.client().isClosed()).isTrue();
        release.countDown();
        for (int i = 1; i <= 3; i++) {
            assertThat(s.server().answersTo(RequestId.of(i))).isEmpty();
        }
    }
}
