package dev.loommcp.auth.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.auth.ClientAuthentication;
import dev.loommcp.auth.DpopKey;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** PEM reading, algorithm/key fit, P-256 generation and checks, RFC 7638 thumbprints. */
class KeysTest {

    static final KeyPair P256 = ec("secp256r1");
    static final KeyPair P256_OTHER = ec("secp256r1");
    static final KeyPair P384 = ec("secp384r1");
    static final KeyPair P521 = ec("secp521r1");
    static final KeyPair RSA2048 = rsa(2048);
    static final KeyPair RSA1024 = rsa(1024);

    static KeyPair ec(String curve) {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec(curve));
            return g.generateKeyPair();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    static KeyPair rsa(int bits) {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(bits);
            return g.generateKeyPair();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    static String pem(PrivateKey key, String eol) {
        String b64 = Base64.getMimeEncoder(64, eol.getBytes(StandardCharsets.US_ASCII))
                .encodeToString(key.getEncoded());
        return "-----BEGIN PRIVATE KEY-----" + eol + b64 + eol + "-----END PRIVATE KEY-----" + eol;
    }

    static Stream<Arguments> readablePems() {
        return Stream.of(
                Arguments.of("P-256, LF", pem(P256.getPrivate(), "\n"), P256.getPrivate(), "ES256"),
                Arguments.of("P-256, CRLF", pem(P256.getPrivate(), "\r\n"), P256.getPrivate(), "ES256"),
                Arguments.of("P-256, text around it", "key for x\n" + pem(P256.getPrivate(), "\n") + "trailer\n",
                        P256.getPrivate(), "ES256"),
                Arguments.of("P-384", pem(P384.getPrivate(), "\n"), P384.getPrivate(), "ES384"),
                Arguments.of("P-521", pem(P521.getPrivate(), "\n"), P521.getPrivate(), "ES512"),
                Arguments.of("RSA 2048", pem(RSA2048.getPrivate(), "\n"), RSA2048.getPrivate(), "RS256"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("readablePems")
    void readsPkcs8PemWithTheKeysDefaultAlgorithm(String name, String pem, PrivateKey expected, String alg) {
        PrivateKey key = Keys.readPkcs8(pem);
        assertThat(key.getEncoded()).isEqualTo(expected.getEncoded());
        assertThat(Keys.defaultAlgorithm(key)).isEqualTo(alg);
        ClientAuthentication a = ClientAuthentication.privateKeyJwt(pem, null);
        assertThat(a).isInstanceOfSatisfying(ClientAuthentication.PrivateKeyJwt.class,
                k -> assertThat(k.algorithm()).isEqualTo(alg));
        assertThat(a.method()).contains("private_key_jwt");
        assertThat(a.toString()).contains("redacted").doesNotContain(body(pem).substring(0, 20));
    }

    static String body(String pem) {
        int b = pem.indexOf("-----BEGIN PRIVATE KEY-----") + 27;
        return pem.substring(b, pem.indexOf("-----END")).replaceAll("\\s", "");
    }

    static Stream<Arguments> unreadablePems() {
        String ed25519;
        try {
            ed25519 = pem(KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPrivate(), "\n");
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        String good = pem(P256.getPrivate(), "\n");
        byte[] junk = new byte[120];
        Arrays.fill(junk, (byte) 0x41);
        return Stream.of(
                Arguments.of("null", null, "empty"),
                Arguments.of("blank", "  \n", "empty"),
                Arguments.of("no PEM block", "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg", "not a PKCS#8 PEM"),
                Arguments.of("no END line", good.substring(0, good.indexOf("-----END")), "not a PKCS#8 PEM"),
                Arguments.of("encrypted", good.replace("BEGIN PRIVATE", "BEGIN ENCRYPTED PRIVATE")
                        .replace("END PRIVATE", "END ENCRYPTED PRIVATE"), "encrypted"),
                Arguments.of("SEC 1", good.replace("PRIVATE KEY", "EC PRIVATE KEY"), "SEC 1 or PKCS#1"),
                Arguments.of("PKCS#1", good.replace("PRIVATE KEY", "RSA PRIVATE KEY"), "SEC 1 or PKCS#1"),
                Arguments.of("broken base64", good.replace("\n-----END", "!!\n-----END"), "not valid base64"),
                Arguments.of("empty body", "-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----", "body is empty"),
                Arguments.of("not DER", "-----BEGIN PRIVATE KEY-----\n" + Base64.getEncoder().encodeToString(junk)
                        + "\n-----END PRIVATE KEY-----", "readable"),
                Arguments.of("truncated DER", "-----BEGIN PRIVATE KEY-----\n" + body(good).substring(0, 60)
                        + "\n-----END PRIVATE KEY-----", "readable"),
                Arguments.of("Ed25519", ed25519, "EC or RSA"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unreadablePems")
    void unreadablePemsGiveAClearMessageThatNeverQuotesThePem(String name, String pem, String says) {
        assertThatThrownBy(() -> ClientAuthentication.privateKeyJwt(pem, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(says)
                .satisfies(e -> {
                    assertThat(e.getCause()).isNull();
                    if (pem != null && pem.contains("-----BEGIN") && pem.indexOf("-----END") > 0) {
                        String b = pem.substring(pem.indexOf('\n') + 1, pem.indexOf("-----END"));
                        for (int i = 0; i + 12 <= Math.min(b.length(), 200); i += 6) {
                            assertThat(e.getMessage()).doesNotContain(b.substring(i, i + 12));
                        }
                    }
                });
    }

    static Stream<Arguments> algorithmFit() {
        return Stream.of(
                Arguments.of(P256, "ES256", null),
                Arguments.of(P384, "ES384", null),
                Arguments.of(P521, "ES512", null),
                Arguments.of(RSA2048, "RS256", null),
                Arguments.of(RSA2048, "RS512", null),
                Arguments.of(RSA2048, "PS256", null),
                Arguments.of(RSA2048, "PS384", null),
                Arguments.of(P256, "ES384", "ES384 needs an EC P-384 key, not one on P-256"),
                Arguments.of(P384, "ES256", "ES256 needs an EC P-256 key, not one on P-384"),
                Arguments.of(RSA2048, "ES256", "ES256 needs an EC P-256 key, not an RSA key of 2048 bits"),
                Arguments.of(P256, "RS256", "RS256 needs an RSA key, not an EC key on P-256"),
                Arguments.of(RSA1024, "RS256", "at least 2048 bits, not 1024"),
                Arguments.of(P256, "HS256", "unsupported JWS algorithm \"HS256\""),
                Arguments.of(P256, "none", "unsupported JWS algorithm \"none\""),
                Arguments.of(P256, "es256", "unsupported JWS algorithm \"es256\""),
                Arguments.of(P256, "EdDSA", "unsupported JWS algorithm \"EdDSA\""));
    }

    @ParameterizedTest(name = "{1} with {0}")
    @MethodSource("algorithmFit")
    void algorithmMustFitTheKey(KeyPair pair, String alg, String error) {
        if (error == null) {
            Keys.checkAlgorithm(pair.getPrivate(), alg);
            assertThat(ClientAuthentication.privateKeyJwt(pair.getPrivate(), alg, "k1").toString())
                    .isEqualTo("PrivateKeyJwt[" + alg + ", kid=k1, key=<redacted>]");
        } else {
            assertThatThrownBy(() -> ClientAuthentication.privateKeyJwt(pair.getPrivate(), alg, null))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(error);
            assertThatThrownBy(() -> ClientAuthentication.privateKeyJwt(pem(pair.getPrivate(), "\n"), alg))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(error);
        }
    }

    @Test
    void onlyASecretLeavesTheMethodToTheServersMetadata() {
        assertThat(ClientAuthentication.clientSecret("s").method()).isEmpty();
        assertThat(ClientAuthentication.clientSecretBasic("s").method()).contains("client_secret_basic");
        assertThat(ClientAuthentication.clientSecretPost("s").method()).contains("client_secret_post");
        assertThat(ClientAuthentication.none().method()).contains("none");
    }

    @Test
    void generatedP256KeysPassTheCheckAndOthersDoNot() {
        KeyPair k = Keys.generateP256();
        Keys.checkP256(k);
        assertThat(Keys.generateP256().getPublic()).isNotEqualTo(k.getPublic());
        DpopKey d = DpopKey.of(k);
        assertThat(d.keyPair()).isSameAs(k);
        assertThatThrownBy(() -> DpopKey.of(P384)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("EC P-256").hasMessageContaining("P-384");
        assertThatThrownBy(() -> DpopKey.of(RSA2048)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("RSA key of 2048 bits");
        assertThatThrownBy(() -> DpopKey.of(new KeyPair(P256.getPublic(), P256_OTHER.getPrivate())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("do not belong together");
        assertThatThrownBy(() -> DpopKey.of(new KeyPair(P256.getPublic(), P384.getPrivate())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("private key");
        assertThatThrownBy(() -> DpopKey.of(new KeyPair(null, P256.getPrivate())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not none");
    }

    @Test
    void thumbprintIsRfc7638OverCrvKtyXY() throws Exception {
        for (KeyPair k : new KeyPair[] {P256, P256_OTHER, Keys.generateP256()}) {
            ECPublicKey pub = (ECPublicKey) k.getPublic();
            String json = "{\"crv\":\"P-256\",\"kty\":\"EC\",\"x\":\"" + coordinate(pub.getW().getAffineX())
                    + "\",\"y\":\"" + coordinate(pub.getW().getAffineY()) + "\"}";
            String expected = Base64.getUrlEncoder().withoutPadding().encodeToString(
                    MessageDigest.getInstance("SHA-256").digest(json.getBytes(StandardCharsets.US_ASCII)));
            assertThat(Keys.thumbprint(k)).isEqualTo(expected).hasSize(43);
            DpopKey d = DpopKey.of(k);
            assertThat(d.thumbprint()).isEqualTo(expected);
            assertThat(d.toString()).isEqualTo("DpopKey[jkt=" + expected + "]");
        }
        assertThat(DpopKey.generate().thumbprint()).isNotEqualTo(Keys.thumbprint(P256));
    }

    /** A P-256 coordinate: 32 bytes big-endian, base64url without padding (RFC 7518 section 6.2.1.2). */
    static String coordinate(BigInteger v) {
        byte[] raw = v.toByteArray();
        byte[] out = new byte[32];
        int n = Math.min(raw.length, 32);
        System.arraycopy(raw, raw.length - n, out, 32 - n, n);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(out);
    }
}
