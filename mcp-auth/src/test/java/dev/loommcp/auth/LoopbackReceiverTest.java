package dev.loommcp.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.loommcp.Deadline;
import dev.loommcp.testing.LeakCheck;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The loopback redirect receiver: 127.0.0.1, random port, /callback, state-checked, one-shot, bounded, closable. */
@ExtendWith(LeakCheck.class)
class LoopbackReceiverTest {

    HttpClient http;
    final List<URI> shown = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() {
        http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    }

    @AfterEach
    void tearDown() {
        http.close();
    }

    HttpResponse<String> get(URI u) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(u).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void redirectWithTheStateCompletesTheAuthorizationOthersAreRefused() throws Exception {
        try (LoopbackReceiver r = LoopbackReceiver.open(shown::add);
             ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            URI cb = r.redirectUri();
            assertThat(cb.getHost()).isEqualTo("127.0.0.1");
            assertThat(cb.getPort()).isPositive();
            assertThat(cb.getPath()).isEqualTo("/callback");
            assertThat(r.toString()).contains(cb.toString());
            URI authUrl = URI.create("https://as.example.com/authorize?state=s1");
            Future<URI> result = pool.submit(() -> r.authorize(authUrl, "s1",
                    Deadline.after(Duration.ofSeconds(60))));
            await().atMost(Duration.ofSeconds(30)).until(() -> shown.contains(authUrl));
            // no authorization waits for another state; nothing off /callback
            assertThat(get(URI.create(cb + "?code=x&state=other")).statusCode()).isEqualTo(400);
            assertThat(get(URI.create(cb + "?code=x")).statusCode()).isEqualTo(400);
            assertThat(get(cb.resolve("/other?state=s1")).statusCode()).isEqualTo(404);
            assertThat(result.isDone()).isFalse();
            HttpResponse<String> ok = get(URI.create(cb + "?code=the-code&state=s1&iss=https%3A%2F%2Fas"));
            assertThat(ok.statusCode()).isEqualTo(200);
            assertThat(ok.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/html");
            assertThat(ok.body()).contains("close this window").doesNotContain("the-code");
            assertThat(result.get(30, TimeUnit.SECONDS)).isEqualTo(URI.create(cb
                    + "?code=the-code&state=s1&iss=https%3A%2F%2Fas"));
            // one-shot: a replay is refused
            assertThat(get(URI.create(cb + "?code=the-code&state=s1")).statusCode()).isEqualTo(400);
        }
    }

    /**
     * RFC 8252 section 7.3: the receiver listens on the IPv4 literal it advertises, also in a JVM that prefers IPv6
     * (where the JDK's loopback address is {@code ::1} and a redirect to 127.0.0.1 found nothing of ours).
     */
    @Test
    void aJvmPreferringIpv6ReceivesTheRedirectOnTheAdvertisedAddress(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("child.out");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.net.preferIPv6Addresses=true", "-Xmx64m", "-XX:TieredStopAtLevel=1", "-cp",
                ChildJvm.classPath(),
                LoopbackChild.class.getName()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        try {
            assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("the child ended").isTrue();
            String text = Files.readString(out);
            assertThat(p.exitValue()).as(text).isZero();
            assertThat(text).contains("ADVERTISED http://127.0.0.1:").contains("RECEIVED code=c&state=s1");
        } finally {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** A local connection that sends half a request does not keep the browser's redirect from being handled. */
    @Test
    void aStalledConnectionDoesNotBlockTheRedirect() throws Exception {
        try (LoopbackReceiver r = LoopbackReceiver.open(shown::add);
             Socket stalled = new Socket("127.0.0.1", r.redirectUri().getPort());
             ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<URI> result = pool.submit(() -> r.authorize(URI.create("https://as.example.com/a"), "s1",
                    Deadline.after(Duration.ofSeconds(60))));
            await().atMost(Duration.ofSeconds(30)).until(() -> shown.size() == 1);
            OutputStream out = stalled.getOutputStream();
            out.write("GET /callback?code=evil&state=s1 HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(
                    StandardCharsets.US_ASCII)); // no blank line: the head never ends
            out.flush();
            // the real redirect, bounded well below the stalled connection's read timeout
            HttpResponse<String> ok = http.send(HttpRequest.newBuilder(URI.create(r.redirectUri()
                    + "?code=real&state=s1")).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(ok.statusCode()).isEqualTo(200);
            assertThat(result.get(30, TimeUnit.SECONDS).getQuery()).isEqualTo("code=real&state=s1");
        }
    }

    @Test
    void theDeadlineBoundsTheWait() throws Exception {
        try (LoopbackReceiver r = LoopbackReceiver.open(shown::add)) {
            assertThatThrownBy(() -> r.authorize(URI.create("https://as.example.com/a"), "s",
                    Deadline.after(Duration.ofMillis(200)))).isInstanceOf(McpAuthorizationException.class)
                    .hasMessageContaining("not completed in time");
            // the receiver is usable again
            URI cb = r.redirectUri();
            try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
                Future<URI> f = pool.submit(() -> r.authorize(URI.create("https://as.example.com/b"), "t",
                        Deadline.after(Duration.ofSeconds(60))));
                await().atMost(Duration.ofSeconds(30)).until(() -> shown.size() == 2);
                assertThat(get(URI.create(cb + "?code=c&state=t")).statusCode()).isEqualTo(200);
                assertThat(f.get(30, TimeUnit.SECONDS).getQuery()).isEqualTo("code=c&state=t");
            }
        }
    }

    /**
     * Issue 26 (break test 4): one receiver serving two authorizations at once (one provider authorizing two
     * servers): both URLs are shown, each redirect completes its own authorization whatever the order, a state
     * nobody waits for changes nothing, and close fails every one still waiting.
     */
    @Test
    void severalAuthorizationsRunAtOnceEachCompletedByItsOwnRedirect() throws Exception {
        try (LoopbackReceiver r = LoopbackReceiver.open(shown::add);
             ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<URI> first = pool.submit(() -> r.authorize(URI.create("https://as.example.com/a"), "s1",
                    Deadline.after(Duration.ofSeconds(60))));
            Future<URI> second = pool.submit(() -> r.authorize(URI.create("https://as.example.com/b"), "s2",
                    Deadline.after(Duration.ofSeconds(60))));
            Future<URI> third = pool.submit(() -> r.authorize(URI.create("https://as.example.com/c"), "s3",
                    Deadline.after(Duration.ofSeconds(60))));
            await().atMost(Duration.ofSeconds(30)).until(() -> shown.size() == 3);
            assertThatThrownBy(() -> r.authorize(URI.create("https://as.example.com/d"), "s1",
                    Deadline.after(Duration.ofSeconds(5)))).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("same state");
            assertThat(get(URI.create(r.redirectUri() + "?code=c9&state=other")).statusCode()).isEqualTo(400);
            assertThat(get(URI.create(r.redirectUri() + "?code=c2&state=s2")).statusCode()).isEqualTo(200);
            assertThat(second.get(30, TimeUnit.SECONDS).getQuery()).isEqualTo("code=c2&state=s2");
            assertThat(first).isNotDone();
            assertThat(get(URI.create(r.redirectUri() + "?code=c1&state=s1")).statusCode()).isEqualTo(200);
            assertThat(first.get(30, TimeUnit.SECONDS).getQuery()).isEqualTo("code=c1&state=s1");
            assertThat(get(URI.create(r.redirectUri() + "?code=c1&state=s1")).statusCode()).as("used").isEqualTo(400);
            r.close();
            assertThatThrownBy(() -> third.get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(IOException.class)
                    .hasMessageContaining("closed");
        }
    }

    /** Issue 26 (break test 4, of the same kind): a failing callback's reason is in the message, not only its class. */
    @Test
    void aFailingCallbackFailsTheAuthorizationWithItsReason() throws Exception {
        try (LoopbackReceiver r = LoopbackReceiver.open(u -> {
            throw new IllegalStateException("no browser");
        })) {
            assertThatThrownBy(() -> r.authorize(URI.create("https://as.example.com/a"), "s",
                    Deadline.after(Duration.ofSeconds(5)))).isInstanceOf(IOException.class)
                    .hasMessage("showing the authorization URL failed (IllegalStateException: no browser)");
        }
    }

    @Test
    void closeStopsTheServerAndFailsARunningAuthorization() throws Exception {
        LoopbackReceiver r = LoopbackReceiver.open(shown::add);
        URI cb = r.redirectUri();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<URI> f = pool.submit(() -> r.authorize(URI.create("https://as.example.com/a"), "s",
                    Deadline.NONE));
            await().atMost(Duration.ofSeconds(30)).until(() -> shown.size() == 1);
            r.close();
            r.close();
            assertThatThrownBy(() -> f.get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(IOException.class)
                    .hasMessageContaining("closed");
        }
        assertThatThrownBy(() -> get(URI.create(cb + "?state=s"))).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> r.authorize(URI.create("https://as.example.com/a"), "s", Deadline.NONE))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        await().atMost(Duration.ofSeconds(10)).until(() -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().startsWith("mcp-auth-loopback") && t.isAlive()));
    }

    @Test
    void theLoopbackCompletesAFullAuthorizationCodeFlow() throws Exception {
        try (FakeOAuth as = new FakeOAuth(); Driver driver = new Driver()) {
            // the "browser": follows the authorization server's redirect to the receiver
            try (LoopbackReceiver r = LoopbackReceiver.open(u -> Thread.ofVirtual().start(() -> {
                try {
                    HttpResponse<String> resp = get(u);
                    get(URI.create(resp.headers().firstValue("Location").orElseThrow()));
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }))) {
                McpOAuth oauth = McpOAuth.newBuilder().authorizationCode(r).tokenStore(new MapStore()).build();
                try (oauth) {
                    assertThat(driver.post(oauth, as.mcp())).isEqualTo(200);
                }
                assertThat(as.authorizeQueries.getFirst()).containsEntry("redirect_uri", r.redirectUri().toString());
                assertThat(as.registrations.getFirst().get("redirect_uris").get(0).asString())
                        .isEqualTo(r.redirectUri().toString());
            }
        }
    }
}
