package dev.loommcp.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.loommcp.testing.LeakCheck;
import dev.loommcp.transport.http.AuthorizationProvider;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Single flight per resource: N callers that find the token expired, refused or missing while another caller
 * renews it wait for that renewal and use it; the in-test authorization server counts the token requests it gets.
 * The token endpoint holds its answer until every caller is inside the provider, so the callers really overlap.
 */
@ExtendWith(LeakCheck.class)
class SingleFlightTest {

    FakeOAuth as;
    Driver driver;
    MapStore store;
    McpOAuth oauth;
    final AtomicInteger inCredentials = new AtomicInteger();
    final AtomicInteger inChallenge = new AtomicInteger();

    @BeforeEach
    void setUp() throws Exception {
        as = new FakeOAuth();
        driver = new Driver();
        store = new MapStore();
        oauth = McpOAuth.newBuilder()
                .authorizationCode(AuthorizationCodeHandler.nonInteractive(URI.create("http://127.0.0.1:1/cb")))
                .tokenStore(store).build();
    }

    @AfterEach
    void tearDown() {
        oauth.close();
        driver.close();
        as.close();
    }

    /** Counts callers entering the provider. */
    AuthorizationProvider counted() {
        return Driver.counting(oauth, inCredentials, inChallenge);
    }

    List<Integer> run(int n, AtomicInteger entered, int expectedEntries, CountDownLatch gate) throws Exception {
        AuthorizationProvider p = counted();
        List<Future<Integer>> results = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < n; i++) {
                results.add(pool.submit(() -> driver.post(p, as.mcp())));
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> entered.get() >= expectedEntries);
            gate.countDown();
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> f : results) {
                statuses.add(f.get(120, TimeUnit.SECONDS));
            }
            return statuses;
        }
    }

    @ParameterizedTest(name = "{0} callers")
    @ValueSource(ints = {8, 500})
    void expiredTokenIsRefreshedOnce(int n) throws Exception {
        store.saveTokens(as.base + "/mcp", as.issue(null, Instant.now().minusSeconds(5)));
        CountDownLatch gate = new CountDownLatch(1);
        as.tokenGate = gate;
        List<Integer> statuses = run(n, inCredentials, n, gate);
        assertThat(statuses).hasSize(n).containsOnly(200);
        assertThat(as.tokenRequests.get()).isEqualTo(1);
        assertThat(as.refreshRequests.get()).isEqualTo(1);
        assertThat(as.mcpRequests.get()).isEqualTo(n);
    }

    @ParameterizedTest(name = "{0} callers")
    @ValueSource(ints = {8, 500})
    void refusedTokenIsRefreshedOnce(int n) throws Exception {
        TokenSet t = as.issue(null, Instant.now().plusSeconds(3600));
        as.access.remove(t.accessToken());
        store.saveTokens(as.base + "/mcp", t);
        CountDownLatch gate = new CountDownLatch(1);
        as.tokenGate = gate;
        List<Integer> statuses = run(n, inChallenge, n, gate);
        assertThat(statuses).hasSize(n).containsOnly(200);
        assertThat(as.tokenRequests.get()).isEqualTo(1);
        assertThat(as.refreshRequests.get()).isEqualTo(1);
        assertThat(as.authorizeRequests.get()).isZero();
    }

    @ParameterizedTest(name = "{0} callers")
    @ValueSource(ints = {8, 500})
    void missingTokenIsAuthorizedOnce(int n) throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        as.tokenGate = gate;
        List<Integer> statuses = run(n, inChallenge, n, gate);
        assertThat(statuses).hasSize(n).containsOnly(200);
        assertThat(as.authorizeRequests.get()).isEqualTo(1);
        assertThat(as.registerRequests.get()).isEqualTo(1);
        assertThat(as.tokenRequests.get()).isEqualTo(1);
    }
}
