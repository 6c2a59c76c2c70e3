package dev.loommcp.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.loommcp.McpClient;
import dev.loommcp.auth.AuthorizationCodeHandler;
import dev.loommcp.auth.LoopbackReceiver;
import dev.loommcp.auth.McpOAuth;
import dev.loommcp.auth.TokenSet;
import dev.loommcp.hosts.HttpServerConfig;
import dev.loommcp.hosts.McpServers;
import dev.loommcp.hosts.RestartPolicy;
import dev.loommcp.hosts.ServerState;
import dev.loommcp.hosts.ServerStatus;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.TextContent;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.it.servers.HttpOAuthFixture;
import dev.loommcp.transport.http.HttpTransport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link McpOAuth} against a real OAuth-protected MCP server: {@code test-servers/oauth-fixture.mjs}, the TS SDK
 * 1.32.2's authorization server router and bearer middleware ({@link HttpOAuthFixture}). The authorization code comes
 * through {@link AuthorizationCodeHandler#nonInteractive} (the fixture approves at once). Each test starts its own
 * fixture, so that its counters are its own.
 */
@ExtendWith(LeakCheck.class)
class OAuthFixtureTest {

    /** Nothing listens here: the non-interactive handler reads the redirect instead of following it. */
    static final URI REDIRECT = URI.create("http://127.0.0.1:1/callback");

    static McpOAuth oauth() {
        return McpOAuth.newBuilder().authorizationCode(AuthorizationCodeHandler.nonInteractive(REDIRECT)).build();
    }

    static McpClient connect(HttpOAuthFixture fixture, McpOAuth oauth) throws InterruptedException {
        McpClient client = McpClient.newBuilder(HttpTransport.newBuilder(fixture.endpoint()).authorization(oauth)
                .build()).requestTimeout(Duration.ofSeconds(30)).build();
        try {
            client.connect();
        } catch (RuntimeException | InterruptedException e) {
            client.close();
            throw e;
        }
        return client;
    }

    static String echo(McpClient client, String message) throws InterruptedException {
        CallToolResult r = client.callTool("echo", Map.of("message", message));
        assertThat(r.error()).isFalse();
        return ((TextContent) r.content().getFirst()).text();
    }

    static TokenSet stored(McpOAuth oauth, HttpOAuthFixture fixture) {
        String resource = fixture.endpoint().toString();
        List<String> issuers = oauth.tokenStore().issuers(resource);
        assertThat(issuers).as("issuers holding tokens for " + resource).isNotEmpty();
        return oauth.tokenStore().tokens(resource, issuers.getFirst()).orElseThrow();
    }

    @Test
    void theAuthorizationCodeGrantRegistersAuthorizesAndCalls() throws Exception {
        try (HttpOAuthFixture fixture = new HttpOAuthFixture(); McpOAuth oauth = oauth();
             McpClient client = connect(fixture, oauth)) {
            assertThat(client.listAllTools()).extracting(t -> t.name()).contains("echo", "whoami");
            assertThat(echo(client, "protected hello")).isEqualTo("protected hello");
            assertThat(fixture.stat("registrations")).isEqualTo(1);
            assertThat(fixture.stat("authorizations")).isEqualTo(1);
            assertThat(fixture.stat("codeExchanges")).isEqualTo(1);
            TokenSet tokens = stored(oauth, fixture);
            assertThat(tokens.issuer()).isEqualTo(fixture.issuer().toString());
            assertThat(tokens.refreshToken()).isNotNull();
            assertThat(tokens.toString()).doesNotContain(tokens.accessToken()).doesNotContain(tokens.refreshToken());
        }
    }

    @Test
    void anExpiredAccessTokenIsRefreshedWithoutAuthorizingAgain() throws Exception {
        try (HttpOAuthFixture fixture = new HttpOAuthFixture("--access-ttl", "2"); McpOAuth oauth = oauth();
             McpClient client = connect(fixture, oauth)) {
            assertThat(echo(client, "before")).isEqualTo("before");
            TokenSet first = stored(oauth, fixture);
            await().atMost(Duration.ofSeconds(20)).until(() -> Instant.now().isAfter(first.expiresAt()));
            assertThat(echo(client, "after")).isEqualTo("after");
            assertThat(fixture.stat("refreshes")).isEqualTo(1);
            assertThat(fixture.stat("authorizations")).isEqualTo(1);
            TokenSet second = stored(oauth, fixture);
            assertThat(second.accessToken()).isNotEqualTo(first.accessToken());
            assertThat(second.refreshToken()).as("rotated").isNotEqualTo(first.refreshToken());
        }
    }

    @Test
    void manyCallersFindingTheTokenExpiredCauseOneRefresh() throws Exception {
        int callers = 8;
        try (HttpOAuthFixture fixture = new HttpOAuthFixture("--access-ttl", "2"); McpOAuth oauth = oauth();
             McpClient client = connect(fixture, oauth)) {
            echo(client, "warm-up");
            TokenSet first = stored(oauth, fixture);
            await().atMost(Duration.ofSeconds(20)).until(() -> Instant.now().isAfter(first.expiresAt()));
            CountDownLatch start = new CountDownLatch(1);
            List<Future<String>> results = new ArrayList<>();
            try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < callers; i++) {
                    String message = "caller " + i;
                    results.add(pool.submit(() -> {
                        start.await();
                        return echo(client, message);
                    }));
                }
                start.countDown();
                for (int i = 0; i < callers; i++) {
                    assertThat(results.get(i).get()).isEqualTo("caller " + i);
                }
            }
            // refresh tokens rotate (one use): a second refresh with the old one would have failed
            assertThat(fixture.stat("refreshes")).isEqualTo(1);
            assertThat(fixture.stat("authorizations")).isEqualTo(1);
        }
    }

    @Test
    void withoutRefreshTokensAnExpiredTokenMeansAuthorizingAgain() throws Exception {
        try (HttpOAuthFixture fixture = new HttpOAuthFixture("--access-ttl", "2", "--no-refresh");
             McpOAuth oauth = oauth(); McpClient client = connect(fixture, oauth)) {
            echo(client, "first");
            TokenSet first = stored(oauth, fixture);
            assertThat(first.refreshToken()).isNull();
            await().atMost(Duration.ofSeconds(20)).until(() -> Instant.now().isAfter(first.expiresAt()));
            assertThat(echo(client, "second")).isEqualTo("second");
            assertThat(fixture.stat("authorizations")).isEqualTo(2);
            assertThat(fixture.stat("registrations")).as("the registration is reused").isEqualTo(1);
        }
    }

    @Test
    void logoutForgetsTheTokensSoTheNextCallAuthorizesAgain() throws Exception {
        try (HttpOAuthFixture fixture = new HttpOAuthFixture(); McpOAuth oauth = oauth();
             McpClient client = connect(fixture, oauth)) {
            echo(client, "one");
            assertThat(oauth.logout(fixture.endpoint())).isEqualTo(1);
            assertThat(oauth.tokenStore().issuers(fixture.endpoint().toString())).isEmpty();
            assertThat(echo(client, "two")).isEqualTo("two");
            assertThat(fixture.stat("authorizations")).isEqualTo(2);
            assertThat(fixture.stat("registrations")).isEqualTo(1);
        }
    }

    /**
     * Issue 26 (break test 3): an OAuth-protected server in the hosts registry, its transport given the provider by
     * {@code McpServers.Builder.httpCustomizer}; another HTTP server of the same registry is left as it is.
     */
    @Test
    void aHostedHttpServerIsAuthorizedThroughTheRegistrysHttpCustomizer() throws Exception {
        try (HttpOAuthFixture fixture = new HttpOAuthFixture(); McpOAuth oauth = oauth();
             McpServers servers = McpServers.newBuilder()
                     .add(HttpServerConfig.of("prot", fixture.endpoint()))
                     .add(HttpServerConfig.of("plain", fixture.endpoint()))
                     .httpCustomizer((config, b) -> {
                         if (config.name().equals("prot")) {
                             b.authorization(oauth);
                         }
                     })
                     .restartPolicy(RestartPolicy.NEVER)
                     .startupTimeout(Duration.ofSeconds(30))
                     .build()) {
            List<ServerStatus> started = servers.startAll();
            assertThat(started).filteredOn(st -> st.name().equals("prot")).extracting(ServerStatus::state)
                    .containsExactly(ServerState.READY);
            assertThat(started).filteredOn(st -> st.name().equals("plain")).extracting(ServerStatus::state)
                    .containsExactly(ServerState.FAILED); // no provider: the fixture's 401 stands
            CallToolResult r = servers.callTool("prot__echo", Map.of("message", "hosted hello"));
            assertThat(((TextContent) r.content().getFirst()).text()).isEqualTo("hosted hello");
            assertThat(fixture.stat("authorizations")).isEqualTo(1);
        }
    }

    /**
     * Issue 26 (break test 4): one provider with one loopback receiver authorizes two servers connecting at once
     * (the "browser" takes a second for each): both authorizations run on the receiver together, each completed by
     * its own redirect.
     */
    @Test
    void oneProviderWithOneLoopbackReceiverAuthorizesTwoServersAtOnce() throws Exception {
        try (HttpClient browser = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.ALWAYS).build();
             ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
             LoopbackReceiver receiver = LoopbackReceiver.open(url -> pool.submit(() -> {
                 Thread.sleep(1000); // the user reads the page and approves
                 return browser.send(HttpRequest.newBuilder(url).build(), HttpResponse.BodyHandlers.discarding())
                         .statusCode();
             }));
             McpOAuth oauth = McpOAuth.newBuilder().authorizationCode(receiver).build();
             HttpOAuthFixture a = new HttpOAuthFixture(); HttpOAuthFixture b = new HttpOAuthFixture()) {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<String>> results = new ArrayList<>();
            for (HttpOAuthFixture f : List.of(a, b)) {
                results.add(pool.submit(() -> {
                    start.await();
                    try (McpClient client = connect(f, oauth)) {
                        return echo(client, "to " + f.endpoint().getPort());
                    }
                }));
            }
            start.countDown();
            assertThat(results.get(0).get(60, TimeUnit.SECONDS)).isEqualTo("to " + a.endpoint().getPort());
            assertThat(results.get(1).get(60, TimeUnit.SECONDS)).isEqualTo("to " + b.endpoint().getPort());
            assertThat(a.stat("authorizations")).isEqualTo(1);
            assertThat(b.stat("authorizations")).isEqualTo(1);
        }
    }
}
