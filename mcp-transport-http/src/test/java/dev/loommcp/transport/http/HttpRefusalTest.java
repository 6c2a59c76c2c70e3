package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.TestServer.json;
import static dev.loommcp.transport.http.TestServer.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import dev.loommcp.CancellationToken;
import dev.loommcp.McpCancelledException;
import dev.loommcp.McpClient;
import dev.loommcp.McpClosedException;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.RequestOptions;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.testing.LeakCheck;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.FutureTask;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 27 item 4 over Streamable HTTP: a request refused with 429, or 503 with {@code Retry-After} (seconds or an
 * HTTP date), is sent again after the wait within its deadline; a wait past the deadline, or the fifth refusal, fails
 * at once with {@link McpRateLimitedException} carrying the server's value; a cancel or close ends the wait at once;
 * one-way POSTs are sent again too; and an error answer's message shows a short excerpt of its body.
 */
@ExtendWith(LeakCheck.class)
class HttpRefusalTest extends ServerTestBase {


    private List<TestServer.Req> calls() {
        return server.requests.stream().filter(r -> "tools/call".equals(r.rpcMethod())).toList();
    }

    private McpClient client() {
        return McpClient.newBuilder(HttpTransport.newBuilder(server.uri("/mcp")).build())
                .protocolMode(ProtocolMode.LEGACY).build();
    }

    private static void refuse(HttpExchange ex, int status, String retryAfter) throws IOException {
        if (retryAfter != null) {
            ex.getResponseHeaders().set("Retry-After", retryAfter);
        }
        TestServer.status(ex, status);
    }

    private static void answered(TestServer.Req req, HttpExchange ex) throws IOException {
        json(ex, 200, result(req.rpcId(), "{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}"));
    }

    @Test
    void a429WithRetryAfterSecondsIsSentAgainAfterTheWait() throws Exception {
        refusedOnceThenAnswered(ex -> refuse(ex, 429, "1"));
    }

