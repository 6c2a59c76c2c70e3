package dev.loommcp.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.auth.ClientRegistration;
import dev.loommcp.auth.RefreshLease;
import dev.loommcp.auth.TokenSet;
import dev.loommcp.auth.TokenStore;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * {@link JdbcTokenStore} on the run's private PostgreSQL; several store instances over one database stand for the
 * replicas of a fleet.
 */
class JdbcTokenStoreTest extends PgTest {

    static final String RES = "https://mcp.example.com/mcp";
    static final String ISS = "https://as.example.com";
    static final byte[] KEY = HexFormat.of().parseHex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");

    static JdbcTokenStore replica() {
        return JdbcTokenStore.newBuilder(db.dataSource).encryptionKey("k1", new SecretKeySpec(KEY, "AES")).build();
    }

    static TokenSet tokens(String access, String refresh) {
        return new TokenSet(ISS, access, "Bearer", refresh, Instant.parse("2026-12-01T07:00:00.123456789Z"), "mcp");
    }

    static String resource(String name) {
        return "https://" + name + ".example.com/mcp";
    }

    @Test
    void tokensAreKeptComparedAndRemovedLikeTheOtherStores() {
        TokenStore s = replica();
        String res = resource("basic");
        TokenSet a = tokens("at-1", "rt-1");
        TokenSet other = new TokenSet("https://as2.example.com", "at-x", "DPoP", null, null, null);
        assertThat(s.tokens(res, ISS)).isEmpty();
        s.saveTokens(res, a);
        s.saveTokens(res, other);
        assertThat(replica().tokens(res, ISS)).contains(a);
        assertThat(s.tokens(res, other.issuer())).contains(other);
        assertThat(s.issuers(res)).containsExactly(other.issuer(), ISS);
        assertThat(s.removeTokens(res, tokens("at-1", "rt-other"))).isFalse();
        TokenSet b = tokens("at-2", "rt-2");
        assertThat(s.replaceTokens(res, a, b)).isTrue();
        assertThat(s.replaceTokens(res, a, tokens("at-3", "rt-3"))).isFalse();
        assertThat(s.tokens(res, ISS)).contains(b);
        assertThat(s.removeTokens(res, b)).isTrue();
        assertThat(s.removeAllTokens(res)).isEqualTo(1);
        assertThat(s.issuers(res)).isEmpty();
    }

