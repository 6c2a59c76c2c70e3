package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.testing.Await;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code callToolAsync}/{@code requestAsync}, and many concurrent calls correlated correctly. */
class McpClientAsyncTest {

    @RegisterExtension
    final Sessions sessions = new Sessions();

    private static Map<String, Object> textResult(String text) {
        return Map.of("content", List.of(Map.of("type", "text", "text", text)));
    }

    private static <T> T get(CompletableFuture<T> f) throws Exception {
        return f.get(Await.DEFAULT.toMillis(), TimeUnit.MILLISECONDS);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void callToolAsyncCompletesWithTheResult(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t.on("tools/call",
                r -> textResult("hello " + ((Map<?, ?>) r.params().get("arguments")).get("who"))), b -> b);
        CompletableFuture<CallToolResult> f = s.client().callToolAsync("greet", Map.of("who", "ada"),
                RequestOptions.DEFAULT);
        assertThat(get(f).text()).isEqualTo("hello ada");
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void requestAsyncCompletesWithTheRawResult(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t.on("x/echo", r -> Map.of("got", r.params())), b -> b);
        assertThat(get(s.client().requestAsync("x/echo", Map.of("a", 1), RequestOptions.DEFAULT)))
                .isEqualTo(Map.of("got", Map.of("a", 1)));
    }

    /**
     * Closing the client or losing the transport under a pending async call fails its future with an
     * {@link McpException} (closed, or the loss), never with the interrupt that close() sends the call's thread.
     */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void anAsyncCallCutOffByCloseOrLossFailsWithAnMcpExceptionNeverAnInterrupt(Mode mode) throws Exception {
        for (int round = 0; round < 40; round++) {
            boolean lose = round % 2 == 0;
            Session s = sessions.connected(mode, t -> t.hold("tools/call"), b -> b);
            CompletableFuture<CallToolResult> f = s.client().callToolAsync("t", Map.of(), RequestOptions.DEFAULT);
            s.server().awaitRequests("tools/call", 1);
            if (lose) {
                s.server().lose(new McpTransportException("cable cut"));
            } else {
                s.client().close();
            }
            int r = round;
            assertThatThrownBy(() -> get(f)).as("round %d (%s)", r, lose ? "loss" : "close")
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(McpException.class);
            s.client().close();
        }
    }

