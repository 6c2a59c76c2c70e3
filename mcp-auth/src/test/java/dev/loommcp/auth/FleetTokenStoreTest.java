package dev.loommcp.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The operations a fleet of replicas needs from a {@link TokenStore}: compare-and-set replacement, put-if-absent
 * registration, the refresh lease with its fence, and the per-principal view; run against both shipped stores and a
 * store that has only the interface's defaults ({@link MapStore}).
 */
class FleetTokenStoreTest {

    static final String RES = "https://mcp.example.com/mcp";
    static final String ISS = "https://as.example.com";

    @TempDir
    Path dir;

    private TokenStore store(String kind) {
        try {
            return switch (kind) {
                case "memory" -> new InMemoryTokenStore();
                case "file" -> FileTokenStore.open(dir.resolve("cache"));
                default -> new MapStore();
            };
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static TokenSet tokens(String access, String refresh) {
        return new TokenSet(ISS, access, "Bearer", refresh, Instant.parse("2026-12-01T07:00:00Z"), "mcp");
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "file", "defaults"})
    void replaceTokensComparesAndSets(String kind) {
        TokenStore s = store(kind);
        TokenSet old = tokens("at-1", "rt-1");
        TokenSet fresh = tokens("at-2", "rt-2");
        assertThat(s.replaceTokens(RES, old, fresh)).as("nothing stored").isFalse();
        assertThat(s.tokens(RES, ISS)).isEmpty();
        s.saveTokens(RES, old);
        assertThat(s.replaceTokens(RES, old, fresh)).isTrue();
        assertThat(s.tokens(RES, ISS)).contains(fresh);
        // a caller still holding the old set loses: the winner's tokens stay
        assertThat(s.replaceTokens(RES, old, tokens("at-3", "rt-3"))).isFalse();
        assertThat(s.tokens(RES, ISS)).contains(fresh);
        TokenSet other = new TokenSet("https://elsewhere.example.com", "at-x", "Bearer", null, null, null);
        assertThatThrownBy(() -> s.replaceTokens(RES, fresh, other)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("another issuer");
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "file"})
    void concurrentReplacementsOfOneSetHaveOneWinner(String kind) throws Exception {
        TokenStore s = store(kind);
        TokenSet old = tokens("at-0", "rt-0");
        s.saveTokens(RES, old);
        int n = 16;
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Boolean>> results = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < n; i++) {
                TokenSet mine = tokens("at-" + (i + 1), "rt-" + (i + 1));
                results.add(pool.submit(() -> {
                    start.await();
                    return s.replaceTokens(RES, old, mine);
                }));
            }
            start.countDown();
            int won = 0;
            for (Future<Boolean> f : results) {
                won += f.get() ? 1 : 0;
            }
            assertThat(won).isEqualTo(1);
        }
        assertThat(s.tokens(RES, ISS)).get().isNotEqualTo(old);
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "file", "defaults"})
    void registerIfAbsentKeepsTheFirstRegistration(String kind) {
        TokenStore s = store(kind);
        ClientRegistration first = new ClientRegistration(ISS, "client-1", null, "none", null);
        ClientRegistration second = new ClientRegistration(ISS, "client-2", "s3cret", "client_secret_basic", null);
        assertThat(s.registerIfAbsent(first)).isEqualTo(first);
        assertThat(s.registerIfAbsent(second)).isEqualTo(first);
        assertThat(s.registration(ISS)).contains(first);
        assertThat(s.removeRegistration(first)).isTrue();
        assertThat(s.registerIfAbsent(second)).isEqualTo(second);
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "file"})
    void theLeaseExcludesOtherHoldersAndFencesLateWrites(String kind) throws Exception {
        TokenStore s = store(kind);
        TokenSet old = tokens("at-1", "rt-1");
        s.saveTokens(RES, old);
        RefreshLease a = s.leaseRefresh(RES, ISS, "a", Duration.ofMinutes(1)).orElseThrow();
        assertThat(a.fence()).isEqualTo(1);
        assertThat(a.holder()).isEqualTo("a");
        assertThat(s.leaseRefresh(RES, ISS, "b", Duration.ofMinutes(1))).as("held by a").isEmpty();
        // other keys are independent
        assertThat(s.leaseRefresh(RES, "https://other.example.com", "b", Duration.ofMinutes(1))).isPresent();
        // a holder asking again extends its own lease with a new fence
        RefreshLease a2 = s.leaseRefresh(RES, ISS, "a", Duration.ofMinutes(1)).orElseThrow();
        assertThat(a2.fence()).isEqualTo(2);
        assertThat(s.replaceTokens(a, old, tokens("at-a", "rt-a"))).as("a's first grant is fenced off").isFalse();
        assertThat(s.releaseRefresh(a)).as("not the latest grant").isFalse();
        assertThat(s.releaseRefresh(a2)).isTrue();
        RefreshLease b = s.leaseRefresh(RES, ISS, "b", Duration.ofMinutes(1)).orElseThrow();
        assertThat(b.fence()).isEqualTo(3);
        // a paused past its lease and wakes up: its write fails, b's succeeds
        assertThat(s.replaceTokens(a2, old, tokens("at-a", "rt-a"))).isFalse();
        TokenSet fresh = tokens("at-b", "rt-b");
        assertThat(s.replaceTokens(b, old, fresh)).isTrue();
        assertThat(s.tokens(RES, ISS)).contains(fresh);
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "file"})
    void anExpiredLeaseIsTakenOverAndStillFencesWhileNobodyTookIt(String kind) throws Exception {
        TokenStore s = store(kind);
        TokenSet old = tokens("at-1", "rt-1");
        s.saveTokens(RES, old);
        RefreshLease a = s.leaseRefresh(RES, ISS, "a", Duration.ofMillis(1)).orElseThrow();
        Thread.sleep(5);
        // expired, but granted to no one since: a's tokens are not lost
        TokenSet fresh = tokens("at-a", "rt-a");
        assertThat(s.replaceTokens(a, old, fresh)).isTrue();
        Optional<RefreshLease> b = s.leaseRefresh(RES, ISS, "b", Duration.ofMinutes(1));
        assertThat(b).as("a's lease expired").isPresent();
        assertThat(b.get().fence()).isEqualTo(2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "file"})
    void aReleasedLeaseIsReleasedOnceAndNoLongerWritesAndABlankHolderIsRefused(String kind) {
        TokenStore s = store(kind);
        TokenSet old = tokens("at-1", "rt-1");
        s.saveTokens(RES, old);
        RefreshLease a = s.leaseRefresh(RES, ISS, "a", Duration.ofMinutes(1)).orElseThrow();
        assertThat(s.releaseRefresh(a)).isTrue();
        assertThat(s.releaseRefresh(a)).as("a second release").isFalse();
        assertThat(s.replaceTokens(a, old, tokens("at-a", "rt-a"))).as("released: no longer writes").isFalse();
        assertThat(s.tokens(RES, ISS)).contains(old);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.leaseRefresh(RES, ISS, " ", Duration.ofMinutes(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("holder must not be blank");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.leaseRefresh(RES, ISS, "a",
                Duration.ofSeconds(Long.MAX_VALUE))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most");
    }

    @Test
    void fileStoresOnOneDirectoryShareTheLeaseAndAnOlderFileWithoutLeasesStillReads() throws Exception {
        TokenStore a = store("file");
        TokenStore b = store("file"); // another process's view: every operation re-reads the file
        TokenSet old = tokens("at-1", "rt-1");
        a.saveTokens(RES, old);
        byte[] withoutLeases = java.nio.file.Files.readAllBytes(dir.resolve("cache").resolve("tokens.json"));
        assertThat(new String(withoutLeases, java.nio.charset.StandardCharsets.UTF_8)).doesNotContain("leases");
        RefreshLease la = a.leaseRefresh(RES, ISS, "process-a", Duration.ofMinutes(1)).orElseThrow();
        assertThat(b.leaseRefresh(RES, ISS, "process-b", Duration.ofMinutes(1))).isEmpty();
        String file = java.nio.file.Files.readString(dir.resolve("cache").resolve("tokens.json"));
        assertThat(file).contains("\"leases\"").contains("process-a");
        assertThat(b.releaseRefresh(la)).isTrue();
        RefreshLease lb = b.leaseRefresh(RES, ISS, "process-b", Duration.ofMinutes(1)).orElseThrow();
        assertThat(lb.fence()).isEqualTo(la.fence() + 1);
        assertThat(a.replaceTokens(la, old, tokens("at-a", "rt-a"))).isFalse();
        assertThat(b.replaceTokens(lb, old, tokens("at-b", "rt-b"))).isTrue();
        assertThat(a.tokens(RES, ISS)).contains(tokens("at-b", "rt-b"));
    }

    @Test
    void aStoreWithOnlyTheDefaultsGrantsEveryRequestWithFenceZero() {
        TokenStore s = store("defaults");
        TokenSet old = tokens("at-1", "rt-1");
        s.saveTokens(RES, old);
        RefreshLease a = s.leaseRefresh(RES, ISS, "a", Duration.ofSeconds(5)).orElseThrow();
        RefreshLease b = s.leaseRefresh(RES, ISS, "b", Duration.ofSeconds(5)).orElseThrow();
        assertThat(a.fence()).isZero();
        assertThat(b.fence()).isZero();
        assertThat(s.replaceTokens(a, old, tokens("at-2", "rt-2"))).isTrue();
        assertThat(s.releaseRefresh(a)).isTrue();
        assertThatThrownBy(() -> s.leaseRefresh(RES, ISS, "a", Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("positive");
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "file", "defaults"})
    void principalViewsKeepTokensApartAndShareRegistrations(String kind) {
        TokenStore s = store(kind);
        TokenStore alice = s.forPrincipal("alice");
        TokenStore bob = s.forPrincipal("bob");
        TokenSet ta = tokens("at-alice", "rt-alice");
        TokenSet tb = tokens("at-bob", "rt-bob");
        alice.saveTokens(RES, ta);
        bob.saveTokens(RES, tb);
        assertThat(alice.tokens(RES, ISS)).contains(ta);
        assertThat(bob.tokens(RES, ISS)).contains(tb);
        assertThat(s.tokens(RES, ISS)).as("the store's own (empty principal) view").isEmpty();
        assertThat(alice.issuers(RES)).containsExactly(ISS);
        assertThat(alice.removeTokens(RES, tb)).isFalse();
        assertThat(alice.replaceTokens(RES, ta, tokens("at-alice-2", "rt-alice-2"))).isTrue();
        assertThat(bob.tokens(RES, ISS)).contains(tb);
        // leases are per principal too, and come back with the view's resource
        RefreshLease la = alice.leaseRefresh(RES, ISS, "h", Duration.ofSeconds(5)).orElseThrow();
        assertThat(la.resource()).isEqualTo(RES);
        assertThat(bob.leaseRefresh(RES, ISS, "other", Duration.ofSeconds(5))).isPresent();
        assertThat(alice.releaseRefresh(la)).isTrue();
        // registrations identify the application: shared
        ClientRegistration r = new ClientRegistration(ISS, "client-1", null, "none", null);
        alice.saveRegistration(r);
        assertThat(bob.registration(ISS)).contains(r);
        assertThat(s.registration(ISS)).contains(r);
        assertThat(alice.removeAllTokens(RES)).isEqualTo(1);
        assertThat(bob.tokens(RES, ISS)).contains(tb);
        // a view of a view is the base store's view; the empty principal is the store itself
        assertThat(alice.forPrincipal("bob").tokens(RES, ISS)).contains(tb);
        assertThat(s.forPrincipal("")).isSameAs(s);
        assertThat(alice.toString()).contains("principal alice");
        for (String bad : new String[] {" ", "a b"}) {
            assertThatThrownBy(() -> s.forPrincipal(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("principal");
        }
    }
}
