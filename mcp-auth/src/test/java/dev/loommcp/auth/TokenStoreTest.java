package dev.loommcp.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@link TokenStore} contract, run against both shipped stores: keys, the order of {@link TokenStore#issuers},
 * compare-and-delete, registrations, thread safety and redacted {@code toString()}s.
 */
class TokenStoreTest {

    static final String RES_A = "https://mcp.example.com/mcp";
    static final String RES_B = "https://other.example.com/";
    static final String ISS_1 = "https://as1.example.com";
    static final String ISS_2 = "https://as2.example.com/tenant";

    @TempDir
    Path dir;

    private TokenStore store(String kind) {
        try {
            return kind.equals("memory") ? new InMemoryTokenStore() : FileTokenStore.open(dir.resolve("cache"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static TokenSet tokens(String issuer, String access, String refresh) {
        return new TokenSet(issuer, access, "Bearer", refresh, Instant.parse("2026-12-01T07:00:00.123456789Z"),
                "mcp:read mcp:write");
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "file"})
    void tokensAreKeyedByResourceAndIssuer(String kind) {
        TokenStore s = store(kind);
        TokenSet a1 = tokens(ISS_1, "at-a1", "rt-a1");
        TokenSet a2 = new TokenSet(ISS_2, "at-a2", "DPoP", null, null, null);
        TokenSet b1 = tokens(ISS_1, "at-b1", null);
        assertThat(s.tokens(RES_A, ISS_1)).isEmpty();
        assertThat(s.issuers(RES_A)).isEmpty();
        s.saveTokens(RES_A, a1);
        s.saveTokens(RES_A, a2);
        s.saveTokens(RES_B, b1);
        // table: (resource, issuer) -> expected
        Object[][] table = {
                {RES_A, ISS_1, a1},
                {RES_A, ISS_2, a2},
                {RES_B, ISS_1, b1},
                {RES_B, ISS_2, null},
                {"https://mcp.example.com/mcp/", ISS_1, null}, // resources compare exactly
                {RES_A, ISS_1 + "/", null},                     // and so do issuers
        };
        for (Object[] row : table) {
            assertThat(s.tokens((String) row[0], (String) row[1])).as("%s from %s", row[0], row[1])
                    .isEqualTo(java.util.Optional.ofNullable(row[2]));
        }
        // replacing keeps one set per issuer
        TokenSet a1b = tokens(ISS_1, "at-a1-new", "rt-a1-new");
        s.saveTokens(RES_A, a1b);
        assertThat(s.tokens(RES_A, ISS_1)).contains(a1b);
        assertThat(s.issuers(RES_A)).containsExactly(ISS_1, ISS_2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "file"})
    void issuersListTheMostRecentlySavedFirst(String kind) {
        TokenStore s = store(kind);
        String[][] steps = {
                // save from issuer -> expected issuers afterwards
                {"i1", "i1"},
                {"i2", "i2", "i1"},
                {"i3", "i3", "i2", "i1"},
                {"i1", "i1", "i3", "i2"},
                {"i2", "i2", "i1", "i3"},
                {"i2", "i2", "i1", "i3"},
        };
        int n = 0;
        for (String[] step : steps) {
            s.saveTokens(RES_A, tokens(step[0], "at-" + n++, null));
            assertThat(s.issuers(RES_A)).as("after saving from %s", step[0])
                    .containsExactly(java.util.Arrays.copyOfRange(step, 1, step.length));
        }
        assertThat(s.removeTokens(RES_A, s.tokens(RES_A, "i1").orElseThrow())).isTrue();
        assertThat(s.issuers(RES_A)).containsExactly("i2", "i3");
        assertThat(s.issuers(RES_B)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "file"})
    void removeTokensComparesAndDeletes(String kind) {
        TokenStore s = store(kind);
        TokenSet old = tokens(ISS_1, "at-old", "rt-old");
        TokenSet rotated = tokens(ISS_1, "at-new", "rt-new");
        s.saveTokens(RES_A, old);
        s.saveTokens(RES_A, rotated); // another caller refreshed meanwhile
        // a caller whose refresh token "rt-old" was refused removes what it saw: the good set stays
        assertThat(s.removeTokens(RES_A, old)).isFalse();
        assertThat(s.tokens(RES_A, ISS_1)).contains(rotated);
        // a set differing in any one component is not the stored one
        List<TokenSet> nearMisses = List.of(
                new TokenSet(ISS_1, "at-new", "DPoP", "rt-new", rotated.expiresAt(), rotated.scope()),
                new TokenSet(ISS_1, "at-new", "Bearer", null, rotated.expiresAt(), rotated.scope()),
                new TokenSet(ISS_1, "at-new", "Bearer", "rt-new", rotated.expiresAt().plusNanos(1), rotated.scope()),
                new TokenSet(ISS_1, "at-new", "Bearer", "rt-new", rotated.expiresAt(), "mcp:read"),
                new TokenSet(ISS_2, "at-new", "Bearer", "rt-new", rotated.expiresAt(), rotated.scope()));
        for (TokenSet miss : nearMisses) {
            assertThat(s.removeTokens(RES_A, miss)).as(miss.toString()).isFalse();
        }
        assertThat(s.removeTokens(RES_B, rotated)).isFalse();
        assertThat(s.tokens(RES_A, ISS_1)).contains(rotated);
        // an equal (not identical) set is removed, once
        TokenSet copy = tokens(ISS_1, "at-new", "rt-new");
        assertThat(s.removeTokens(RES_A, copy)).isTrue();
        assertThat(s.removeTokens(RES_A, copy)).isFalse();
        assertThat(s.tokens(RES_A, ISS_1)).isEmpty();
        assertThat(s.issuers(RES_A)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "file"})
    void removeAllTokensForgetsOneResourceOnly(String kind) {
        TokenStore s = store(kind);
        s.saveTokens(RES_A, tokens(ISS_1, "a1", null));
        s.saveTokens(RES_A, tokens(ISS_2, "a2", null));
        s.saveTokens(RES_B, tokens(ISS_1, "b1", null));
        ClientRegistration reg = new ClientRegistration(ISS_1, "client-1", "secret-1", "client_secret_basic", null);
        s.saveRegistration(reg);
        assertThat(s.removeAllTokens(RES_A)).isEqualTo(2);
        assertThat(s.removeAllTokens(RES_A)).isZero();
        assertThat(s.issuers(RES_A)).isEmpty();
        assertThat(s.tokens(RES_B, ISS_1)).isPresent();
        assertThat(s.registration(ISS_1)).contains(reg); // logout keeps the client's registration
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "file"})
    void registrationsAreKeyedByIssuerAndRemovedOnlyWhenUnchanged(String kind) {
        TokenStore s = store(kind);
        ClientRegistration r1 = new ClientRegistration(ISS_1, "client-1", "secret-1", "client_secret_post",
                Instant.parse("2027-01-01T00:00:00Z"));
        ClientRegistration r2 = new ClientRegistration(ISS_2, "https://app.example/cimd.json", null, "none", null);
        assertThat(s.registration(ISS_1)).isEmpty();
        s.saveRegistration(r1);
        s.saveRegistration(r2);
        assertThat(s.registration(ISS_1)).contains(r1);
        assertThat(s.registration(ISS_2)).contains(r2);
        assertThat(s.registration(ISS_1 + "/")).isEmpty();
        ClientRegistration again = new ClientRegistration(ISS_1, "client-1b", "secret-1b", "client_secret_basic",
                null);
        s.saveRegistration(again); // registered afresh meanwhile
        assertThat(s.removeRegistration(r1)).isFalse();
        assertThat(s.registration(ISS_1)).contains(again);
        assertThat(s.removeRegistration(new ClientRegistration(ISS_1, "client-1b", "secret-1b",
                "client_secret_basic", null))).isTrue();
        assertThat(s.registration(ISS_1)).isEmpty();
        assertThat(s.registration(ISS_2)).contains(r2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "file"})
    void nullArgumentsAreRefused(String kind) {
        TokenStore s = store(kind);
        TokenSet t = tokens(ISS_1, "a", null);
        List<Runnable> calls = List.of(() -> s.tokens(null, ISS_1), () -> s.tokens(RES_A, null),
                () -> s.issuers(null), () -> s.saveTokens(null, t), () -> s.saveTokens(RES_A, null),
                () -> s.removeTokens(null, t), () -> s.removeTokens(RES_A, null), () -> s.removeAllTokens(null),
                () -> s.registration(null), () -> s.saveRegistration(null), () -> s.removeRegistration(null));
        for (Runnable call : calls) {
            assertThatThrownBy(call::run).isInstanceOf(NullPointerException.class);
        }
        assertThat(s.issuers(RES_A)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "file"})
    void concurrentSavesAndCompareAndDeletesLoseNothing(String kind) throws Exception {
        TokenStore first = store(kind);
        // the file store: half the threads use a second instance, opened through a symbolic link to the directory
        // (one file, two spellings: the in-JVM lock must still be one, or FileChannel.lock would overlap)
        TokenStore other = first;
        if (kind.equals("file")) {
            Path alias = dir.resolve("alias");
            try {
                Files.createSymbolicLink(alias, dir.resolve("cache"));
            } catch (UnsupportedOperationException | IOException e) {
                alias = dir.resolve("cache/../cache");
            }
            other = FileTokenStore.open(alias);
        }
        TokenStore second = other;
        int threads = kind.equals("memory") ? 500 : 64;
        int rounds = kind.equals("memory") ? 20 : 3;
        ConcurrentHashMap<String, Boolean> removed = new ConcurrentHashMap<>();
        AtomicInteger doubleRemovals = new AtomicInteger();
        List<Future<?>> futures = new ArrayList<>();
        try (ExecutorService exec = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int t = 0; t < threads; t++) {
                int id = t;
                TokenStore mine = id % 2 == 0 ? first : second;
                futures.add(exec.submit(() -> {
                    for (int i = 0; i < rounds; i++) {
                        // a key of its own: must survive every other thread's writes
                        mine.saveTokens("https://r/" + id + "/" + i, tokens(ISS_1, "own-" + id + "-" + i, null));
                        // a key everyone rotates: each value can be removed once at most
                        mine.tokens(RES_A, ISS_1).ifPresent(seen -> {
                            if (mine.removeTokens(RES_A, seen) && removed.put(seen.accessToken(), true) != null) {
                                doubleRemovals.incrementAndGet();
                            }
                        });
                        mine.saveTokens(RES_A, tokens(ISS_1, "shared-" + id + "-" + i, "rt-" + id + "-" + i));
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(120, java.util.concurrent.TimeUnit.SECONDS);
            }
        }
        for (int t = 0; t < threads; t++) {
            for (int i = 0; i < rounds; i++) {
                assertThat(first.tokens("https://r/" + t + "/" + i, ISS_1)).as("thread %d round %d", t, i)
                        .contains(tokens(ISS_1, "own-" + t + "-" + i, null));
            }
        }
        assertThat(doubleRemovals).hasValue(0);
        TokenSet last = first.tokens(RES_A, ISS_1).orElseThrow();
        assertThat(removed).doesNotContainKey(last.accessToken());
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "file"})
    void toStringsNeverShowSecrets(String kind) {
        TokenStore s = store(kind);
        TokenSet t = new TokenSet(ISS_1, "AT-SECRET-1", "DPoP", "RT-SECRET-2", null, "s");
        ClientRegistration r = new ClientRegistration(ISS_1, "client", "CS-SECRET-3", "client_secret_post", null);
        s.saveTokens(RES_A, t);
        s.saveRegistration(r);
        for (String text : List.of(s.toString(), t.toString(), r.toString(),
                s.tokens(RES_A, ISS_1).orElseThrow().toString(), s.registration(ISS_1).orElseThrow().toString())) {
            assertThat(text).doesNotContain("SECRET");
        }
        assertThat(t.toString()).contains(ISS_1, "DPoP", "<redacted>");
        if (s instanceof FileTokenStore) {
            assertThat(s.toString()).contains(dir.resolve("cache").toString());
        }
    }
}