    @Test
    void anAsyncFailureCompletesTheFutureExceptionally() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.on("tools/call",
                r -> new JsonRpcError(-32602, "no such tool", null)), b -> b);
        CompletableFuture<CallToolResult> f = s.client().callToolAsync("nope", null, RequestOptions.DEFAULT);
        assertThatThrownBy(() -> get(f)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(McpRpcException.class).hasMessageContaining("no such tool");
    }

    @Test
    void anAsyncTimeoutCompletesTheFutureWithTimeoutAndSendsCancelled() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.hold("tools/call"), b -> b);
        CompletableFuture<CallToolResult> f = s.client().callToolAsync("slow", null,
                RequestOptions.ofTimeout(Duration.ofMillis(100)));
        assertThatThrownBy(() -> get(f)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(McpTimeoutException.class);
        s.server().awaitNotification("notifications/cancelled");
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void cancellingTheFutureCancelsTheRequestOnTheWire(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t.hold("tools/call"), b -> b);
        CompletableFuture<CallToolResult> f = s.client().callToolAsync("slow", Map.of(), RequestOptions.DEFAULT);
        JsonRpcMessage.Request request = s.server().awaitRequest("tools/call");

        assertThat(f.cancel(true)).isTrue();

        assertThat(f.isCancelled()).isTrue();
        assertThatThrownBy(() -> get(f)).isInstanceOf(CancellationException.class);
        JsonRpcMessage.Notification cancelled = s.server().awaitNotification("notifications/cancelled");
        assertThat(((Number) cancelled.params().get("requestId")).longValue()).isEqualTo(request.id().value());
        Await.until("the pending request to go", () -> s.client().pendingRequestCount() == 0);
        s.server().reply(request.id(), textResult("late"));
        s.client().ping();
    }

    @Test
    void cancellingARequestAsyncFutureCancelsOnTheWireToo() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.hold("x/slow"), b -> b);
        CompletableFuture<Map<String, Object>> f = s.client().requestAsync("x/slow", null, RequestOptions.DEFAULT);
        RequestId id = s.server().awaitRequest("x/slow").id();
        f.cancel(false);
        JsonRpcMessage.Notification cancelled = s.server().awaitNotification("notifications/cancelled");
        assertThat(((Number) cancelled.params().get("requestId")).longValue()).isEqualTo(id.value());
    }

    @Test
    void theCallersOwnTokenCancelsAnAsyncCall() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.hold("tools/call"), b -> b);
        CancellationToken token = CancellationToken.create();
        CompletableFuture<CallToolResult> f = s.client().callToolAsync("slow", null, RequestOptions.ofToken(token));
        s.server().awaitRequest("tools/call");
        token.cancel("outer");
        assertThatThrownBy(() -> get(f)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(McpCancelledException.class).hasMessageContaining("outer");
        s.server().awaitNotification("notifications/cancelled");
    }

    @Test
    void cancellingACompletedFutureSendsNothing() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.on("tools/call", r -> textResult("ok")), b -> b);
        CompletableFuture<CallToolResult> f = s.client().callToolAsync("t", null, RequestOptions.DEFAULT);
        get(f);
        assertThat(f.cancel(true)).isFalse();
        s.client().ping();
        assertThat(s.server().notifications("notifications/cancelled")).isEmpty();
    }

    @Test
    void anAsyncCallBeforeConnectFailsWithIllegalState() throws Exception {
        Session s = sessions.unconnected(Mode.INLINE, t -> { }, b -> b);
        assertThatThrownBy(() -> get(s.client().callToolAsync("t", null, RequestOptions.DEFAULT)))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(IllegalStateException.class);
    }

    @Test
    void anAsyncCallAfterCloseFailsWithClosedAndLeavesNoThread() throws Exception {
        Session s = sessions.connected(Mode.INLINE);
        s.client().close();
        Set<Long> before = dev.loommcp.testing.McpThreadLeakCheck.snapshot();
        assertThatThrownBy(() -> get(s.client().callToolAsync("t", null, RequestOptions.DEFAULT)))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(McpClosedException.class);
        assertThatThrownBy(() -> get(s.client().requestAsync("x", null, RequestOptions.DEFAULT)))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(McpClosedException.class);
        assertThat(dev.loommcp.testing.McpThreadLeakCheck.liveSince(before, "async")).isEmpty();
    }

    // ------------------------------------------------------------------------------------------------ concurrency

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aThousandConcurrentCallsAreCorrelatedWithOutOfOrderAnswers(Mode mode) throws Exception {
        int n = 1000;
        Session s = sessions.connected(mode, t -> t.hold("tools/call"), b -> b);
        List<Future<String>> results = new ArrayList<>();
        try (ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < n; i++) {
                int k = i;
                results.add(callers.submit(() -> s.client().callTool("echo", Map.of("k", k)).text()));
            }
            List<JsonRpcMessage.Request> requests = new ArrayList<>(s.server().awaitRequests("tools/call", n));
            Set<RequestId> ids = new HashSet<>();
            requests.forEach(r -> ids.add(r.id()));
            assertThat(ids).hasSize(n);
            assertThat(s.client().pendingRequestCount()).isEqualTo(n);

            Collections.shuffle(requests, new Random(42));
            for (JsonRpcMessage.Request r : requests) {
                Object k = ((Map<?, ?>) r.params().get("arguments")).get("k");
                s.server().reply(r.id(), textResult("answer-" + k));
            }
            for (int i = 0; i < n; i++) {
                assertThat(results.get(i).get(Await.DEFAULT.toMillis(), TimeUnit.MILLISECONDS))
                        .isEqualTo("answer-" + i);
            }
        }
        assertThat(s.client().pendingRequestCount()).isZero();
    }

    @Test
    void concurrentAsyncCallsWithMixedOutcomes() throws Exception {
        int n = 300;
        Session s = sessions.connected(Mode.INLINE, t -> t.on("tools/call", r -> {
            int k = (Integer) ((Map<?, ?>) r.params().get("arguments")).get("k");
            return switch (k % 3) {
                case 0 -> textResult("ok-" + k);
                case 1 -> new JsonRpcError(-32000, "fail-" + k, null);
                default -> dev.loommcp.testing.ScriptedTransport.HOLD;
            };
        }), b -> b);
        List<CompletableFuture<CallToolResult>> futures = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            futures.add(s.client().callToolAsync("t", Map.of("k", i),
                    RequestOptions.ofTimeout(Duration.ofSeconds(1))));
        }
        for (int i = 0; i < n; i++) {
            CompletableFuture<CallToolResult> f = futures.get(i);
            switch (i % 3) {
                case 0 -> assertThat(get(f).text()).isEqualTo("ok-" + i);
                case 1 -> assertThatThrownBy(() -> get(f)).cause().isInstanceOf(McpRpcException.class)
                        .hasMessageContaining("fail-" + i);
                default -> assertThatThrownBy(() -> get(f)).cause().isInstanceOf(McpTimeoutException.class);
            }
        }
        Await.until("a cancelled notification per timed-out call",
                () -> s.server().notifications("notifications/cancelled").size() == n / 3);
    }
}
