package dev.loommcp.auth.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jwt.SignedJWT;
import dev.loommcp.auth.DpopKey;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.security.interfaces.ECPublicKey;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** DPoP proofs (RFC 9449 section 4.2) verified with Nimbus, and nonces per origin (section 8/9). */
class DpopProofsTest {

    static final DpopKey KEY = DpopKey.generate();

    /** Parses and verifies a proof made with {@link #KEY}; checks the header. */
    static SignedJWT verified(String proof, DpopKey key) throws Exception {
        SignedJWT jwt = SignedJWT.parse(proof);
        assertThat(jwt.getHeader().getAlgorithm()).isEqualTo(JWSAlgorithm.ES256);
        assertThat(jwt.getHeader().getType().getType()).isEqualTo("dpop+jwt");
        ECKey jwk = (ECKey) jwt.getHeader().getJWK();
        assertThat(jwk.isPrivate()).isFalse();
        assertThat(jwt.getHeader().toJSONObject().toString()).doesNotContain("\"d\"");
        assertThat(jwk.computeThumbprint().toString()).isEqualTo(key.thumbprint());
        assertThat(jwk.toECPublicKey()).isEqualTo(key.keyPair().getPublic());
        assertThat(jwt.verify(new ECDSAVerifier((ECPublicKey) key.keyPair().getPublic()))).isTrue();
        return jwt;
    }