    @Test
    void concurrentReplicasReplacingOneSetHaveExactlyOneWinner() throws Exception {
        String res = resource("cas");
        TokenSet old = tokens("at-0", "rt-0");
        replica().saveTokens(res, old);
        int n = 24;
        List<JdbcTokenStore> replicas = List.of(replica(), replica(), replica());
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Boolean>> won = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < n; i++) {
                TokenStore s = replicas.get(i % replicas.size());
                TokenSet mine = tokens("at-" + (i + 1), "rt-" + (i + 1));
                won.add(pool.submit(() -> {
                    start.await();
                    return s.replaceTokens(res, old, mine);
                }));
            }
            start.countDown();
            int wins = 0;
            for (Future<Boolean> f : won) {
                wins += f.get() ? 1 : 0;
            }
            assertThat(wins).isEqualTo(1);
        }
    }

    @Test
    void replicasStartingTogetherKeepOneRegistration() throws Exception {
        String issuer = "https://dcr.example.com";
        int n = 12;
        CountDownLatch start = new CountDownLatch(1);
        List<Future<ClientRegistration>> kept = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < n; i++) {
                ClientRegistration mine = new ClientRegistration(issuer, "client-" + i, "secret-" + i,
                        "client_secret_basic", null);
                kept.add(pool.submit(() -> {
                    start.await();
                    return replica().registerIfAbsent(mine);
                }));
            }
            start.countDown();
            List<ClientRegistration> all = new ArrayList<>();
            for (Future<ClientRegistration> f : kept) {
                all.add(f.get());
            }
            assertThat(all).hasSize(n).containsOnly(all.getFirst());
            assertThat(replica().registration(issuer)).contains(all.getFirst());
        }
        ClientRegistration held = replica().registration(issuer).orElseThrow();
        assertThat(replica().removeRegistration(new ClientRegistration(issuer, "other", null, "none", null)))
                .isFalse();
        assertThat(replica().removeRegistration(held)).isTrue();
        replica().saveRegistration(held);
        assertThat(replica().registration(issuer)).contains(held);
    }

    @Test
    void theRefreshLeaseExcludesOtherReplicasExpiresAndFencesLateWrites() throws Exception {
        String res = resource("lease");
        JdbcTokenStore a = replica();
        JdbcTokenStore b = replica();
        TokenSet old = tokens("at-1", "rt-1");
        a.saveTokens(res, old);
        RefreshLease la = a.leaseRefresh(res, ISS, "replica-a", Duration.ofMillis(300)).orElseThrow();
        assertThat(la.fence()).isEqualTo(1);
        assertThat(b.leaseRefresh(res, ISS, "replica-b", Duration.ofSeconds(30))).as("a holds it").isEmpty();
        // a pauses past its lease; b takes it over once it expired (bounded wait on the database's clock)
        Optional<RefreshLease> lb = Optional.empty();
        for (int i = 0; i < 100 && lb.isEmpty(); i++) {
            Thread.sleep(20);
            lb = b.leaseRefresh(res, ISS, "replica-b", Duration.ofSeconds(30));
        }
        assertThat(lb).isPresent();
        assertThat(lb.get().fence()).isEqualTo(2);
        assertThat(a.replaceTokens(la, old, tokens("at-a", "rt-a"))).as("a's late write is fenced off").isFalse();
        assertThat(a.releaseRefresh(la)).isFalse();
        TokenSet fresh = tokens("at-b", "rt-b");
        assertThat(b.replaceTokens(lb.get(), old, fresh)).isTrue();
        assertThat(b.releaseRefresh(lb.get())).isTrue();
        assertThat(a.tokens(res, ISS)).contains(fresh);
        assertThat(a.leaseRefresh(res, ISS, "replica-a", Duration.ofSeconds(1))).as("released").isPresent();
        assertThatThrownBy(() -> a.leaseRefresh(res, ISS, "x", Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void ofManyConcurrentRequestsForOneLeaseExactlyOneIsGranted() throws Exception {
        String res = resource("race");
        List<JdbcTokenStore> replicas = List.of(replica(), replica(), replica(), replica());
        int n = 32;
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Optional<RefreshLease>>> got = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < n; i++) {
                JdbcTokenStore s = replicas.get(i % replicas.size());
                String holder = "holder-" + i;
                got.add(pool.submit(() -> {
                    start.await();
                    return s.leaseRefresh(res, ISS, holder, Duration.ofMinutes(1));
                }));
            }
            start.countDown();
            int granted = 0;
            for (Future<Optional<RefreshLease>> f : got) {
                granted += f.get().isPresent() ? 1 : 0;
            }
            assertThat(granted).isEqualTo(1);
        }
    }

    @Test
    void secretsAreSealedAtRestAndARowUnderAnotherKeyIsAbsentWithAWarningNamingTheKeys() throws Exception {
        String res = resource("sealed");
        TokenSet t = new TokenSet(ISS, "at-SECRET-access", "Bearer", "rt-SECRET-refresh", null, null);
        replica().saveTokens(res, t);
        replica().saveRegistration(new ClientRegistration("https://sealed.example.com", "cid", "cs-SECRET-client",
                "client_secret_post", null));
        try (Connection c = db.connect(); Statement st = c.createStatement()) {
            for (String table : new String[] {"mcp_oauth_tokens", "mcp_oauth_registrations"}) {
                try (ResultSet rs = st.executeQuery("select sealed, key_id from " + table)) {
                    while (rs.next()) {
                        assertThat(new String(rs.getBytes(1), StandardCharsets.ISO_8859_1)).doesNotContain("SECRET");
                        assertThat(rs.getString(2)).isEqualTo("k1");
                    }
                }
            }
        }
        byte[] otherKey = KEY.clone();
        otherKey[0] ^= 1;
        JdbcTokenStore wrongId = JdbcTokenStore.newBuilder(db.dataSource)
                .encryptionKey("k2", new SecretKeySpec(otherKey, "AES")).build();
        JdbcTokenStore wrongKey = JdbcTokenStore.newBuilder(db.dataSource)
                .encryptionKey("k1", new SecretKeySpec(otherKey, "AES")).build();
        try (StoreLog log = new StoreLog()) {
            assertThat(wrongId.tokens(res, ISS)).as("sealed under an unknown key id: absent").isEmpty();
            assertThat(log.all()).contains("WARNING").contains("\"k1\"").contains("\"k2\"")
                    .contains(res).doesNotContain("SECRET");
            assertThat(wrongKey.tokens(res, ISS)).isEmpty();
            assertThat(log.all()).contains("does not open");
            assertThat(wrongKey.registration("https://sealed.example.com")).isEmpty();
            assertThat(log.all()).contains("client registration at \"https://sealed.example.com\"")
                    .doesNotContain("SECRET");
        }
        // a sealed set moved to another row does not open (the row key is the associated data)
        try (Connection c = db.connect(); PreparedStatement ps = c.prepareStatement(
                "insert into mcp_oauth_tokens (principal, resource, issuer, key_id, sealed)"
                        + " select principal, ?, issuer, key_id, sealed from mcp_oauth_tokens where resource = ?")) {
            ps.setString(1, resource("moved"));
            ps.setString(2, res);
            ps.executeUpdate();
        }
        assertThat(replica().tokens(resource("moved"), ISS)).as("a moved row does not open: absent").isEmpty();
        assertThat(replica().toString()).doesNotContain("SECRET").contains("k1");
        assertThatThrownBy(() -> JdbcTokenStore.newBuilder(db.dataSource).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("encryption key");
        assertThatThrownBy(() -> JdbcTokenStore.newBuilder(db.dataSource)
                .encryptionKey("k", new SecretKeySpec(new byte[7], "AES")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("AES key");
    }

    @Test
    void principalsHaveTheirOwnTokensAndLeasesAndShareRegistrations() {
        String res = resource("principals");
        TokenStore alice = replica().forPrincipal("alice");
        TokenStore bob = replica().forPrincipal("bob");
        alice.saveTokens(res, tokens("at-alice", "rt-alice"));
        bob.saveTokens(res, tokens("at-bob", "rt-bob"));
        assertThat(replica().forPrincipal("alice").tokens(res, ISS)).contains(tokens("at-alice", "rt-alice"));
        assertThat(bob.tokens(res, ISS)).contains(tokens("at-bob", "rt-bob"));
        assertThat(replica().tokens(res, ISS)).isEmpty();
        assertThat(alice.leaseRefresh(res, ISS, "h1", Duration.ofMinutes(1))).isPresent();
        assertThat(bob.leaseRefresh(res, ISS, "h2", Duration.ofMinutes(1))).as("another principal's key").isPresent();
        assertThat(alice.removeAllTokens(res)).isEqualTo(1);
        assertThat(bob.tokens(res, ISS)).isPresent();
        ClientRegistration r = new ClientRegistration("https://shared.example.com", "c", null, "none", null);
        alice.saveRegistration(r);
        assertThat(bob.registration(r.issuer())).contains(r);
        assertThat(alice.toString()).contains("principal \"alice\"");
    }

    @Test
    void aLockHeldPastTheStatementTimeoutFailsCleanlyNamingTheSqlState() throws Exception {
        String res = resource("timeout");
        TokenSet t = tokens("at-LOCKED", "rt-LOCKED");
        replica().saveTokens(res, t);
        JdbcTokenStore impatient = JdbcTokenStore.newBuilder(db.dataSource)
                .encryptionKey("k1", new SecretKeySpec(KEY, "AES")).statementTimeout(Duration.ofMillis(200)).build();
        try (Connection holder = db.connect()) {
            holder.setAutoCommit(false);
            try (PreparedStatement ps = holder.prepareStatement(
                    "select 1 from mcp_oauth_tokens where resource = ? for update")) {
                ps.setString(1, res);
                ps.executeQuery().close();
            }
            assertThatThrownBy(() -> impatient.removeTokens(res, t)).isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("could not remove the tokens")
                    .hasMessageMatching(".*(a lock was not granted in time \\(SQLState 55P03\\)"
                            + "|the statement timed out \\(SQLState 57014\\)).*")
                    .hasMessageNotContaining("LOCKED");
            holder.rollback();
        }
        assertThat(impatient.removeTokens(res, t)).as("usable again").isTrue();
    }

    @Test
    void aDatabaseWithoutTheSchemaIsNamed() throws Exception {
        PgDatabase.UrlDataSource empty = new PgDatabase.UrlDataSource(db.url + (db.url.contains("?") ? "&" : "?")
                + "currentSchema=no_such_schema");
        JdbcTokenStore s = JdbcTokenStore.newBuilder(empty).encryptionKey("k1", new SecretKeySpec(KEY, "AES")).build();
        assertThatThrownBy(() -> s.tokens(RES, ISS)).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("JdbcSchema.migrate").hasMessageContaining("42P01");
    }

    @Test
    void aRetiredKeyStillReadsItsRowsAndEveryWriteSealsUnderTheCurrentKey() throws Exception {
        String res = resource("rotation");
        byte[] newKey = KEY.clone();
        newKey[5] ^= 7;
        TokenSet t = tokens("at-ROTATE", "rt-ROTATE");
        ClientRegistration reg = new ClientRegistration("https://rotation.example.com", "cid", "cs", "none", null);
        replica().saveTokens(res, t); // k1
        replica().saveRegistration(reg);
        JdbcTokenStore rotated = JdbcTokenStore.newBuilder(db.dataSource).encryptionKey("k2",
                new SecretKeySpec(newKey, "AES")).retiredKey("k1", new SecretKeySpec(KEY, "AES")).build();
        assertThat(rotated.tokens(res, ISS)).contains(t);
        assertThat(rotated.registration(reg.issuer())).contains(reg);
        TokenSet fresh = tokens("at-ROTATED", "rt-ROTATED");
        assertThat(rotated.replaceTokens(res, t, fresh)).isTrue();
        assertThat(keyIdOf("mcp_oauth_tokens", "resource", res)).isEqualTo("k2");
        // a replica not yet rotated, given the new key as a retired one, reads what the rotated replica wrote
        JdbcTokenStore before = JdbcTokenStore.newBuilder(db.dataSource).encryptionKey("k1",
                new SecretKeySpec(KEY, "AES")).retiredKey("k2", new SecretKeySpec(newKey, "AES")).build();
        assertThat(before.tokens(res, ISS)).contains(fresh);
        assertThatThrownBy(() -> JdbcTokenStore.newBuilder(db.dataSource).encryptionKey("k1",
                new SecretKeySpec(KEY, "AES")).retiredKey("k1", new SecretKeySpec(newKey, "AES")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("current key's id");
        assertThatThrownBy(() -> JdbcTokenStore.newBuilder(db.dataSource).retiredKey(" ",
                new SecretKeySpec(newKey, "AES"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aFleetWhoseRowsAReplicaWithAnotherKeyWroteRecoversThroughTheApi() throws Exception {
        String res = resource("lockout");
        byte[] strayKey = KEY.clone();
        strayKey[9] ^= 3;
        JdbcTokenStore stray = JdbcTokenStore.newBuilder(db.dataSource).encryptionKey("k-stray",
                new SecretKeySpec(strayKey, "AES")).build();
        ClientRegistration strayReg = new ClientRegistration("https://lockout.example.com", "stray", "cs-STRAY",
                "client_secret_post", null);
        stray.saveTokens(res, tokens("at-STRAY", "rt-STRAY"));
        assertThat(stray.registerIfAbsent(strayReg)).isEqualTo(strayReg);
        JdbcTokenStore fleet = replica();
        try (StoreLog log = new StoreLog()) {
            assertThat(fleet.tokens(res, ISS)).isEmpty();
            assertThat(fleet.registration(strayReg.issuer())).isEmpty();
            ClientRegistration ours = new ClientRegistration(strayReg.issuer(), "ours", null, "none", null);
            assertThat(fleet.registerIfAbsent(ours)).as("the unreadable registration is replaced").isEqualTo(ours);
            assertThat(fleet.registration(ours.issuer())).contains(ours);
            fleet.saveTokens(res, tokens("at-FLEET", "rt-FLEET"));
            assertThat(fleet.tokens(res, ISS)).contains(tokens("at-FLEET", "rt-FLEET"));
            assertThat(log.all()).contains("\"k-stray\"").contains("\"k1\"").doesNotContain("STRAY")
                    .doesNotContain("at-").doesNotContain("cs-");
        }
        assertThat(keyIdOf("mcp_oauth_registrations", "issuer", strayReg.issuer())).isEqualTo("k1");
    }

    private static String keyIdOf(String table, String column, String value) throws Exception {
        try (Connection c = db.connect(); PreparedStatement ps = c.prepareStatement("select key_id from " + table
                + " where " + column + " = ?")) {
            ps.setString(1, value);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return rs.getString(1);
            }
        }
    }
}
