package dev.loommcp.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.loommcp.Deadline;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Several {@link McpOAuth} instances sharing one store stand for the replicas of a backend: the store's refresh lease
 * lets exactly one of them present the refresh token, the others wait (within their call's deadline) and use the
 * winner's tokens. The authorization server rotates refresh tokens and revokes the whole family when one is presented
 * twice, as servers with reuse detection do.
 */
@ExtendWith(LeakCheck.class)
class FleetRefreshTest {

    static final int REPLICAS = 3;

    FakeOAuth as;
    Driver driver;
    InMemoryTokenStore store;
    final List<McpOAuth> replicas = new ArrayList<>();
    final AtomicInteger inCredentials = new AtomicInteger();

    @BeforeEach
    void setUp() throws Exception {
        as = new FakeOAuth();
        as.revokeFamilyOnReuse = true;
        driver = new Driver();
        store = new InMemoryTokenStore();
        for (int i = 0; i < REPLICAS; i++) {
            replicas.add(McpOAuth.newBuilder()
                    .authorizationCode(AuthorizationCodeHandler.nonInteractive(URI.create("http://127.0.0.1:1/cb")))
                    .tokenStore(store).build());
        }
    }

    @AfterEach
    void tearDown() {
        replicas.forEach(McpOAuth::close);
        driver.close();
        as.close();
    }

    AuthorizationProvider counted(McpOAuth oauth) {
        return Driver.counting(oauth, inCredentials, new AtomicInteger());
    }

    @Test
    void replicasSharingAStoreRefreshAnExpiredTokenOnceAndNoFamilyIsRevoked() throws Exception {
        store.saveTokens(as.base + "/mcp", as.issue(null, Instant.now().minusSeconds(5)));
        CountDownLatch gate = new CountDownLatch(1);
        as.tokenGate = gate;
        int perReplica = 40;
        List<Future<Integer>> results = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (McpOAuth r : replicas) {
                AuthorizationProvider p = counted(r);
                for (int i = 0; i < perReplica; i++) {
                    results.add(pool.submit(() -> driver.post(p, as.mcp())));
                }
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> inCredentials.get() >= REPLICAS * perReplica);
            gate.countDown();
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> f : results) {
                statuses.add(f.get(120, TimeUnit.SECONDS));
            }
            assertThat(statuses).hasSize(REPLICAS * perReplica).containsOnly(200);
        }
        assertThat(as.revocations.get()).isZero();
        assertThat(as.refreshRequests.get()).isEqualTo(1);
        assertThat(as.authorizeRequests.get()).isZero();
    }

    /**
     * Tokens another holder stored have no known start here: their lifetime counts from when they were taken, so a
     * replica does not refresh a short-lived token another replica has just renewed (it used a 30 s margin then,
     * which is the whole life of a token shorter than 30 s: every request of every replica refreshed).
     */
    @Test
    void replicasUsingAnotherHoldersFreshShortLivedTokensDoNotRefreshThem() throws Exception {
        as.expiresIn = 10;
        store.saveTokens(as.base + "/mcp", as.issue(null, Instant.now().plusSeconds(10)));
        for (McpOAuth r : replicas) {
            for (int i = 0; i < 3; i++) {
                assertThat(driver.post(r, as.mcp())).isEqualTo(200);
            }
        }
        assertThat(as.refreshRequests.get()).as("a token with 10 s left is refreshed 2 s before its end").isZero();
        assertThat(as.revocations.get()).isZero();
    }

    @Test
    void aCallerWaitsForAnotherHoldersRefreshOnlyUntilItsDeadline() throws Exception {
        String resource = as.base + "/mcp";
        TokenSet t = as.issue(null, Instant.now().minusSeconds(5));
        as.access.remove(t.accessToken()); // expired at the server too
        store.saveTokens(resource, t);
        // another replica holds the lease (and is slow)
        RefreshLease held = store.leaseRefresh(resource, as.issuer(), "other-replica", Duration.ofMinutes(1))
                .orElseThrow();
        Instant start = Instant.now();
        assertThatThrownBy(() -> driver.post(replicas.getFirst(), as.mcp(), Deadline.after(Duration.ofMillis(400))))
                .isInstanceOf(McpAuthorizationException.class)
                .hasMessageContaining("deadline passed while another holder");
        assertThat(Duration.between(start, Instant.now())).isLessThan(Duration.ofSeconds(30));
        assertThat(as.refreshRequests.get()).isZero();
        // the holder stores its tokens: a waiter takes them without refreshing
        TokenSet winners = as.issue(null, Instant.now().plusSeconds(3600));
        Future<Integer> waiter;
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            waiter = pool.submit(() -> driver.post(replicas.get(1), as.mcp()));
            Thread.sleep(50);
            assertThat(store.replaceTokens(held, t, winners)).isTrue();
            store.releaseRefresh(held);
            assertThat(waiter.get(60, TimeUnit.SECONDS)).isEqualTo(200);
        }
        assertThat(as.refreshRequests.get()).isZero();
        assertThat(as.revocations.get()).isZero();
        assertThat(store.tokens(resource, as.issuer())).contains(winners);
    }

    @Test
    void aHolderThatDiedStopsBlockingWhenItsLeaseExpires() throws Exception {
        String resource = as.base + "/mcp";
        store.saveTokens(resource, as.issue(null, Instant.now().minusSeconds(5)));
        store.leaseRefresh(resource, as.issuer(), "dead-replica", Duration.ofMillis(300)).orElseThrow();
        assertThat(driver.post(replicas.getFirst(), as.mcp())).isEqualTo(200);
        assertThat(as.refreshRequests.get()).isEqualTo(1);
        assertThat(as.revocations.get()).isZero();
    }
}