    @Test
    void a503WithAnHttpDateIsSentAgainAtThatTime() throws Exception {
        refusedOnceThenAnswered(ex -> {
            // one second after the answer's Date
            ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC).withNano(0);
            ex.getResponseHeaders().set("Date", DateTimeFormatter.RFC_1123_DATE_TIME.format(now));
            refuse(ex, 503, DateTimeFormatter.RFC_1123_DATE_TIME.format(now.plusSeconds(1)));
        });
    }

    @FunctionalInterface
    private interface Refusal {
        void refuse(HttpExchange ex) throws IOException;
    }

    /**
     * The first tools/call is refused with {@code first} (a wait of one second), the next answered: the call
     * succeeds, having gone out twice, the second time at least the server's second later.
     */
    private void refusedOnceThenAnswered(Refusal first) throws Exception {
        AtomicInteger n = new AtomicInteger();
        serveRequests((req, ex) -> {
            if (n.incrementAndGet() == 1) {
                first.refuse(ex);
            } else {
                answered(req, ex);
            }
        });
        try (McpClient client = client()) {
            client.connect();
            assertThat(client.callTool("t", Map.of(), RequestOptions.ofTimeout(Duration.ofSeconds(20))).content())
                    .hasSize(1);
        }
        List<TestServer.Req> calls = calls();
        assertThat(calls).hasSize(2);
        assertThat(Duration.ofNanos(calls.get(1).nanos() - calls.get(0).nanos()))
                .as("waited the server's second").isGreaterThanOrEqualTo(Duration.ofMillis(990));
    }

    @Test
    void aRetryAfterPastTheDeadlineFailsAtOnceTypedAndCarriesTheValue() throws Exception {
        serveRequests((req, ex) -> refuse(ex, 429, "30"));
        try (McpClient client = client()) {
            client.connect();
            long start = System.nanoTime();
            assertThatThrownBy(() -> client.callTool("t", Map.of(), RequestOptions.ofTimeout(Duration.ofSeconds(10))))
                    .isInstanceOfSatisfying(McpRateLimitedException.class, e -> {
                        assertThat(e.statusCode()).isEqualTo(429);
                        assertThat(e.retryAfter()).contains(Duration.ofSeconds(30));
                        assertThat(e.attempts()).isEqualTo(1);
                        assertThat(e.getMessage()).contains("POST tools/call", "HTTP 429", "Retry-After 30 s",
                                "would pass the call's deadline");
                    });
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("at once, not at the deadline")
                    .isLessThan(Duration.ofSeconds(9));
            client.ping(); // the client stays usable
        }
        assertThat(calls()).hasSize(1);
    }

    @Test
    void aRetryAfterOverTheCapIsNotWaitedFor() throws Exception {
        serveRequests((req, ex) -> refuse(ex, 503, "3600"));
        try (McpClient client = client()) {
            client.connect();
            assertThatThrownBy(() -> client.callTool("t", Map.of(), RequestOptions.ofTimeout(Duration.ofHours(2))))
                    .isInstanceOfSatisfying(McpRateLimitedException.class, e -> {
                        assertThat(e.retryAfter()).contains(Duration.ofHours(1));
                        assertThat(e.getMessage()).contains("waits at most 60 s");
                    });
        }
        assertThat(calls()).hasSize(1);
    }

    @Test
    void refusalsAreSentAtMostFiveTimesWithBackoffWithoutRetryAfter() throws Exception {
        serveRequests((req, ex) -> refuse(ex, 429, req.body().contains("\"zero\"") ? "0" : null));
        try (McpClient client = client()) {
            client.connect();
            assertThatThrownBy(() -> client.callTool("zero", Map.of(), RequestOptions.ofTimeout(Duration.ofSeconds(30))))
                    .isInstanceOfSatisfying(McpRateLimitedException.class, e -> {
                        assertThat(e.attempts()).isEqualTo(RetryPolicy.MAX_SENDS);
                        assertThat(e.retryAfter()).contains(Duration.ZERO);
                        assertThat(e.getMessage()).contains("refused 5 times");
                    });
            assertThat(calls()).hasSize(RetryPolicy.MAX_SENDS);
            // without Retry-After: the backoff (250, 500, 1000, 2000 ms, each jittered down to half)
            assertThatThrownBy(() -> client.callTool("none", Map.of(), RequestOptions.ofTimeout(Duration.ofSeconds(30))))
                    .isInstanceOfSatisfying(McpRateLimitedException.class, e -> {
                        assertThat(e.attempts()).isEqualTo(RetryPolicy.MAX_SENDS);
                        assertThat(e.retryAfter()).isEmpty();
                    });
        }
        List<TestServer.Req> none = calls().subList(RetryPolicy.MAX_SENDS, 2 * RetryPolicy.MAX_SENDS);
        for (int i = 1; i < none.size(); i++) {
            long floor = (RetryPolicy.BACKOFF_BASE_MILLIS << (i - 1)) / 2;
            assertThat(Duration.ofNanos(none.get(i).nanos() - none.get(i - 1).nanos()))
                    .as("backoff before send " + (i + 1)).isGreaterThanOrEqualTo(Duration.ofMillis(floor - 5));
        }
    }

    @Test
    void a503WithoutRetryAfterFailsAtOnceAsBefore() throws Exception {
        serveRequests((req, ex) -> refuse(ex, 503, null));
        try (McpClient client = client()) {
            client.connect();
            assertThatThrownBy(() -> client.callTool("t", Map.of()))
                    .isExactlyInstanceOf(McpHttpStatusException.class).hasMessageContaining("HTTP 503");
        }
        assertThat(calls()).hasSize(1);
    }

    @Test
    void aCancelDuringTheWaitEndsItAtOnce() throws Exception {
        serveRequests((req, ex) -> refuse(ex, 429, "50"));
        try (McpClient client = client()) {
            client.connect();
            CancellationToken token = CancellationToken.create();
            FutureTask<Object> call = new FutureTask<>(() -> client.callTool("t", Map.of(),
                    RequestOptions.newBuilder().timeout(Duration.ofMinutes(2)).token(token).build()));
            Thread.ofVirtual().start(call);
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> calls().size() == 1);
            Thread.sleep(200); // into the wait
            long start = System.nanoTime();
            token.cancel("user");
            assertThatThrownBy(() -> call.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(McpCancelledException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        }
        assertThat(calls()).hasSize(1);
    }

    @Test
    void closeDuringTheWaitEndsIt() throws Exception {
        serveRequests((req, ex) -> refuse(ex, 429, "50"));
        McpClient client = client();
        client.connect();
        FutureTask<Object> call = new FutureTask<>(() -> client.callTool("t", Map.of(),
                RequestOptions.ofTimeout(Duration.ofMinutes(2))));
        Thread.ofVirtual().start(call);
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> calls().size() == 1);
        Thread.sleep(200);
        client.close();
        assertThatThrownBy(() -> call.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(McpClosedException.class);
    }

    @Test
    void aNotificationRefusedWith429IsPostedAgain() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        server.handler((req, ex) -> {
            seen.add(req.rpcMethod());
            if (seen.size() == 1) {
                refuse(ex, 429, "0");
            } else {
                TestServer.status(ex, 202);
            }
        });
        HttpTransport t = open(HttpTransport.newBuilder(server.uri("/mcp")));
        t.exchange(new JsonRpcMessage.Notification("notifications/roots/list_changed", null), TestContext.none());
        assertThat(seen).containsExactly("notifications/roots/list_changed", "notifications/roots/list_changed");
    }

    @Test
    void a502HtmlPageShowsItsTitleAndNoMarkup() throws Exception {
        serveRequests((req, ex) -> {
            byte[] page = ("<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title><style>body{}</style></head>"
                    + "<body><h1>Bad Gateway</h1><p>upstream \"mcp\" is down</p></body></html>")
                    .getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            ex.sendResponseHeaders(502, page.length);
            try (OutputStream o = ex.getResponseBody()) {
                o.write(page);
            }
        });
        try (McpClient client = client()) {
            client.connect();
            assertThatThrownBy(() -> client.callTool("t", Map.of()))
                    .isExactlyInstanceOf(McpHttpStatusException.class)
                    .hasMessageEndingWith("failed with HTTP 502; the server said: 502 Bad Gateway")
                    .hasMessageNotContaining("<");
        }
    }

    @Test
    void anErrorBodyExcerptIsOneShortLineWithControlsEscaped() {
        String text = "line one\r\n\tline two \u001b[31mred\u202e" + "x".repeat(500);
        String e = ErrorExcerpt.of(text.getBytes(StandardCharsets.UTF_8), "text/plain");
        assertThat(e).startsWith("line one line two \\u001B[31mred\\u202Exxx").endsWith("...")
                .doesNotContain("\n", "\r", "\t", "\u001b", "\u202e");
        assertThat(e.length()).isLessThanOrEqualTo(ErrorExcerpt.MAX_CHARS + 3 + 2 * 5);
        assertThat(ErrorExcerpt.of(("<html><body><script>var s=1;</script><p>Service &amp; co down</p></body>"
                + "</html>").getBytes(StandardCharsets.UTF_8), "text/html"))
                .isEqualTo("Service & co down");
        assertThat(ErrorExcerpt.of(new byte[] {0, 1, 2, (byte) 0xff}, "")).as("binary").isNull();
        assertThat(ErrorExcerpt.of("{}".getBytes(StandardCharsets.UTF_8), "image/png")).isNull();
        assertThat(ErrorExcerpt.of("   ".getBytes(StandardCharsets.UTF_8), "text/plain")).isNull();
    }

    @Test
    void retryAfterTakesSecondsAndAllThreeDateForms() {
        assertThat(RetryPolicy.retryAfter(headers("Retry-After", "120"))).isEqualTo(Duration.ofSeconds(120));
        assertThat(RetryPolicy.retryAfter(headers("Retry-After", "99999999999999999999")))
                .as("saturates").isGreaterThan(Duration.ofDays(365));
        String date = "Sun, 06 Nov 1994 08:49:37 GMT";
        assertThat(RetryPolicy.retryAfter(headers("Retry-After", date, "Date", "Sun, 06 Nov 1994 08:48:37 GMT")))
                .isEqualTo(Duration.ofSeconds(60));
        assertThat(RetryPolicy.retryAfter(headers("Retry-After", "Sunday, 06-Nov-94 08:49:37 GMT",
                "Date", "Sun, 06 Nov 1994 08:49:07 GMT"))).isEqualTo(Duration.ofSeconds(30));
        assertThat(RetryPolicy.retryAfter(headers("Retry-After", "Sun Nov  6 08:49:37 1994",
                "Date", "Sun, 06 Nov 1994 08:49:27 GMT"))).isEqualTo(Duration.ofSeconds(10));
        assertThat(RetryPolicy.retryAfter(headers("Retry-After", date))).as("in the past").isEqualTo(Duration.ZERO);
        assertThat(RetryPolicy.retryAfter(headers("Retry-After", "soon"))).isNull();
        assertThat(RetryPolicy.retryAfter(headers("Retry-After", "-5"))).isNull();
        assertThat(RetryPolicy.retryAfter(headers())).isNull();
    }

    private static java.net.http.HttpHeaders headers(String... kv) {
        Map<String, List<String>> m = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (int i = 0; i < kv.length; i += 2) {
            m.computeIfAbsent(kv[i], k -> new ArrayList<>()).add(kv[i + 1]);
        }
        return java.net.http.HttpHeaders.of(m, (k, v) -> true);
    }
}
