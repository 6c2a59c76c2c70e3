package dev.loommcp.auth.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.loommcp.auth.AssertionSource;
import dev.loommcp.auth.ClientAuthentication;
import dev.loommcp.auth.DpopKey;
import dev.loommcp.auth.EnterpriseIdp;
import dev.loommcp.auth.TokenSet;
import dev.loommcp.auth.internal.TokenServer.Answer;
import dev.loommcp.auth.internal.TokenServer.Req;
import dev.loommcp.Deadline;
import dev.loommcp.testing.LeakCheck;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Token requests against a real HTTP server on 127.0.0.1: client authentication encodings, private_key_jwt assertions
 * (verified with Nimbus), token response parsing, OAuth error responses, DPoP proofs and the nonce retry, and the
 * grants (authorization code, refresh, client credentials, JWT bearer, enterprise-managed). No exception text ever
 * holds a secret of the request.
 */
@ExtendWith(LeakCheck.class)
class TokenEndpointTest {

    static final String ISSUER = "https://issuer.example/tenant1";
    static final String RESOURCE = "https://mcp.example/mcp";
    static final String SECRET = "s3cr3t-VALUE:%+ &=\u00e9";
    static final String ASSERTION = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ3b3JrbG9hZCJ9.c2lnbmF0dXJlLXdvcmtsb2Fk";
    static final String ID_TOKEN = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.aWQtdG9rZW4tc2lnbmF0dXJl";
    static final String ID_JAG = "eyJ0eXAiOiJvYXV0aC1pZC1qYWcrand0In0.eyJzdWIiOiJ1c2VyIn0.aWQtamFnLXNpZw";
    static final String ACCESS = "access-TOKEN-value-123";
    static final String REFRESH = "refresh-TOKEN-value-456";
    static final String CODE = "auth-CODE-value-789";
    static final String VERIFIER = "code-VERIFIER-value-0123456789012345678901234";

    /** Every secret value used; no exception message or toString may contain one. */
    final List<String> secrets = new ArrayList<>(List.of(SECRET, ASSERTION, ID_TOKEN, ID_JAG, ACCESS, REFRESH, CODE,
            VERIFIER));

    TokenServer server;
    AuthHttp http;

    @BeforeEach
    void start() throws IOException {
        server = new TokenServer();
        http = new AuthHttp(null, Duration.ofSeconds(10));
    }

    @AfterEach
    void stop() {
        http.close();
        server.close();
    }

    AuthServerMetadata as(List<String> methods) {
        return new AuthServerMetadata(ISSUER, null, server.uri("/as/token"), null, List.of(), methods, List.of(),
                List.of(), false, false, List.of(), null);
    }

    AuthServerMetadata as() {
        return as(List.of());
    }

    /** An authorization server whose metadata lists these {@code dpop_signing_alg_values_supported}. */
    AuthServerMetadata asDpop(List<String> algs) {
        return new AuthServerMetadata(ISSUER, null, server.uri("/as/token"), null, List.of(), List.of(), List.of(),
                List.of(), false, false, algs, null);
    }

    static Deadline deadline() {
        return Deadline.after(Duration.ofSeconds(20));
    }

    TokenEndpoint endpoint() {
        return new TokenEndpoint(http, null);
    }

    TokenSet clientCredentials(ClientAuthentication auth) throws Exception {
        return endpoint().clientCredentials(as(), "client", auth, null, RESOURCE, deadline());
    }

