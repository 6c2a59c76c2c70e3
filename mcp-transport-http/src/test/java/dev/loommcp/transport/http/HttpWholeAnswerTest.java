package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.TestServer.json;
import static dev.loommcp.transport.http.TestServer.result;
import static dev.loommcp.transport.http.TestServer.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpClient;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpTransportException;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.RequestOptions;
import dev.loommcp.testing.LeakCheck;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A fixed-length JSON answer to a request whose caller waits is taken in whole inside the HTTP client's
 * {@code send} ({@link StreamBody#StreamBody(boolean)}: one wake-up of the caller per answer), only when the call's
 * deadline bounds it (the core cancels the call at its deadline); a body that stalls there still ends at the
 * deadline, and one read as it comes still has its idle bound.
 */
@ExtendWith(LeakCheck.class)
class HttpWholeAnswerTest extends ServerTestBase {

    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void releaseTheServer() {
        release.countDown();
    }

    private static HttpResponse.ResponseInfo info(int status, Map<String, List<String>> headers) {
        HttpHeaders h = HttpHeaders.of(headers, (k, v) -> true);
        return new HttpResponse.ResponseInfo() {
            @Override
            public int statusCode() {
                return status;
            }

            @Override
            public HttpHeaders headers() {
                return h;
            }

            @Override
            public HttpClient.Version version() {
                return HttpClient.Version.HTTP_1_1;
            }
        };
    }

    private static HttpResponse.ResponseInfo jsonInfo(int status, String length) {
        return info(status, Map.of("Content-Type", List.of("application/json; charset=utf-8"),
                "Content-Length", List.of(length)));
    }

    /** (A Content-Length that is not a length never gets here: the exchange fails, see HttpTransportFaultsTest.) */
    @Test
    void onlyAFixedLength2xxJsonAnswerWithinTheLimitIsTakenInWhole() {
        assertThat(Exchange.readsWhole(jsonInfo(200, "100"), 100)).isTrue();
        assertThat(Exchange.readsWhole(jsonInfo(200, "0"), 100)).isTrue();
        assertThat(Exchange.readsWhole(info(200, Map.of("Content-Type", List.of("application/problem+json"),
                "Content-Length", List.of("5"))), 100)).as("a +json type").isTrue();
        assertThat(Exchange.readsWhole(jsonInfo(200, "101"), 100)).as("over the limit").isFalse();
        assertThat(Exchange.readsWhole(jsonInfo(200, "100"), -1)).as("no deadline to bound it").isFalse();
        assertThat(Exchange.readsWhole(jsonInfo(500, "10"), 100)).as("an error status").isFalse();
        assertThat(Exchange.readsWhole(info(200, Map.of("Content-Type", List.of("application/json"))), 100))
                .as("chunked").isFalse();
        assertThat(Exchange.readsWhole(info(200, Map.of("Content-Type", List.of("text/event-stream"),
                "Content-Length", List.of("10"))), 100)).as("SSE").isFalse();
    }

    @Test
    void aWholeFirstBodyIsReturnedOnlyWhenItEndedFailedOrWasClosed() throws Exception {
        AtomicLong requested = new AtomicLong();
        Flow.Subscription subscription = new Flow.Subscription() {
            @Override
            public void request(long n) {
                requested.addAndGet(n);
            }

            @Override
            public void cancel() {
            }
        };
        StreamBody ends = new StreamBody(true);
        ends.onSubscribe(subscription);
        assertThat(requested.get()).as("asks for all of it at once").isEqualTo(Long.MAX_VALUE);
        ends.onNext(List.of(ByteBuffer.wrap("{}".getBytes())));
        assertThat(ends.getBody().toCompletableFuture()).isNotDone();
        ends.onComplete();
        assertThat(ends.getBody().toCompletableFuture()).isCompletedWithValue(ends);
        assertThat(ends.readAll(10, () -> 1)).isEqualTo("{}".getBytes());

        StreamBody fails = new StreamBody(true);
        fails.onSubscribe(subscription);
        fails.onError(new java.io.IOException("cut"));
        assertThat(fails.getBody().toCompletableFuture()).isCompletedWithValue(fails);
        assertThatThrownBy(() -> fails.readAll(10, () -> 1)).hasMessage("cut");

        StreamBody closed = new StreamBody(true);
        closed.onSubscribe(subscription);
        closed.close();
        assertThat(closed.getBody().toCompletableFuture()).isCompletedWithValue(closed);

        StreamBody streamed = new StreamBody();
        assertThat(streamed.getBody().toCompletableFuture()).as("not whole first: at once").isDone();
    }

    /** The test server: initialize answered; every tools/call gets a 100-byte JSON answer that stops after 11. */
    private void stallingJsonBodies() {
        server.handler((req, ex) -> {
            if (HttpTransportFaultsTest.answeredPlumbing(req, ex, () -> "s1")) {
                return;
            }
            if (req.rpcId() == null) {
                TestServer.status(ex, 202);
            } else if ("tools/call".equals(req.rpcMethod()) && release.getCount() > 0) {
                ex.getResponseHeaders().set("Content-Type", "application/json");
                ex.sendResponseHeaders(200, 100);
                write(ex.getResponseBody(), "{\"jsonrpc\":");
                release.await(20, TimeUnit.SECONDS);
            } else {
                json(ex, 200, result(req.rpcId(), "{\"content\":[]}"));
            }
        });
    }

    @Test
    void aFixedLengthAnswerThatStallsEndsAtTheCallsDeadlineAndTheClientGoesOn() throws Exception {
        stallingJsonBodies();
        try (McpClient client = McpClient.newBuilder(HttpTransport.newBuilder(server.uri("/mcp")).build())
                .protocolMode(ProtocolMode.LEGACY).build()) {
            client.connect();
            for (int i = 0; i < 3; i++) {
                long start = System.nanoTime();
                assertThatThrownBy(() -> client.callTool("stalls", Map.of(),
                        RequestOptions.ofTimeout(Duration.ofMillis(300))))
                        .isInstanceOf(McpTimeoutException.class);
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
                assertThat(Thread.currentThread().isInterrupted()).as("interrupt flag after call " + i).isFalse();
            }
            release.countDown();
            assertThat(client.callTool("answers", Map.of()).content()).isEmpty();
        }
    }

    @Test
    void aBodyReadAsItComesBecauseTheDeadlineIsFarStillHasItsIdleBound() throws Exception {
        stallingJsonBodies();
        try (McpClient client = McpClient.newBuilder(HttpTransport.newBuilder(server.uri("/mcp"))
                .idleTimeout(Duration.ofMillis(300)).build()).protocolMode(ProtocolMode.LEGACY).build()) {
            client.connect();
            assertThatThrownBy(() -> client.callTool("stalls", Map.of(),
                    RequestOptions.ofTimeout(Duration.ofSeconds(30))))
                    .isInstanceOf(McpTransportException.class).hasMessageContaining("idle timeout");
        }
    }
}