    @Test
    void proofHasTheRfc9449ClaimsAndAFreshJtiEachTime() throws Exception {
        DpopProofs p = new DpopProofs(KEY);
        Set<String> jtis = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            long before = Instant.now().getEpochSecond();
            SignedJWT jwt = verified(p.proof("POST", URI.create("https://as.example/token"), null), KEY);
            long after = Instant.now().getEpochSecond();
            var c = jwt.getJWTClaimsSet();
            assertThat(c.getClaims().keySet()).containsExactlyInAnyOrder("jti", "htm", "htu", "iat");
            assertThat(c.getStringClaim("htm")).isEqualTo("POST");
            assertThat(c.getStringClaim("htu")).isEqualTo("https://as.example/token");
            assertThat(c.getIssueTime().toInstant().getEpochSecond()).isBetween(before, after);
            // iat is a number of seconds, as RFC 9449 needs
            assertThat(jwt.getPayload().toJSONObject().get("iat")).isInstanceOf(Number.class);
            assertThat(jtis.add(c.getJWTID())).isTrue();
            assertThat(c.getJWTID()).hasSizeGreaterThanOrEqualTo(22);
        }
    }

    static Stream<Arguments> htus() {
        return Stream.of(
                Arguments.of("https://rs.example/mcp?x=1#frag", "https://rs.example/mcp"),
                Arguments.of("HTTPS://RS.Example:443/MCP", "https://rs.example/MCP"),
                Arguments.of("http://rs.example:80/mcp", "http://rs.example/mcp"),
                Arguments.of("http://127.0.0.1:8080/mcp/", "http://127.0.0.1:8080/mcp/"),
                Arguments.of("https://user:pw@rs.example/a%20b", "https://rs.example/a%20b"),
                Arguments.of("https://rs.example", "https://rs.example/"),
                Arguments.of("https://rs.example?q", "https://rs.example/"),
                Arguments.of("http://[::1]:3000/mcp", "http://[::1]:3000/mcp"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("htus")
    void htuHasNoQueryFragmentOrUserInfo(String uri, String htu) throws Exception {
        SignedJWT jwt = verified(new DpopProofs(KEY).proof("GET", URI.create(uri), null), KEY);
        assertThat(jwt.getJWTClaimsSet().getStringClaim("htu")).isEqualTo(htu);
        assertThat(jwt.getJWTClaimsSet().getStringClaim("htm")).isEqualTo("GET");
    }

    static Stream<Arguments> aths() {
        return Stream.of(
                // RFC 9449 section 7.1's example
                Arguments.of("Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU",
                        "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo"),
                // SHA-256("abc") = ba7816bf..., base64url
                Arguments.of("abc", "ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("aths")
    void athIsTheBase64urlSha256OfTheAccessToken(String token, String ath) throws Exception {
        SignedJWT jwt = verified(new DpopProofs(KEY).proof("POST", URI.create("https://rs.example/mcp"), token), KEY);
        assertThat(jwt.getJWTClaimsSet().getStringClaim("ath")).isEqualTo(ath);
        assertThat(jwt.serialize()).doesNotContain(token);
    }

    @Test
    void noncesAreKeptPerOriginAndTheLatestWins() throws Exception {
        DpopProofs p = new DpopProofs(KEY);
        URI as = URI.create("https://as.example/token");
        p.nonce(as, "n1");
        Map<String, String> expected = Map.of(
                "https://as.example/other?x", "n1",
                "HTTPS://AS.EXAMPLE:443/token", "n1",
                "https://as.example:8443/token", "",
                "http://as.example/token", "",
                "https://rs.example/mcp", "");
        for (Map.Entry<String, String> e : expected.entrySet()) {
            Object n = verified(p.proof("POST", URI.create(e.getKey()), null), KEY).getJWTClaimsSet()
                    .getClaim("nonce");
            assertThat(n == null ? "" : n).as(e.getKey()).isEqualTo(e.getValue());
        }
        p.nonce(URI.create("https://rs.example/mcp"), "rs-1");
        p.nonce(as, "n2");
        assertThat(verified(p.proof("POST", as, null), KEY).getJWTClaimsSet().getStringClaim("nonce"))
                .isEqualTo("n2");
        assertThat(verified(p.proof("POST", URI.create("https://rs.example/x"), "t"), KEY).getJWTClaimsSet()
                .getStringClaim("nonce")).isEqualTo("rs-1");
        assertThat(p.nonce(URI.create("https://as.example"))).isEqualTo("n2");
        assertThat(p.nonce(URI.create("https://nowhere.example"))).isNull();
        // the thumbprint is random base64url and may itself hold "n2" (it once did): look for the nonces beside it
        assertThat(p.toString()).contains(KEY.thumbprint());
        assertThat(p.toString().replace(KEY.thumbprint(), "")).doesNotContain("n2").doesNotContain("rs-1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a b", "a\"b", "a\\b", "caf\u00e9", "a\nb", "tab\t"})
    void invalidNoncesAreIgnored(String bad) {
        DpopProofs p = new DpopProofs(KEY);
        URI as = URI.create("https://as.example/token");
        p.nonce(as, "good");
        p.nonce(as, bad);
        assertThat(p.nonce(as)).isEqualTo("good");
        p.nonce(as, null);
        assertThat(p.nonce(as)).isEqualTo("good");
        p.nonce(as, "x".repeat(DpopProofs.MAX_NONCE_LENGTH + 1));
        assertThat(p.nonce(as)).isEqualTo("good");
        p.nonce(as, "!#[]~" + "x".repeat(DpopProofs.MAX_NONCE_LENGTH - 5));
        assertThat(p.nonce(as)).startsWith("!#[]~");
    }

    @Test
    void noteNonceReadsTheDpopNonceHeader() {
        DpopProofs p = new DpopProofs(KEY);
        URI as = URI.create("https://as.example/token");
        assertThat(p.noteNonce(as, headers(Map.of("Content-Type", List.of("application/json"))))).isFalse();
        assertThat(p.nonce(as)).isNull();
        assertThat(p.noteNonce(as, headers(Map.of("dpop-nonce", List.of("abc"))))).isTrue();
        assertThat(p.nonce(as)).isEqualTo("abc");
        assertThat(p.noteNonce(as, headers(Map.of("DPoP-Nonce", List.of("bad nonce"))))).isFalse();
        assertThat(p.nonce(as)).isEqualTo("abc");
    }

    @Test
    void theNonceMemoryIsBounded() {
        DpopProofs p = new DpopProofs(KEY);
        for (int i = 0; i < DpopProofs.MAX_ORIGINS * 3; i++) {
            p.nonce(URI.create("https://h" + i + ".example/"), "n" + i);
        }
        int last = DpopProofs.MAX_ORIGINS * 3 - 1;
        assertThat(p.nonce(URI.create("https://h" + last + ".example/"))).isEqualTo("n" + last);
        assertThat(p.toString()).matches(".*origins with a nonce=(\\d+)]")
                .satisfies(s -> assertThat(Integer.parseInt(s.replaceAll(".*=(\\d+)]", "$1")))
                        .isLessThanOrEqualTo(DpopProofs.MAX_ORIGINS));
    }

    @Test
    void proofsFromManyThreadsAllVerifyWithDistinctJtis() throws Exception {
        DpopProofs p = new DpopProofs(KEY);
        Set<String> jtis = java.util.concurrent.ConcurrentHashMap.newKeySet();
        List<String> proofs = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(8)) {
            for (int t = 0; t < 8; t++) {
                int n = t;
                pool.submit(() -> {
                    for (int i = 0; i < 25; i++) {
                        p.nonce(URI.create("https://as.example/"), "n" + n);
                        proofs.add(p.proof("POST", URI.create("https://as.example/token"), "tok" + i));
                    }
                });
            }
        }
        assertThat(proofs).hasSize(200);
        for (String proof : proofs) {
            var c = verified(proof, KEY).getJWTClaimsSet();
            assertThat(jtis.add(c.getJWTID())).isTrue();
            assertThat(c.getStringClaim("nonce")).matches("n[0-7]");
        }
    }

    @Test
    void relativeUrisAreRefused() {
        DpopProofs p = new DpopProofs(KEY);
        assertThatThrownBy(() -> p.proof("POST", URI.create("/token"), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("absolute");
        assertThatThrownBy(() -> p.nonce(URI.create("token"), "n")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> p.proof(null, URI.create("https://a.example/"), null))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void anotherKeysProofsCarryThatKeysJwk() throws Exception {
        DpopKey other = DpopKey.generate();
        String proof = new DpopProofs(other).proof("POST", URI.create("https://as.example/token"), null);
        verified(proof, other);
        assertThat(SignedJWT.parse(proof).verify(new ECDSAVerifier((ECPublicKey) KEY.keyPair().getPublic())))
                .isFalse();
    }

    static HttpHeaders headers(Map<String, List<String>> m) {
        return HttpHeaders.of(m, (a, b) -> true);
    }
}