    /** Checks that neither the exception nor a cause has a secret in its message or toString. */
    <T extends Throwable> T noSecret(T t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            for (String s : secrets) {
                assertThat(String.valueOf(c.getMessage())).doesNotContain(s);
                assertThat(c.toString()).doesNotContain(s);
            }
        }
        return t;
    }

    static Answer tokens(String json) {
        return Answer.ok(json);
    }

    static String[] basicParts(Req r) {
        String h = r.header("Authorization");
        assertThat(h).startsWith("Basic ");
        String pair = new String(Base64.getDecoder().decode(h.substring(6)), StandardCharsets.UTF_8);
        assertThat(pair.chars().filter(c -> c == ':').count()).as("exactly one ':' after encoding").isEqualTo(1);
        return pair.split(":", 2);
    }

    // ---- client authentication ----

    static Stream<Arguments> basicEncodings() {
        return Stream.of(
                Arguments.of("client", "secret", "client:secret"),
                Arguments.of("a:b", "c:d", "a%3Ab:c%3Ad"),
                Arguments.of("id with space", "p w", "id+with+space:p+w"),
                Arguments.of("100%", "a+b", "100%25:a%2Bb"),
                Arguments.of("\u00fc", "\u20ac=&", "%C3%BC:%E2%82%AC%3D%26"),
                Arguments.of("https://app.example/cimd.json", "x/y?z~*", "https%3A%2F%2Fapp.example%2Fcimd.json:x%2Fy%3Fz%7E*"),
                Arguments.of("plain-id_1.2", SECRET, "plain-id_1.2:s3cr3t-VALUE%3A%25%2B+%26%3D%C3%A9"));
    }

    @ParameterizedTest(name = "{0} / {1}")
    @MethodSource("basicEncodings")
    void clientSecretBasicFormUrlencodesIdAndSecret(String id, String secret, String encodedPair) throws Exception {
        secrets.add(secret);
        for (ClientAuthentication auth : List.of(ClientAuthentication.clientSecretBasic(secret),
                ClientAuthentication.clientSecret(secret))) {
            server.requests.clear();
            endpoint().clientCredentials(as(), id, auth, "read", RESOURCE, deadline());
            Req r = server.only();
            assertThat(r.header("Authorization")).isEqualTo("Basic " + Base64.getEncoder()
                    .encodeToString(encodedPair.getBytes(StandardCharsets.UTF_8)));
            String[] parts = basicParts(r);
            assertThat(URLDecoder.decode(parts[0], StandardCharsets.UTF_8)).isEqualTo(id);
            assertThat(URLDecoder.decode(parts[1], StandardCharsets.UTF_8)).isEqualTo(secret);
            assertThat(r.form()).doesNotContainKeys("client_secret", "client_id", "client_assertion");
            assertThat(r.rawBody()).doesNotContain(AuthHttp.formEncode(secret));
            assertThat(auth.toString()).doesNotContain(secret);
        }
    }

    static Stream<Arguments> secretMethodChoice() {
        return Stream.of(
                Arguments.of(List.of(), "basic"),
                Arguments.of(List.of("client_secret_basic"), "basic"),
                Arguments.of(List.of("client_secret_post"), "post"),
                Arguments.of(List.of("client_secret_basic", "client_secret_post"), "basic"),
                Arguments.of(List.of("client_secret_post", "client_secret_basic"), "basic"),
                Arguments.of(List.of("none", "client_secret_post"), "post"),
                Arguments.of(List.of("private_key_jwt"), "basic"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("secretMethodChoice")
    void aClientSecretIsSentTheWayTheServerSupports(List<String> methods, String expected) throws Exception {
        endpoint().clientCredentials(as(methods), "client", ClientAuthentication.clientSecret(SECRET), null,
                RESOURCE, deadline());
        Req r = server.only();
        if (expected.equals("basic")) {
            assertThat(basicParts(r)[0]).isEqualTo("client");
            assertThat(r.form()).doesNotContainKeys("client_secret", "client_id");
        } else {
            assertThat(r.header("Authorization")).isNull();
            assertThat(r.form()).containsEntry("client_id", "client").containsEntry("client_secret", SECRET);
        }
    }

    @Test
    void explicitMethodsIgnoreTheServersList() throws Exception {
        endpoint().clientCredentials(as(List.of("client_secret_basic")), "c:1", ClientAuthentication.clientSecretPost(
                SECRET), null, RESOURCE, deadline());
        Req post = server.only();
        assertThat(post.header("Authorization")).isNull();
        assertThat(post.form()).containsEntry("client_id", "c:1").containsEntry("client_secret", SECRET);
        assertThat(post.rawBody()).contains("client_id=c%3A1&client_secret=" + AuthHttp.formEncode(SECRET));
        assertThat(post.duplicateParams()).isFalse();
        server.requests.clear();
        endpoint().clientCredentials(as(List.of("client_secret_post")), "c", ClientAuthentication.clientSecretBasic(
                SECRET), null, RESOURCE, deadline());
        assertThat(basicParts(server.only())[0]).isEqualTo("c");
    }

    @Test
    void aPublicClientSendsOnlyItsId() throws Exception {
        clientCredentials(ClientAuthentication.none());
        Req r = server.only();
        assertThat(r.header("Authorization")).isNull();
        assertThat(r.form()).containsExactly(Map.entry("grant_type", "client_credentials"),
                Map.entry("resource", RESOURCE), Map.entry("client_id", "client"));
        assertThat(r.header("Content-Type")).isEqualTo("application/x-www-form-urlencoded");
        assertThat(r.method()).isEqualTo("POST");
        assertThat(r.path()).isEqualTo("/as/token");
    }

    static Stream<Arguments> signingKeys() {
        return Stream.of(
                Arguments.of(KeysTest.P256, "ES256", null),
                Arguments.of(KeysTest.P384, "ES384", "k-384"),
                Arguments.of(KeysTest.P521, "ES512", null),
                Arguments.of(KeysTest.RSA2048, "RS256", "rsa-1"),
                Arguments.of(KeysTest.RSA2048, "RS512", null),
                Arguments.of(KeysTest.RSA2048, "PS256", null));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("signingKeys")
    void privateKeyJwtAssertionVerifiesWithTheKeyAndHasTheRfc7523Claims(KeyPair pair, String alg, String kid)
            throws Exception {
        ClientAuthentication auth = ClientAuthentication.privateKeyJwt(pair.getPrivate(), alg, kid);
        JWSVerifier verifier = pair.getPublic() instanceof ECPublicKey ec ? new ECDSAVerifier(ec)
                : new RSASSAVerifier((RSAPublicKey) pair.getPublic());
        List<String> jtis = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            long before = Instant.now().getEpochSecond();
            endpoint().clientCredentials(as(), "conformance-test-client", auth, "s", RESOURCE, deadline());
            long after = Instant.now().getEpochSecond();
            Req r = server.requests.get(i);
            assertThat(r.header("Authorization")).isNull();
            assertThat(r.form()).containsEntry("client_id", "conformance-test-client")
                    .containsEntry("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
                    .doesNotContainKey("client_secret");
            SignedJWT jwt = SignedJWT.parse(r.form().get("client_assertion"));
            assertThat(jwt.verify(verifier)).isTrue();
            assertThat(jwt.getHeader().getAlgorithm()).isEqualTo(JWSAlgorithm.parse(alg));
            assertThat(jwt.getHeader().getType()).isEqualTo(JOSEObjectType.JWT);
            assertThat(jwt.getHeader().getKeyID()).isEqualTo(kid);
            JWTClaimsSet c = jwt.getJWTClaimsSet();
            assertThat(c.getIssuer()).isEqualTo("conformance-test-client");
            assertThat(c.getSubject()).isEqualTo("conformance-test-client");
            assertThat(c.getAudience()).containsExactly(ISSUER);
            long iat = c.getIssueTime().toInstant().getEpochSecond();
            assertThat(iat).isBetween(before, after);
            assertThat(c.getExpirationTime().toInstant().getEpochSecond() - iat)
                    .isEqualTo(TokenEndpoint.CLIENT_ASSERTION_SECONDS);
            assertThat(c.getJWTID()).isNotBlank();
            jtis.add(c.getJWTID());
            assertThat(auth.toString()).doesNotContain(r.form().get("client_assertion"));
        }
        assertThat(jtis.get(0)).isNotEqualTo(jtis.get(1));
    }

    // ---- token responses ----

    static Stream<Arguments> usableResponses() {
        return Stream.of(
                Arguments.of("{\"access_token\":\"" + ACCESS + "\",\"token_type\":\"Bearer\"}", null, null, null),
                Arguments.of("{\"access_token\":\"" + ACCESS + "\",\"token_type\":\"bearer\",\"expires_in\":3600}",
                        3600L, null, null),
                Arguments.of("{\"access_token\":\"" + ACCESS + "\"}", null, null, null),
                Arguments.of("{\"access_token\":\"" + ACCESS + "\",\"token_type\":\"BEARER\",\"expires_in\":\"120\","
                        + "\"refresh_token\":\"" + REFRESH + "\",\"scope\":\"a b\"}", 120L, REFRESH, "a b"),
                Arguments.of("{\"access_token\":\"" + ACCESS + "\",\"token_type\":\"Bearer\",\"expires_in\":59.9}",
                        59L, null, null),
                Arguments.of("{\"access_token\":\"" + ACCESS + "\",\"token_type\":\"Bearer\",\"expires_in\":0}",
                        0L, null, null),
                Arguments.of("{\"access_token\":\"" + ACCESS + "\",\"token_type\":\"Bearer\",\"expires_in\":1e30}",
                        TokenEndpoint.MAX_EXPIRES_IN, null, null),
                Arguments.of("{\"access_token\":\"" + ACCESS + "\",\"token_type\":\"Bearer\",\"expires_in\":"
                        + "123456789012345678901234567890}", TokenEndpoint.MAX_EXPIRES_IN, null, null),
                Arguments.of("{\"access_token\":\"" + ACCESS + "\",\"token_type\":\"Bearer\",\"expires_in\":1e400}",
                        TokenEndpoint.MAX_EXPIRES_IN, null, null),
                Arguments.of("{\"access_token\":\"" + ACCESS + "\",\"token_type\":\"Bearer\",\"expires_in\":null,"
                        + "\"refresh_token\":\"\",\"scope\":null,\"extra\":{\"x\":[1,2]}}", null, null, null),
                Arguments.of("{\"access_token\":\"" + "x".repeat(200_000) + "\",\"token_type\":\"Bearer\"}", null,
                        null, null));
    }

    @ParameterizedTest(name = "[{index}] expires_in {1}")
    @MethodSource("usableResponses")
    void usableTokenResponsesBecomeATokenSet(String body, Long expiresIn, String refresh, String scope)
            throws Exception {
        server.answer(r -> tokens(body));
        Instant before = Instant.now();
        TokenSet t = clientCredentials(ClientAuthentication.none());
        Instant after = Instant.now();
        assertThat(t.issuer()).isEqualTo(ISSUER);
        assertThat(t.accessToken()).isIn(ACCESS, "x".repeat(200_000));
        assertThat(t.tokenType()).isEqualTo("Bearer");
        assertThat(t.refreshToken()).isEqualTo(refresh);
        assertThat(t.scope()).isEqualTo(scope);
        if (expiresIn == null) {
            assertThat(t.expiresAt()).isNull();
        } else {
            assertThat(t.expiresAt()).isBetween(before.plusSeconds(expiresIn), after.plusSeconds(expiresIn));
        }
        assertThat(t.toString()).doesNotContain(ACCESS).doesNotContain(REFRESH);
    }

    static Stream<Arguments> unusableResponses() {
        String at = "\"access_token\":\"" + ACCESS + "\"";
        return Stream.of(
                Arguments.of("", "is not a JSON object"),
                Arguments.of("access_token=" + ACCESS, "is not a JSON object"),
                Arguments.of("[\"" + ACCESS + "\"]", "is not a JSON object"),
                Arguments.of("\"" + ACCESS + "\"", "is not a JSON object"),
                Arguments.of("{\"access_token\":\"" + ACCESS + "\"", "is not a JSON object"),
                Arguments.of("{\"token_type\":\"Bearer\"}", "has no access_token"),
                Arguments.of("{\"access_token\":null}", "has no access_token"),
                Arguments.of("{\"access_token\":12345}", "access_token that is not a string"),
                Arguments.of("{\"access_token\":[\"" + ACCESS + "\"]}", "access_token that is not a string"),
                Arguments.of("{\"access_token\":\"\"}", "an empty access_token"),
                Arguments.of("{\"access_token\":\"" + ACCESS + " x\"}", "characters not allowed"),
                Arguments.of("{\"access_token\":\"" + ACCESS + "\\r\\nX-Evil: 1\"}", "characters not allowed"),
                Arguments.of("{\"access_token\":\"" + ACCESS + "\u00e9\"}", "characters not allowed"),
                Arguments.of("{" + at + ",\"token_type\":5}", "token_type that is not a string"),
                Arguments.of("{" + at + ",\"token_type\":\"mac\"}", "token_type \"mac\""),
                Arguments.of("{" + at + ",\"token_type\":\"DPoP\"}", "carried no DPoP proof"),
                Arguments.of("{" + at + ",\"token_type\":\"N_A\"}", "token_type \"N_A\""),
                Arguments.of("{" + at + ",\"expires_in\":-1}", "negative expires_in"),
                Arguments.of("{" + at + ",\"expires_in\":-1e400}", "negative expires_in"),
                Arguments.of("{" + at + ",\"expires_in\":\"soon\"}", "expires_in that is not a number"),
                Arguments.of("{" + at + ",\"expires_in\":\"" + "9".repeat(100) + "\"}",
                        "expires_in that is not a number"),
                Arguments.of("{" + at + ",\"expires_in\":true}", "expires_in that is not a number"),
                Arguments.of("{" + at + ",\"expires_in\":{}}", "expires_in that is not a number"),
                Arguments.of("{" + at + ",\"refresh_token\":5}", "refresh_token that is not a string"),
                Arguments.of("{" + at + ",\"refresh_token\":\"" + REFRESH + "\\n\"}", "refresh_token with characters"),
                Arguments.of("{" + at + ",\"scope\":[\"a\",\"b\"]}", "scope that is not a string"));
    }

    @ParameterizedTest(name = "[{index}] {1}")
    @MethodSource("unusableResponses")
    void unusableTokenResponsesAreTokenErrorsThatQuoteNoToken(String body, String says) {
        server.answer(r -> tokens(body));
        assertThatThrownBy(() -> clientCredentials(ClientAuthentication.none()))
                .isInstanceOfSatisfying(TokenError.class, e -> {
                    assertThat(e.status()).isEqualTo(200);
                    assertThat(e.error()).isNull();
                    assertThat(e.getMessage()).contains("the token response of the authorization server at "
                            + server.uri("/as/token")).contains(says);
                    noSecret(e);
                });
    }

    @Test
    void aBodyOverTheLimitIsAnIOException() {
        server.answer(r -> tokens("{\"access_token\":\"" + "x".repeat(AuthHttp.MAX_BODY_BYTES) + "\"}"));
        assertThatThrownBy(() -> clientCredentials(ClientAuthentication.none())).isInstanceOf(IOException.class)
                .hasMessageContaining("larger than");
    }

    // ---- error responses ----

    static Stream<Arguments> errorResponses() {
        return Stream.of(
                Arguments.of(400, "{\"error\":\"invalid_grant\",\"error_description\":\"The code has expired\"}",
                        "invalid_grant", "HTTP 400, invalid_grant: \"The code has expired\""),
                Arguments.of(401, "{\"error\":\"invalid_client\"}", "invalid_client", "HTTP 401, invalid_client"),
                Arguments.of(400, "{\"error\":\"invalid_scope\",\"error_description\":\"\\u0000bad\\nline\\u00e9\"}",
                        "invalid_scope", "invalid_scope: \"?bad?line?\""),
                Arguments.of(400, "{\"error\":\"invalid_request\",\"error_description\":\"" + "d".repeat(5000)
                        + "\"}", "invalid_request", "\"" + "d".repeat(SafeText.MAX) + "...\""),
                Arguments.of(400, "{\"error\":\"invalid_client\",\"error_description\":\"secret " + SECRET
                        .replace("\\", "\\\\") + " is wrong\"}", "invalid_client", "left out: it repeats a secret"),
                Arguments.of(400, "{\"error\":\"invalid_grant\",\"error_description\":\"bad code " + CODE + "\"}",
                        "invalid_grant", "left out: it repeats a secret"),
                Arguments.of(400, "{\"error\":5}", null, "HTTP 400 without an OAuth error"),
                Arguments.of(400, "{\"error\":\"bad\\\"quote\"}", null, "HTTP 400 without an OAuth error"),
                Arguments.of(500, "<html>oops " + SECRET + "</html>", null, "HTTP 500 without an OAuth error"),
                Arguments.of(503, "", null, "HTTP 503 without an OAuth error"),
                Arguments.of(302, "", null, "HTTP 302 (a redirect; not followed)"));
    }

    @ParameterizedTest(name = "[{index}] {0} {2}")
    @MethodSource("errorResponses")
    void oauthErrorResponsesAreTokenErrors(int status, String body, String error, String says) {
        server.answer(r -> new Answer(status, status == 302 ? Map.of("Location", "https://elsewhere.example/")
                : Map.of(), body));
        assertThatThrownBy(() -> endpoint().authorizationCode(as(), "client",
                ClientAuthentication.clientSecretPost(SECRET), CODE, VERIFIER, "http://127.0.0.1:1/cb", RESOURCE,
                deadline()))
                .isInstanceOfSatisfying(TokenError.class, e -> {
                    assertThat(e.status()).isEqualTo(status);
                    assertThat(e.error()).isEqualTo(error);
                    assertThat(e.getMessage()).startsWith("the authorization server at " + server.uri("/as/token")
                            + " refused the authorization_code request: ").contains(says);
                    noSecret(e);
                });
        assertThat(server.requests).hasSize(1);
    }

    @Test
    void networkFailuresAndPassedDeadlinesAreIOExceptions() throws Exception {
        URI dead;
        try (TokenServer s = new TokenServer()) {
            dead = s.uri("/token");
        }
        AuthServerMetadata gone = new AuthServerMetadata(ISSUER, null, dead, null, List.of(), List.of(), List.of(),
                List.of(), false, false, List.of(), null);
        assertThatThrownBy(() -> endpoint().clientCredentials(gone, "c", ClientAuthentication.clientSecret(SECRET),
                null, RESOURCE, deadline())).isInstanceOf(IOException.class).satisfies(this::noSecret);
        assertThatThrownBy(() -> endpoint().clientCredentials(as(), "c", ClientAuthentication.none(), null, RESOURCE,
                Deadline.after(Duration.ofNanos(1)))).isInstanceOf(IOException.class)
                .hasMessageContaining("deadline");
        assertThat(server.requests).isEmpty();
    }

    @Test
    void aTokenEndpointThatIsNotAnHttpUrlIsAnIOException() {
        for (String bad : List.of("ftp://as.example/token", "file:///etc/passwd", "/token", "urn:x:token")) {
            AuthServerMetadata m = new AuthServerMetadata(ISSUER, null, URI.create(bad), null, List.of(), List.of(),
                    List.of(), List.of(), false, false, List.of(), null);
            assertThatThrownBy(() -> endpoint().clientCredentials(m, "c", ClientAuthentication.none(), null, RESOURCE,
                    deadline())).as(bad).isInstanceOf(IOException.class).hasMessageContaining("not an absolute http(s)");
        }
        // an IdP token endpoint without a host, or on plain http elsewhere than loopback, is refused when described
        for (String bad : List.of("http:///token", "http://idp.example.com/token")) {
            assertThatThrownBy(() -> new EnterpriseIdp(URI.create(bad), "i", ClientAuthentication.none(),
                    AssertionSource.of(ID_TOKEN))).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("the IdP token endpoint").hasMessageContaining("https is required");
        }
    }

    // ---- grants ----

    @Test
    void clientCredentialsSendsGrantScopeAndResourceInOrder() throws Exception {
        endpoint().clientCredentials(as(), "client", ClientAuthentication.none(), "read write", RESOURCE, deadline());
        assertThat(server.only().rawBody()).isEqualTo("grant_type=client_credentials&scope=read+write&resource="
                + AuthHttp.formEncode(RESOURCE) + "&client_id=client");
        server.requests.clear();
        endpoint().clientCredentials(as(), "client", ClientAuthentication.none(), null, null, deadline());
        assertThat(server.only().rawBody()).isEqualTo("grant_type=client_credentials&client_id=client");
    }

    @Test
    void authorizationCodeAndRefresh() throws Exception {
        server.answer(r -> tokens("{\"access_token\":\"" + ACCESS + "\",\"token_type\":\"Bearer\",\"refresh_token\":\""
                + REFRESH + "\",\"expires_in\":60}"));
        TokenSet first = endpoint().authorizationCode(as(), "client", ClientAuthentication.none(), CODE, VERIFIER,
                "http://127.0.0.1:5555/callback", RESOURCE, deadline());
        assertThat(server.only().form()).containsExactly(Map.entry("grant_type", "authorization_code"),
                Map.entry("code", CODE), Map.entry("code_verifier", VERIFIER),
                Map.entry("redirect_uri", "http://127.0.0.1:5555/callback"), Map.entry("resource", RESOURCE),
                Map.entry("client_id", "client"));
        assertThat(first.refreshToken()).isEqualTo(REFRESH);

        // a refresh answer without a refresh token keeps the old one; one with a new token replaces it
        server.requests.clear();
        server.answer(r -> tokens("{\"access_token\":\"new-" + ACCESS + "\",\"token_type\":\"Bearer\"}"));
        TokenSet kept = endpoint().refresh(as(), "client", ClientAuthentication.none(), REFRESH, null, RESOURCE,
                deadline());
        assertThat(server.only().form()).containsExactly(Map.entry("grant_type", "refresh_token"),
                Map.entry("refresh_token", REFRESH), Map.entry("resource", RESOURCE), Map.entry("client_id", "client"));
        assertThat(kept.accessToken()).isEqualTo("new-" + ACCESS);
        assertThat(kept.refreshToken()).isEqualTo(REFRESH);
        server.answer(r -> tokens("{\"access_token\":\"a2\",\"refresh_token\":\"rotated-" + REFRESH + "\"}"));
        TokenSet rotated = endpoint().refresh(as(), "client", ClientAuthentication.none(), REFRESH, "a", RESOURCE,
                deadline());
        assertThat(rotated.refreshToken()).isEqualTo("rotated-" + REFRESH);
        assertThat(server.requests.get(1).form()).containsEntry("scope", "a");

        // invalid_grant on refresh: thrown at once
        server.answer(r -> Answer.json(400, "{\"error\":\"invalid_grant\"}"));
        assertThatThrownBy(() -> endpoint().refresh(as(), "client", ClientAuthentication.none(), REFRESH, null,
                RESOURCE, deadline())).isInstanceOfSatisfying(TokenError.class,
                e -> assertThat(noSecret(e).error()).isEqualTo("invalid_grant"));
        assertThat(server.requests).hasSize(3);
    }

    @Test
    void jwtBearerReadsTheAssertionFreshEachTimeAndNeverRetries() throws Exception {
        AtomicInteger reads = new AtomicInteger();
        AssertionSource source = d -> ASSERTION + reads.incrementAndGet();
        secrets.add(ASSERTION + "1");
        endpoint().jwtBearer(as(), "conformance-wif-workload", ClientAuthentication.none(), source, "wif.read",
                RESOURCE, deadline());
        assertThat(server.only().form()).containsExactly(
                Map.entry("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"),
                Map.entry("assertion", ASSERTION + "1"), Map.entry("scope", "wif.read"),
                Map.entry("resource", RESOURCE), Map.entry("client_id", "conformance-wif-workload"));
        server.requests.clear();
        server.answer(r -> Answer.json(400, "{\"error\":\"invalid_grant\",\"error_description\":\"JWT assertion is "
                + "expired\"}"));
        assertThatThrownBy(() -> endpoint().jwtBearer(as(), "w", ClientAuthentication.none(), source, null,
                RESOURCE, deadline())).isInstanceOfSatisfying(TokenError.class, e -> {
                    assertThat(e.error()).isEqualTo("invalid_grant");
                    assertThat(e.getMessage()).contains("urn:ietf:params:oauth:grant-type:jwt-bearer request")
                            .contains("JWT assertion is expired");
                    noSecret(e);
                });
        assertThat(server.requests).hasSize(1);
        assertThat(reads).hasValue(2);
    }

    @Test
    void aFailingOrBlankAssertionSourceSendsNothing() {
        for (AssertionSource bad : List.<AssertionSource>of(d -> "  ", d -> null, d -> {
            throw new IllegalStateException("boom");
        }, d -> {
            throw new IOException("no token file");
        })) {
            assertThatThrownBy(() -> endpoint().jwtBearer(as(), "w", ClientAuthentication.none(), bad, null,
                    RESOURCE, deadline())).isInstanceOf(IOException.class)
                    .hasMessageMatching(".*(blank|null|failed \\(IllegalStateException: boom\\)|no token file).*");
        }
        assertThat(server.requests).isEmpty();
    }

    EnterpriseIdp idp(ClientAuthentication auth) {
        return new EnterpriseIdp(server.uri("/idp/token"), "idp-client", auth, AssertionSource.of(ID_TOKEN));
    }

    Answer idpAndAs(Req r, String idpAnswer) {
        if (r.path().equals("/idp/token")) {
            return Answer.ok(idpAnswer);
        }
        return tokens("{\"access_token\":\"" + ACCESS + "\",\"token_type\":\"Bearer\",\"expires_in\":3600}");
    }

    @Test
    void enterpriseManagedExchangesTheIdTokenForAnIdJagThenUsesItAsAJwtBearerAssertion() throws Exception {
        String idpSecret = "idp-" + SECRET;
        secrets.add(idpSecret);
        server.answer(r -> idpAndAs(r, "{\"access_token\":\"" + ID_JAG + "\",\"issued_token_type\":"
                + "\"urn:ietf:params:oauth:token-type:id-jag\",\"token_type\":\"N_A\"}"));
        TokenSet t = endpoint().enterpriseManaged(as(List.of("client_secret_basic")), "mcp-client",
                ClientAuthentication.clientSecret(SECRET), idp(ClientAuthentication.clientSecretBasic(idpSecret)),
                "chat.read", RESOURCE, deadline());
        assertThat(t.accessToken()).isEqualTo(ACCESS);
        assertThat(t.issuer()).isEqualTo(ISSUER);
        assertThat(server.requests).hasSize(2);
        Req exchange = server.requests.get(0);
        assertThat(exchange.path()).isEqualTo("/idp/token");
        assertThat(exchange.form()).containsExactly(
                Map.entry("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange"),
                Map.entry("requested_token_type", "urn:ietf:params:oauth:token-type:id-jag"),
                Map.entry("audience", ISSUER), Map.entry("resource", RESOURCE), Map.entry("scope", "chat.read"),
                Map.entry("subject_token", ID_TOKEN),
                Map.entry("subject_token_type", "urn:ietf:params:oauth:token-type:id_token"));
        String[] idpCreds = basicParts(exchange);
        assertThat(URLDecoder.decode(idpCreds[0], StandardCharsets.UTF_8)).isEqualTo("idp-client");
        assertThat(URLDecoder.decode(idpCreds[1], StandardCharsets.UTF_8)).isEqualTo(idpSecret);
        Req bearer = server.requests.get(1);
        assertThat(bearer.path()).isEqualTo("/as/token");
        assertThat(bearer.form()).containsExactly(
                Map.entry("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"),
                Map.entry("assertion", ID_JAG), Map.entry("scope", "chat.read"), Map.entry("resource", RESOURCE));
        String[] asCreds = basicParts(bearer);
        assertThat(URLDecoder.decode(asCreds[0], StandardCharsets.UTF_8)).isEqualTo("mcp-client");
        assertThat(URLDecoder.decode(asCreds[1], StandardCharsets.UTF_8)).isEqualTo(SECRET);
    }

    static Stream<Arguments> idpFailures() {
        return Stream.of(
                Arguments.of(400, "{\"error\":\"invalid_grant\",\"error_description\":\"Invalid ID token\"}",
                        "the identity provider at", "token-exchange request: HTTP 400, invalid_grant"),
                Arguments.of(200, "{\"access_token\":\"" + ID_JAG + "\",\"issued_token_type\":"
                        + "\"urn:ietf:params:oauth:token-type:access_token\"}", "the identity provider at",
                        "issued a token of type \"urn:ietf:params:oauth:token-type:access_token\" instead of an ID-JAG"),
                Arguments.of(200, "{\"access_token\":\"" + ID_JAG + "\",\"issued_token_type\":7}",
                        "the identity provider at", "malformed issued_token_type"),
                Arguments.of(200, "{\"issued_token_type\":\"urn:ietf:params:oauth:token-type:id-jag\"}",
                        "the token response of the identity provider at", "has no access_token"));
    }

    @ParameterizedTest(name = "[{index}] {3}")
    @MethodSource("idpFailures")
    void enterpriseManagedStopsAtAnIdpFailure(int status, String body, String who, String says) {
        server.answer(r -> r.path().equals("/idp/token") ? Answer.json(status, body) : tokens("{}"));
        assertThatThrownBy(() -> endpoint().enterpriseManaged(as(), "mcp-client", ClientAuthentication.none(),
                idp(ClientAuthentication.none()), null, RESOURCE, deadline()))
                .isInstanceOfSatisfying(TokenError.class, e -> {
                    assertThat(e.getMessage()).contains(who + " " + server.uri("/idp/token")).contains(says);
                    noSecret(e);
                });
        assertThat(server.only().path()).isEqualTo("/idp/token");
    }

    @Test
    void enterpriseManagedPrivateKeyJwtAtTheIdpHasItsTokenEndpointAsAudience() throws Exception {
        server.answer(r -> idpAndAs(r, "{\"access_token\":\"" + ID_JAG + "\"}"));
        endpoint().enterpriseManaged(as(), "mcp-client", ClientAuthentication.none(),
                idp(ClientAuthentication.privateKeyJwt(KeysTest.P256.getPrivate(), "ES256", null)), null, RESOURCE,
                deadline());
        SignedJWT a = SignedJWT.parse(server.requests.get(0).form().get("client_assertion"));
        assertThat(a.verify(new ECDSAVerifier((ECPublicKey) KeysTest.P256.getPublic()))).isTrue();
        assertThat(a.getJWTClaimsSet().getAudience()).containsExactly(server.uri("/idp/token").toString());
        assertThat(a.getJWTClaimsSet().getIssuer()).isEqualTo("idp-client");
        assertThat(server.requests.get(1).form()).containsEntry("client_id", "mcp-client");
    }

    // ---- DPoP ----

    static final DpopKey DPOP = DpopKey.generate();

    static SignedJWT proofOf(Req r) throws Exception {
        String h = r.header("DPoP");
        assertThat(h).isNotNull();
        SignedJWT jwt = DpopProofsTest.verified(h, DPOP);
        return jwt;
    }

    static Answer dpopTokens(String extraHeaderNonce) {
        Map<String, String> h = new LinkedHashMap<>();
        if (extraHeaderNonce != null) {
            h.put("DPoP-Nonce", extraHeaderNonce);
        }
        return new Answer(200, h, "{\"access_token\":\"" + ACCESS + "\",\"token_type\":\"DPoP\",\"expires_in\":60}");
    }

    static Answer useNonce(int status, String nonce) {
        Map<String, String> h = nonce == null ? Map.of() : Map.of("DPoP-Nonce", nonce);
        return new Answer(status, h, "{\"error\":\"use_dpop_nonce\",\"error_description\":\"Authorization server "
                + "requires a DPoP nonce\"}");
    }

    @Test
    void tokenRequestsCarryADpopProofAndExpectADpopToken() throws Exception {
        DpopProofs proofs = new DpopProofs(DPOP);
        server.answer(r -> dpopTokens("later-nonce"));
        TokenSet t = new TokenEndpoint(http, proofs).clientCredentials(asDpop(List.of("ES256")), "c",
                ClientAuthentication.none(), null, RESOURCE, deadline());
        assertThat(t.tokenType()).isEqualTo("DPoP");
        JWTClaimsSet c = proofOf(server.only()).getJWTClaimsSet();
        assertThat(c.getStringClaim("htm")).isEqualTo("POST");
        assertThat(c.getStringClaim("htu")).isEqualTo(server.uri("/as/token").toString());
        assertThat(c.getClaim("ath")).isNull();
        assertThat(c.getClaim("nonce")).isNull();
        // the nonce of a successful answer is remembered for the next proof to that origin
        assertThat(proofs.nonce(server.uri("/anything"))).isEqualTo("later-nonce");

        server.answer(r -> tokens("{\"access_token\":\"" + ACCESS + "\",\"token_type\":\"Bearer\"}"));
        assertThatThrownBy(() -> new TokenEndpoint(http, proofs).clientCredentials(asDpop(List.of("RS256", "ES256")),
                "c", ClientAuthentication.none(), null, RESOURCE, deadline()))
                .isInstanceOfSatisfying(TokenError.class, e -> assertThat(noSecret(e).getMessage())
                        .contains("token_type \"Bearer\" where a DPoP-bound token (DPoP) was asked for"));
        assertThat(proofOf(server.requests.get(1)).getJWTClaimsSet().getStringClaim("nonce"))
                .isEqualTo("later-nonce");
        server.answer(r -> tokens("{\"access_token\":\"" + ACCESS + "\"}"));
        assertThatThrownBy(() -> new TokenEndpoint(http, proofs).clientCredentials(asDpop(List.of("ES256")), "c",
                ClientAuthentication.none(), null, RESOURCE, deadline()))
                .isInstanceOf(TokenError.class).hasMessageContaining("has no token_type");
        server.answer(r -> tokens("{\"access_token\":\"" + ACCESS + "\",\"token_type\":\"dpop\"}"));
        assertThat(new TokenEndpoint(http, proofs).clientCredentials(asDpop(List.of("ES256")), "c",
                ClientAuthentication.none(), null, RESOURCE, deadline()).tokenType()).isEqualTo("DPoP");
    }

    static Stream<Arguments> dpopPolicy() {
        String bearer = "{\"access_token\":\"" + ACCESS + "\",\"token_type\":\"Bearer\"}";
        String dpop = "{\"access_token\":\"" + ACCESS + "\",\"token_type\":\"DPoP\"}";
        String none = "{\"access_token\":\"" + ACCESS + "\"}";
        return Stream.of(
                // the server's dpop_signing_alg_values_supported, its answer, proof sent?, token type or error
                Arguments.of(List.of(), dpop, false, "error: carried no DPoP proof"),
                Arguments.of(List.of(), bearer, false, "Bearer"),
                Arguments.of(List.of(), none, false, "Bearer"),
                Arguments.of(List.of("ES256"), dpop, true, "DPoP"),
                Arguments.of(List.of("ES256"), bearer, true, "error: where a DPoP-bound token (DPoP) was asked for"),
                Arguments.of(List.of("ES256"), none, true, "error: has no token_type"),
                Arguments.of(List.of("RS256"), bearer, false, "Bearer"),
                Arguments.of(List.of("RS256"), dpop, false, "error: carried no DPoP proof"));
    }

    @ParameterizedTest(name = "{0} answers {1}")
    @MethodSource("dpopPolicy")
    void dpopIsUsedAndRequiredOnlyWhenTheServerAdvertisesEs256(List<String> algs, String answer, boolean proof,
                                                         String outcome) throws Exception {
        server.answer(r -> tokens(answer));
        TokenEndpoint te = new TokenEndpoint(http, new DpopProofs(DPOP));
        if (outcome.startsWith("error: ")) {
            assertThatThrownBy(() -> te.clientCredentials(asDpop(algs), "c", ClientAuthentication.none(), null,
                    RESOURCE, deadline())).isInstanceOf(TokenError.class)
                    .hasMessageContaining(outcome.substring(7)).satisfies(this::noSecret);
        } else {
            assertThat(te.clientCredentials(asDpop(algs), "c", ClientAuthentication.none(), null, RESOURCE,
                    deadline()).tokenType()).isEqualTo(outcome);
        }
        if (proof) {
            proofOf(server.only());
        } else {
            assertThat(server.only().header("DPoP")).isNull();
        }
    }

    static Stream<Arguments> nonceRetries() {
        return Stream.of(
                // first answer, second answer, requests expected, success expected
                Arguments.of(useNonce(400, "as-nonce-1"), dpopTokens(null), 2, true),
                Arguments.of(useNonce(401, "as-nonce-1"), dpopTokens(null), 2, true),
                Arguments.of(useNonce(400, "as-nonce-1"), useNonce(400, "as-nonce-2"), 2, false),
                Arguments.of(useNonce(400, null), dpopTokens(null), 1, false),
                Arguments.of(useNonce(400, "bad nonce"), dpopTokens(null), 1, false),
                Arguments.of(useNonce(500, "as-nonce-1"), dpopTokens(null), 1, false),
                Arguments.of(new Answer(400, Map.of("DPoP-Nonce", "as-nonce-1"), "{\"error\":\"invalid_dpop_proof\"}"),
                        dpopTokens(null), 1, false));
    }

    @ParameterizedTest(name = "[{index}] {2} requests, success {3}")
    @MethodSource("nonceRetries")
    void useDpopNonceIsRetriedOnceWithTheServersNonce(Answer first, Answer second, int requests, boolean success)
            throws Exception {
        DpopProofs proofs = new DpopProofs(DPOP);
        AtomicInteger n = new AtomicInteger();
        server.answer(r -> n.getAndIncrement() == 0 ? first : second);
        TokenEndpoint te = new TokenEndpoint(http, proofs);
        ClientAuthentication auth = ClientAuthentication.privateKeyJwt(KeysTest.P256.getPrivate(), "ES256", null);
        AuthServerMetadata as = asDpop(List.of("ES256"));
        if (success) {
            assertThat(te.clientCredentials(as, "c", auth, null, RESOURCE, deadline()).tokenType())
                    .isEqualTo("DPoP");
        } else {
            assertThatThrownBy(() -> te.clientCredentials(as, "c", auth, null, RESOURCE, deadline()))
                    .isInstanceOf(TokenError.class).satisfies(this::noSecret);
        }
        assertThat(server.requests).hasSize(requests);
        JWTClaimsSet p1 = proofOf(server.requests.get(0)).getJWTClaimsSet();
        assertThat(p1.getClaim("nonce")).isNull();
        if (requests == 2) {
            JWTClaimsSet p2 = proofOf(server.requests.get(1)).getJWTClaimsSet();
            assertThat(p2.getStringClaim("nonce")).isEqualTo("as-nonce-1");
            assertThat(p2.getJWTID()).isNotEqualTo(p1.getJWTID());
            // the client assertion is made afresh too (a server may refuse a replayed jti)
            assertThat(SignedJWT.parse(server.requests.get(1).form().get("client_assertion")).getJWTClaimsSet()
                    .getJWTID()).isNotEqualTo(SignedJWT.parse(server.requests.get(0).form().get("client_assertion"))
                    .getJWTClaimsSet().getJWTID());
        }
    }

    @Test
    void withoutADpopKeyUseDpopNonceIsNotRetriedAndNoProofIsSent() {
        server.answer(r -> useNonce(400, "n"));
        assertThatThrownBy(() -> clientCredentials(ClientAuthentication.none()))
                .isInstanceOfSatisfying(TokenError.class, e -> assertThat(e.error()).isEqualTo("use_dpop_nonce"));
        assertThat(server.only().header("DPoP")).isNull();
    }

    @Test
    void theEnterpriseExchangeAtTheIdpCarriesNoDpopProofButTheAsRequestDoes() throws Exception {
        server.answer(r -> r.path().equals("/idp/token") ? Answer.ok("{\"access_token\":\"" + ID_JAG + "\"}")
                : dpopTokens(null));
        TokenSet t = new TokenEndpoint(http, new DpopProofs(DPOP)).enterpriseManaged(asDpop(List.of("ES256")),
                "c", ClientAuthentication.none(), idp(ClientAuthentication.none()), null, RESOURCE, deadline());
        assertThat(t.tokenType()).isEqualTo("DPoP");
        assertThat(server.requests.get(0).header("DPoP")).isNull();
        assertThat(proofOf(server.requests.get(1)).getJWTClaimsSet().getStringClaim("htu"))
                .isEqualTo(server.uri("/as/token").toString());
    }
}
