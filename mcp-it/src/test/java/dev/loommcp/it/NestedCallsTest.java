package dev.loommcp.it;

import dev.loommcp.CancellationToken;
import dev.loommcp.McpCancelledException;
import dev.loommcp.McpClient;
import dev.loommcp.McpContext;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.RequestOptions;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.CreateMessageResult;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.RecordingTransport;
import dev.loommcp.testkit.HttpModernFixture;
import dev.loommcp.testkit.HttpReferenceServer;
import dev.loommcp.testkit.ModernFixture;
import dev.loommcp.testkit.ReferenceServer;
import dev.loommcp.transport.http.HttpTransport;
import dev.loommcp.transport.stdio.StdioTransport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Propagation across calls (issue 28): server A's tool asks the client for sampling; the sampling handler calls a
 * slow tool on server B; when A's call times out or its token fires, B's call is cancelled on B's wire and B's
 * deadline never outlives A's. In both eras: 2026, where the sampling request is an {@code inputRequests} entry of
 * A's answer (the modern fixture over Streamable HTTP), and 2025, where it is a server request on the call's own
 * POST stream (server-everything over Streamable HTTP). B is server-everything over stdio, its wire recorded.
 */
@ExtendWith(LeakCheck.class)
class NestedCallsTest {

    private static final Duration OUTER_TIMEOUT = Duration.ofSeconds(3);

    private static HttpModernFixture modern;
    private static HttpReferenceServer everything;

    @BeforeAll
    static void startServers() throws Exception {
        modern = new HttpModernFixture(ModernFixture.Variant.DUAL_ERA);
        everything = new HttpReferenceServer();
    }

    @AfterAll
    static void stopServers() {
        if (modern != null) {
            modern.close();
        }
        if (everything != null) {
            everything.close();
        }
    }

    /** What the handler saw and what became of its call to B. */
    private record Seen(Optional<McpContext> context, Duration remainingAtStart, Throwable innerFailure,
                        RequestId innerId) {
    }

    @ParameterizedTest(name = "{0} era, outer call ended by {1}")
    @CsvSource({"2026, timeout", "2026, token", "2025, timeout", "2025, token"})
    void endingTheOuterCallCancelsTheNestedCallOnTheOtherServersWire(String era, String ending) throws Exception {
        RecordingTransport wireB = new RecordingTransport(StdioTransport.newBuilder(ReferenceServer.stdioCommand())
                .build());
        try (McpClient b = McpClient.newBuilder(wireB).requestTimeout(Duration.ofSeconds(60)).build()) {
            b.connect();
            CompletableFuture<Seen> seen = new CompletableFuture<>();
            AtomicReference<Duration> ownLeft = new AtomicReference<>();
            McpTransport transportA = era.equals("2026")
                    ? HttpTransport.newBuilder(modern.endpoint()).build()
                    : HttpTransport.newBuilder(everything.endpoint()).build();
            try (McpClient a = McpClient.newBuilder(transportA)
                    .protocolMode(era.equals("2026") ? ProtocolMode.MODERN : ProtocolMode.LEGACY)
                    .requestTimeout(Duration.ofSeconds(60))
                    .samplingHandler(request -> {
                        Optional<McpContext> context = McpContext.current();
                        Duration left = context.flatMap(McpContext::remaining).orElse(null);
                        Throwable failure = null;
                        RequestId[] innerId = new RequestId[1];
                        try {
                            // B's own timeout (60 s) is far longer than what is left of A's call
                            b.callTool("trigger-long-running-operation", Map.of("duration", 30, "steps", 30),
                                    RequestOptions.newBuilder().progressListener(p -> {
                                        ownLeft.compareAndSet(null, McpContext.current()
                                                .flatMap(McpContext::remaining).orElse(null));
                                        innerId[0] = McpContext.current().flatMap(McpContext::requestId)
                                                .orElse(null);
                                    }).build());
                        } catch (Throwable t) {
                            failure = t;
                        }
                        seen.complete(new Seen(context, left, failure, innerId[0]));
                        if (failure instanceof InterruptedException ie) {
                            throw ie;
                        }
                        return CreateMessageResult.ofText("test-model", "too late");
                    })
                    .build()) {
                a.connect();
                CancellationToken token = CancellationToken.create();
                RequestOptions.Builder options = RequestOptions.newBuilder().token(token);
                if (ending.equals("timeout")) {
                    options.timeout(OUTER_TIMEOUT);
                } else {
                    // once B's call runs (its first progress), the application cancels A's call
                    Thread.ofVirtual().start(() -> {
                        await().atMost(Duration.ofSeconds(30)).until(() -> ownLeft.get() != null
                                || seen.isDone());
                        token.cancel("the user gave up");
                    });
                }
                String tool = era.equals("2026") ? "summarize" : "trigger-sampling-request";
                Map<String, Object> args = era.equals("2026") ? Map.of("topic", "weather")
                        : Map.of("prompt", "weather", "maxTokens", 10);
                long started = System.nanoTime();
                assertThatThrownBy(() -> a.callTool(tool, args, options.build()))
                        .isInstanceOf(ending.equals("timeout") ? McpTimeoutException.class
                                : McpCancelledException.class);
                Duration took = Duration.ofNanos(System.nanoTime() - started);
                assertThat(took).as("the outer call ended promptly").isLessThan(Duration.ofSeconds(25));

                Seen s = seen.get(10, TimeUnit.SECONDS);
                // the handler ran for A's tools/call and saw its context
                assertThat(s.context()).isPresent();
                assertThat(s.context().get().method()).isEqualTo("tools/call");
                if (ending.equals("timeout")) {
                    assertThat(s.remainingAtStart()).isNotNull().isLessThanOrEqualTo(OUTER_TIMEOUT);
                    // B's call inherited A's deadline: never more than what A had left
                    assertThat(ownLeft.get()).isNotNull().isLessThanOrEqualTo(OUTER_TIMEOUT);
                }
                // B's call ended with A's call, long before its 30 s operation or its own 60 s timeout
                assertThat(s.innerFailure()).isInstanceOfAny(McpCancelledException.class,
                        McpTimeoutException.class, InterruptedException.class);
                // ... and B heard about it on its wire
                await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                    List<JsonRpcMessage.Notification> cancels = wireB.sentNotifications("notifications/cancelled");
                    assertThat(cancels).as("notifications/cancelled sent to B").isNotEmpty();
                    assertThat(cancels).anySatisfy(n -> assertThat(RequestId.of(((Number) n.params()
                            .get("requestId")).longValue())).isEqualTo(s.innerId()));
                });
            }
            // B is still usable
            assertThat(b.callTool("echo", Map.of("message", "still here")).text()).contains("still here");
        }
    }
}
