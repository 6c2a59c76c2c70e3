package dev.loommcp.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.testing.LeakCheck;
import dev.loommcp.transport.http.AuthorizationRequest;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/** The authorization-code path of McpOAuth end to end against the in-test authorization server and resource. */
@ExtendWith(LeakCheck.class)
class McpOAuthFlowTest {

    static final URI REDIRECT = URI.create("http://127.0.0.1:1/callback");

    FakeOAuth as;
    Driver driver;
    MapStore store;
    final List<McpOAuth> opened = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        as = new FakeOAuth();
        driver = new Driver();
        store = new MapStore();
    }

    @AfterEach
    void tearDown() {
        opened.forEach(McpOAuth::close);
        driver.close();
        as.close();
    }

    McpOAuth.Builder code() {
        return McpOAuth.newBuilder().authorizationCode(AuthorizationCodeHandler.nonInteractive(REDIRECT))
                .tokenStore(store);
    }

    McpOAuth open(McpOAuth.Builder b) {
        McpOAuth o = b.build();
        opened.add(o);
        return o;
    }

    /** Paths the servers saw, without the methods, from the first occurrence of {@code from}. */
    List<String> gets() {
        return as.paths.stream().filter(p -> p.startsWith("GET /.well-known") || p.startsWith("GET /custom")
                || p.startsWith("GET /tenant1/.well-known")).map(p -> p.substring(4)).toList();
    }

    @Test
    void authorizationCodeWithDiscoveryRegistrationPkceAndResource() throws Exception {
        McpOAuth oauth = open(code());
        assertThat(driver.post(oauth, as.mcp())).isEqualTo(200);
        assertThat(as.paths).containsExactly("POST /mcp", "GET /.well-known/oauth-protected-resource/mcp",
                "GET /.well-known/oauth-authorization-server", "POST /register", "GET /authorize", "POST /token",
                "POST /mcp");
        JsonNode reg = as.registrations.getFirst();
        assertThat(reg.get("application_type").asString()).isEqualTo("native");
        assertThat(reg.get("grant_types").toString()).isEqualTo("[\"authorization_code\",\"refresh_token\"]");
        assertThat(reg.get("redirect_uris").toString()).isEqualTo("[\"" + REDIRECT + "\"]");
        assertThat(reg.get("token_endpoint_auth_method").asString()).isEqualTo("none");
        Map<String, String> q = as.authorizeQueries.getFirst();
        assertThat(q).containsEntry("response_type", "code").containsEntry("client_id", "dcr-client")
                .containsEntry("redirect_uri", REDIRECT.toString()).containsEntry("code_challenge_method", "S256")
                .containsEntry("resource", as.base + "/mcp").doesNotContainKey("scope");
        assertThat(q.get("state")).hasSizeGreaterThan(15);
        Map<String, String> t = as.tokenForms.getFirst();
        assertThat(t).containsEntry("grant_type", "authorization_code").containsEntry("resource", as.base + "/mcp")
                .containsEntry("redirect_uri", REDIRECT.toString()).containsEntry("client_id", "dcr-client");
        assertThat(FakeOAuth.s256(t.get("code_verifier"))).isEqualTo(q.get("code_challenge"));
        // the next request uses the stored token: no discovery, no token request
        assertThat(driver.post(oauth, as.mcp())).isEqualTo(200);
        assertThat(as.tokenRequests.get()).isEqualTo(1);
        assertThat(as.paths).hasSize(8);
        assertThat(store.tokens(as.base + "/mcp", as.issuer())).isPresent();
        assertThat(store.registration(as.issuer()).orElseThrow().clientId()).isEqualTo("dcr-client");
    }

    @Test
    void rootProtectedResourceMetadataAndIssuerWithPath() throws Exception {
        as.prmPath = "/.well-known/oauth-protected-resource";
        as.prmInHeader = false;
        as.issuerPath = "/tenant1";
        as.metadataPath = "/.well-known/oauth-authorization-server/tenant1";
        assertThat(driver.post(open(code()), as.mcp())).isEqualTo(200);
        assertThat(gets()).containsExactly("/.well-known/oauth-protected-resource/mcp",
                "/.well-known/oauth-protected-resource", "/.well-known/oauth-authorization-server/tenant1");
        // the resource is the PRM's, string-identical (no slash appended)
        assertThat(as.authorizeQueries.getFirst()).containsEntry("resource", as.base);
        assertThat(as.tokenForms.getFirst()).containsEntry("resource", as.base);
    }

    @Test
    void aPageThatIsNoMetadataDocumentIsSkipped() throws Exception {
        as.prmPath = "/.well-known/oauth-protected-resource";
        as.prmInHeader = false;
        as.htmlAt = "/.well-known/oauth-protected-resource/mcp";
        as.metadataPath = "/.well-known/openid-configuration";
        assertThat(driver.post(open(code()), as.mcp())).isEqualTo(200);
        assertThat(as.authorizeQueries.getFirst()).containsEntry("resource", as.base);
    }

    @Test
    void headerMetadataUrlAndOpenIdConfigurationAppendedToTheIssuerPath() throws Exception {
        as.prmPath = "/custom/metadata/location.json";
        as.issuerPath = "/tenant1";
        as.metadataPath = "/tenant1/.well-known/openid-configuration";
        assertThat(driver.post(open(code()), as.mcp())).isEqualTo(200);
        assertThat(gets()).containsExactly("/custom/metadata/location.json",
                "/.well-known/oauth-authorization-server/tenant1", "/.well-known/openid-configuration/tenant1",
                "/tenant1/.well-known/openid-configuration");
    }

    @Test
    void openIdConfigurationAtTheRootWhenThereIsNoOAuthDocument() throws Exception {
        as.prmInHeader = false;
        as.metadataPath = "/.well-known/openid-configuration";
        assertThat(driver.post(open(code()), as.mcp())).isEqualTo(200);
        assertThat(gets()).containsExactly("/.well-known/oauth-protected-resource/mcp",
                "/.well-known/oauth-authorization-server", "/.well-known/openid-configuration");
    }

    @Test
    void metadataNamingAnotherIssuerIsRefusedBeforeAnyRegistrationOrAuthorization() {
        as.metadataIssuer = "https://attacker.example.com";
        McpOAuth oauth = open(code());
        assertThatThrownBy(() -> driver.post(oauth, as.mcp())).isInstanceOf(McpAuthorizationException.class)
                .hasMessageContaining("attacker.example.com").hasMessageContaining("refused");
        assertThat(as.registerRequests.get() + as.authorizeRequests.get() + as.tokenRequests.get()).isZero();
    }

    @Test
    void protectedResourceMetadataForAnotherServerIsRefused() {
        as.prmResource = "https://evil.example.com/mcp";
        McpOAuth oauth = open(code());
        assertThatThrownBy(() -> driver.post(oauth, as.mcp())).isInstanceOf(McpAuthorizationException.class)
                .hasMessageContaining("evil.example.com").hasMessageContaining("refused");
        assertThat(as.authorizeRequests.get() + as.tokenRequests.get()).isZero();
    }

    /**
     * Issue 26 (break test 14): a protected-resource document whose {@code resource} adds a trailing slash is for
     * another resource (RFC 9728 section 3.3: identical), and is refused like any other.
     */
    @Test
    void protectedResourceMetadataWithATrailingSlashAddedIsRefused() {
        as.prmResource = as.mcp() + "/";
        McpOAuth oauth = open(code());
        assertThatThrownBy(() -> driver.post(oauth, as.mcp())).isInstanceOf(McpAuthorizationException.class)
                .hasMessageContaining("is for \"" + as.mcp() + "/\", not for the server").hasMessageContaining("refused");
        assertThat(as.authorizeRequests.get() + as.tokenRequests.get()).isZero();
    }

    /**
     * Issue 26 (break test 14): the challenge's resource_metadata URL answering a redirect is not followed (by
     * design), and the error the authorization ends with says so, not only what a later fallback found.
     */
    @Test
    void aRedirectingMetadataUrlIsNamedInTheErrorTheAuthorizationEndsWith() {
        as.prmUrl = as.base + "/moved/prm";
        as.redirectAt = "/moved/prm";
        as.prmPath = null; // nothing at the well-known URLs either: the 2025-03-26 fallback runs
        as.issuerPath = "/tenant1"; // and the origin's metadata names another issuer
        as.metadataPath = "/.well-known/oauth-authorization-server";
        McpOAuth oauth = open(code());
        assertThatThrownBy(() -> driver.post(oauth, as.mcp())).isInstanceOf(McpAuthorizationException.class)
                .hasMessageContaining("names the issuer")
                .hasMessageEndingWith("; during discovery, " + as.base + "/moved/prm answered HTTP 302, a redirect, which is "
                        + "not followed");
    }

    /**
     * Issue 26 (break test 14): a token answer this client refuses is said to be refused by the client, with the
     * reason, never "the authorization server refused the token request".
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            {"access_token":"a1","token_type":"Bearer","expires_in":-100}   | has a negative expires_in
            <html>maintenance</html>                                       | is not a JSON object
            {"access_token":"a1","token_type":"mac"}                        | has token_type "mac"
            {"access_token":"a1\\r\\nX-Injected: 1","token_type":"Bearer"}  | characters not allowed in an HTTP header
            """)
    void aTokenAnswerTheClientRefusesIsBlamedOnTheClient(String body, String reason) {
        as.tokenBody = body;
        McpOAuth oauth = open(code());
        assertThatThrownBy(() -> driver.post(oauth, as.mcp())).isInstanceOf(McpAuthorizationException.class)
                .hasMessageStartingWith("this client refused the answer to the token request at the authorization "
                        + "server \"" + as.issuer() + "\": the token response of the authorization server at ")
                .hasMessageContaining(reason)
                .hasMessageNotContaining("refused the token request");
    }

    @Test
    void legacyServerWithoutProtectedResourceMetadataUsesItsOriginMetadata() throws Exception {
        as.prmPath = null;
        assertThat(driver.post(open(code()), as.mcp())).isEqualTo(200);
        assertThat(gets()).containsExactly("/.well-known/oauth-protected-resource/mcp",
                "/.well-known/oauth-protected-resource", "/.well-known/oauth-authorization-server");
        assertThat(as.authorizeQueries.getFirst()).containsEntry("resource", as.base + "/mcp");
    }

    @Test
    void legacyServerWithoutAnyMetadataUsesTheDefaultEndpoints() throws Exception {
        as.prmPath = null;
        as.metadataPath = "/nowhere";
        as.iss = "omit";
        assertThat(driver.post(open(code()), as.mcp())).isEqualTo(200);
        assertThat(as.paths).containsSubsequence("POST /register", "GET /authorize", "POST /token", "POST /mcp");
    }

    @ParameterizedTest(name = "challenge={0} prm={1} as={2} -> {3}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            mcp:basic | mcp:a mcp:b           | -                          | mcp:basic
            -         | mcp:basic mcp:read mcp:write | -                   | mcp:basic mcp:read mcp:write
            -         | -                     | -                          | -
            -         | mcp:basic             | mcp:basic offline_access   | mcp:basic offline_access
            -         | mcp:basic mcp:read    | mcp:basic mcp:read         | mcp:basic mcp:read
            """)
    void scopeSelection(String challenge, String prm, String asScopes, String expected) throws Exception {
        as.challengeScope = challenge;
        as.prmScopes = prm == null ? null : Arrays.asList(prm.split(" "));
        as.asScopes = asScopes == null ? null : Arrays.asList(asScopes.split(" "));
        assertThat(driver.post(open(code()), as.mcp())).isEqualTo(200);
        assertThat(as.authorizeQueries.getFirst().get("scope")).isEqualTo(expected);
    }

    @Test
    void refreshTokenGrantRegisteredOnlyWhenOfferedAndWanted() throws Exception {
        as.grantTypes = List.of("authorization_code");
        assertThat(driver.post(open(code()), as.mcp())).isEqualTo(200);
        assertThat(as.registrations.getFirst().get("grant_types").toString()).isEqualTo("[\"authorization_code\"]");
    }

    @Test
    void stepUpAsksForTheUnionOfScopes() throws Exception {
        as.challengeScope = "mcp:basic";
        as.requiredScope = "mcp:write";
        assertThat(driver.post(open(code()), as.mcp())).isEqualTo(200);
        assertThat(as.authorizeQueries).extracting(q -> q.get("scope"))
                .containsExactly("mcp:basic", "mcp:basic mcp:write");
    }

    @Test
    void atMostThreeAuthorizationsPerRequest() throws Exception {
        as.alwaysInsufficient = true;
        assertThat(driver.post(open(code()), as.mcp())).isEqualTo(403);
        assertThat(as.authorizeRequests.get()).isEqualTo(3);
    }

    @Test
    void maxAuthorizationsBoundsTheSteps() {
        as.alwaysInsufficient = true;
        McpOAuth oauth = open(code().maxAuthorizations(1));
        assertThatThrownBy(() -> driver.post(oauth, as.mcp())).isInstanceOf(McpAuthorizationException.class)
                .hasMessageContaining("after 1 authorization");
        assertThat(as.authorizeRequests.get()).isEqualTo(1);
    }

    @ParameterizedTest(name = "advertised={0} iss={1} -> {2}")
    @CsvSource(delimiter = '|', textBlock = """
            true  | correct    | true
            false | omit       | true
            true  | omit       | false
            true  | wrong      | false
            false | wrong      | false
            true  | normalized | false
            """)
    void issChecks(boolean advertised, String iss, boolean accepted) throws Exception {
        as.issSupported = advertised;
        as.iss = iss;
        McpOAuth oauth = open(code());
        if (accepted) {
            assertThat(driver.post(oauth, as.mcp())).isEqualTo(200);
            assertThat(as.tokenRequests.get()).isEqualTo(1);
        } else {
            assertThatThrownBy(() -> driver.post(oauth, as.mcp())).isInstanceOf(McpAuthorizationException.class)
                    .hasMessageContaining("RFC 9207").hasMessageNotContaining("code-");
            assertThat(as.authorizeRequests.get()).isEqualTo(1);
            assertThat(as.tokenRequests.get()).isZero();
        }
    }

    @Test
    void refreshesAheadOfExpiryWithoutA401() throws Exception {
        TokenSet old = as.issue("mcp:basic", Instant.now().minusSeconds(10));
        store.saveTokens(as.base + "/mcp", old);
        assertThat(driver.post(open(code()), as.mcp())).isEqualTo(200);
        assertThat(as.refreshRequests.get()).isEqualTo(1);
        assertThat(as.authorizeRequests.get()).isZero();
        assertThat(as.mcpRequests.get()).isEqualTo(1);
        assertThat(as.tokenForms.getFirst()).containsEntry("grant_type", "refresh_token")
                .containsEntry("refresh_token", old.refreshToken()).containsEntry("resource", as.base + "/mcp");
        assertThat(store.tokens(as.base + "/mcp", as.issuer()).orElseThrow().accessToken())
                .isNotEqualTo(old.accessToken());
    }

    /**
     * Regression (the fleet test's deadline failures under load): callers whose token was still valid queued behind
     * the one caller refreshing it ahead of expiry, so one slow token request held up every request of the resource.
     * A still-valid token now goes as it is while the refresh runs; only an expired one waits for it.
     */
    @Test
    void aCallerWithAStillValidTokenDoesNotWaitForAnotherCallersRefreshAhead() throws Exception {
        as.expiresIn = 15; // refreshed a fifth of its life ahead: from 12 s on
        McpOAuth oauth = open(code());
        assertThat(driver.post(oauth, as.mcp())).isEqualTo(200);
        int tokenRequests = as.tokenRequests.get();
        Thread.sleep(12_300);
        CountDownLatch gate = new CountDownLatch(1);
        as.tokenGate = gate;
        try (var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            var refreshing = threads.submit(() -> driver.post(oauth, as.mcp()));
            long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
            while (as.tokenRequests.get() == tokenRequests && System.nanoTime() < until) {
                Thread.sleep(5);
            }
            assertThat(as.tokenRequests.get()).as("the first caller is at the token endpoint").isEqualTo(tokenRequests + 1);
            var other = threads.submit(() -> driver.post(oauth, as.mcp()));
            assertThat(other.get(10, java.util.concurrent.TimeUnit.SECONDS))
                    .as("sent with the still-valid token while the refresh waits at the gate").isEqualTo(200);
            assertThat(refreshing.isDone()).isFalse();
            gate.countDown();
            assertThat(refreshing.get(10, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(200);
        } finally {
            gate.countDown();
            as.tokenGate = null;
        }
        assertThat(as.refreshRequests.get()).isEqualTo(1);
    }

    @Test
    void aShortLivedTokenIsNotRefreshedRightAway() throws Exception {
        as.expiresIn = 60; // refreshed a fifth of its life ahead (12 s), not the usual 30 s
        McpOAuth oauth = open(code());
        assertThat(driver.post(oauth, as.mcp())).isEqualTo(200);
        assertThat(driver.post(oauth, as.mcp())).isEqualTo(200);
        assertThat(as.tokenRequests.get()).isEqualTo(1);
        assertThat(as.refreshRequests.get()).isZero();
    }

    @Test
    void refusedRefreshRemovesTheTokensAndAuthorizesAgain() throws Exception {
        TokenSet old = as.issue(null, Instant.now().minusSeconds(10));
        as.refresh.remove(old.refreshToken());
        store.saveTokens(as.base + "/mcp", old);
        assertThat(driver.post(open(code()), as.mcp())).isEqualTo(200);
        assertThat(as.refreshRequests.get()).isEqualTo(1);
        assertThat(as.authorizeRequests.get()).isEqualTo(1);
        assertThat(store.removes.get()).isEqualTo(1);
        assertThat(store.tokens(as.base + "/mcp", as.issuer()).orElseThrow()).isNotEqualTo(old);
    }

    /**
     * Regression: a kept registration the authorization server forgot ({@code invalid_client} on refresh) was reused,
     * so the authorization URL carried a dead {@code client_id}. Now it is removed with the refused tokens and the
     * authorization registers afresh.
     */
    @Test
    void aForgottenClientOnRefreshIsRemovedAndRegisteredAfresh() throws Exception {
        TokenSet old = as.issue(null, Instant.now().minusSeconds(10));
        ClientRegistration dead = new ClientRegistration(as.issuer(), "dead-client", null, "none", null);
        store.saveRegistration(dead);
        store.saveTokens(as.base + "/mcp", old);
        as.forgottenClients.add("dead-client");
        assertThat(driver.post(open(code()), as.mcp())).isEqualTo(200);
        assertThat(as.refreshRequests.get()).isZero(); // refused before the grant: invalid_client
        assertThat(as.tokenForms.getFirst()).containsEntry("grant_type", "refresh_token")
                .containsEntry("client_id", "dead-client");
        assertThat(as.registerRequests.get()).isEqualTo(1);
        assertThat(as.authorizeQueries).singleElement()
                .satisfies(q -> assertThat(q).containsEntry("client_id", "dcr-client"));
        assertThat(store.registration(as.issuer()).orElseThrow().clientId()).isEqualTo("dcr-client");
        assertThat(store.tokens(as.base + "/mcp", as.issuer()).orElseThrow()).isNotEqualTo(old);
    }

    /** Regression: {@code invalid_client} on the code exchange removes the kept registration too. */
    @Test
    void aForgottenClientOnTheCodeExchangeIsRemoved() throws Exception {
        ClientRegistration dead = new ClientRegistration(as.issuer(), "dead-client", null, "none", null);
        store.saveRegistration(dead);
        as.forgottenClients.add("dead-client");
        McpOAuth oauth = open(code());
        assertThatThrownBy(() -> driver.post(oauth, as.mcp())).isInstanceOf(McpAuthorizationException.class)
                .hasMessageContaining("invalid_client");
        assertThat(store.registration(as.issuer())).isEmpty();
        // the next authorization registers afresh
        assertThat(driver.post(oauth, as.mcp())).isEqualTo(200);
        assertThat(as.registerRequests.get()).isEqualTo(1);
        assertThat(as.authorizeQueries.getLast()).containsEntry("client_id", "dcr-client");
    }

    @Test
    void refusedRefreshKeepsTokensAnotherProcessStoredMeanwhile() throws Exception {
        TokenSet old = as.issue(null, Instant.now().minusSeconds(10));
        TokenSet theirs = as.issue(null, Instant.now().plusSeconds(3600));
        store.saveTokens(as.base + "/mcp", old);
        // another process refreshes first (rotating the refresh token) and stores its result
        as.onRefresh = form -> {
            as.refresh.remove(old.refreshToken());
            store.saveTokens(as.base + "/mcp", theirs);
        };
        assertThat(driver.post(open(code()), as.mcp())).isEqualTo(200);
        assertThat(as.authorizeRequests.get()).isZero();
        assertThat(store.removes.get()).isZero();
        assertThat(store.tokens(as.base + "/mcp", as.issuer()).orElseThrow()).isEqualTo(theirs);
        assertThat(as.mcpAuthorization.getLast()).isEqualTo("Bearer " + theirs.accessToken());
    }

    @Test
    void refusedTokenIsRefreshedOnTheChallenge() throws Exception {
        TokenSet old = as.issue(null, Instant.now().plusSeconds(3600));
        as.access.remove(old.accessToken()); // revoked at the resource server
        store.saveTokens(as.base + "/mcp", old);
        assertThat(driver.post(open(code()), as.mcp())).isEqualTo(200);
        assertThat(as.refreshRequests.get()).isEqualTo(1);
        assertThat(as.authorizeRequests.get()).isZero();
    }

    @Test
    void dpopBoundTokensWithAResourceServerNonce() throws Exception {
        as.dpop = true;
        as.rsNonce = "rs-nonce-1";
        DpopKey key = DpopKey.generate();
        assertThat(driver.post(open(code().dpop(key)), as.mcp())).isEqualTo(200);
        assertThat(as.authorizeRequests.get()).isEqualTo(1);
        String auth = as.mcpAuthorization.getLast();
        assertThat(auth).startsWith("DPoP at-");
        String proof = as.mcpProofs.getLast();
        assertThat(FakeOAuth.claim(proof, "nonce")).isEqualTo("rs-nonce-1");
        assertThat(FakeOAuth.claim(proof, "htm")).isEqualTo("POST");
        assertThat(FakeOAuth.claim(proof, "htu")).isEqualTo(as.base + "/mcp");
        assertThat(FakeOAuth.claim(proof, "ath")).isEqualTo(FakeOAuth.s256(auth.substring(5)));
        assertThat(as.mcpProofs.stream().map(p -> FakeOAuth.claim(p, "jti")).distinct().count())
                .isEqualTo(as.mcpProofs.size());
        // the nonce retry and the authorization: one token request with a proof
        assertThat(as.tokenRequests.get()).isEqualTo(1);
    }

    @Test
    void dpopKeyWithAServerThatDoesNotOfferDpopSendsNoProofAndUsesBearerTokens() throws Exception {
        // the metadata lists no dpop_signing_alg_values_supported: the key stays unused, tokens are Bearer
        assertThat(driver.post(open(code().dpop(DpopKey.generate())), as.mcp())).isEqualTo(200);
        assertThat(as.tokenRequests.get()).isEqualTo(1);
        assertThat(as.tokenProofs).containsExactly("null");
        assertThat(as.mcpProofs).isEmpty();
        assertThat(as.mcpAuthorization.getLast()).startsWith("Bearer at-");
    }

    @Test
    void dpopKeyWithAServerThatOffersDpopProvesEveryTokenRequest() throws Exception {
        as.dpop = true;
        assertThat(driver.post(open(code().dpop(DpopKey.generate())), as.mcp())).isEqualTo(200);
        assertThat(as.tokenProofs).hasSize(1).noneMatch("null"::equals);
        assertThat(FakeOAuth.claim(as.tokenProofs.getFirst(), "htm")).isEqualTo("POST");
        assertThat(as.mcpAuthorization.getLast()).startsWith("DPoP at-");
    }

    @Test
    void aNonceChallengeWithoutANonceFailsWithoutReauthorizing() throws Exception {
        as.dpop = true;
        as.rsNonce = "rs-nonce-1";
        as.rsNonceHeader = false;
        assertThat(driver.post(open(code().dpop(DpopKey.generate())), as.mcp())).isEqualTo(401);
        assertThat(as.authorizeRequests.get()).isEqualTo(1);
        assertThat(as.mcpRequests.get()).isEqualTo(2);
    }

    @Test
    void movingToAnotherAuthorizationServerRegistersThereAfresh() throws Exception {
        as.issuerPath = "/as1";
        as.metadataPath = "/.well-known/oauth-authorization-server/as1";
        as.dcrClientId = "as1-client";
        McpOAuth oauth = open(code());
        assertThat(driver.post(oauth, as.mcp())).isEqualTo(200);
        as.issuerPath = "/as2";
        as.metadataPath = "/.well-known/oauth-authorization-server/as2";
        as.dcrClientId = "as2-client";
        as.access.clear();
        assertThat(driver.post(oauth, as.mcp())).isEqualTo(200);
        assertThat(as.registerRequests.get()).isEqualTo(2);
        assertThat(as.authorizeQueries).extracting(q -> q.get("client_id")).containsExactly("as1-client",
                "as2-client");
        assertThat(as.tokenForms.getLast()).containsEntry("client_id", "as2-client");
        assertThat(store.registration(as.base + "/as1")).isPresent();
        assertThat(store.registration(as.base + "/as2")).isPresent();
        // the refused tokens of the old server are gone (compare-and-delete), the new ones kept
        assertThat(store.issuers(as.base + "/mcp")).containsExactly(as.base + "/as2");
    }

    @Test
    void registrationAnswerDecidesTheTokenEndpointAuthentication() throws Exception {
        as.authMethods = List.of("client_secret_post");
        as.dcrMethod = "client_secret_post";
        assertThat(driver.post(open(code()), as.mcp())).isEqualTo(200);
        assertThat(as.registrations.getFirst().get("token_endpoint_auth_method").asString())
                .isEqualTo("client_secret_post");
        assertThat(as.tokenForms.getFirst()).containsEntry("client_secret", "dcr-secret-dcr-client");
        assertThat(as.tokenAuthorization.getFirst()).isNull();
    }

    @Test
    void preRegisteredClientSkipsRegistration() throws Exception {
        as.registration = false;
        as.authMethods = List.of("client_secret_basic");
        assertThat(driver.post(open(code().client("pre-registered-client",
                ClientAuthentication.clientSecretBasic("pre-registered-secret"))), as.mcp())).isEqualTo(200);
        assertThat(as.registerRequests.get()).isZero();
        assertThat(as.authorizeQueries.getFirst()).containsEntry("client_id", "pre-registered-client");
        assertThat(as.tokenAuthorization.getFirst()).startsWith("Basic ");
    }

    @Test
    void noRegistrationEndpointAndNoClientIsANamedFailure() {
        as.registration = false;
        McpOAuth oauth = open(code());
        assertThatThrownBy(() -> driver.post(oauth, as.mcp())).isInstanceOf(McpAuthorizationException.class)
                .hasMessageContaining("no dynamic client registration").hasMessageContaining("Builder.client");
    }

    @Test
    void clientMetadataDocumentUsedWhereSupported() throws Exception {
        as.cimd = true;
        URI doc = URI.create("https://app.example.com/client-metadata.json");
        assertThat(driver.post(open(code().clientMetadataDocument(doc)), as.mcp())).isEqualTo(200);
        assertThat(as.registerRequests.get()).isZero();
        assertThat(as.authorizeQueries.getFirst()).containsEntry("client_id", doc.toString());
    }

    @Test
    void clientMetadataDocumentIgnoredWhereUnsupported() throws Exception {
        URI doc = URI.create("https://app.example.com/client-metadata.json");
        assertThat(driver.post(open(code().clientMetadataDocument(doc)), as.mcp())).isEqualTo(200);
        assertThat(as.registerRequests.get()).isEqualTo(1);
    }

    @Test
    void clientCredentialsGrant() throws Exception {
        as.grantTypes = List.of("client_credentials");
        as.authMethods = List.of("client_secret_basic");
        as.prmScopes = List.of("mcp:svc");
        McpOAuth oauth = open(McpOAuth.newBuilder().clientCredentials().tokenStore(store)
                .client("svc", ClientAuthentication.clientSecretBasic("svc-secret")));
        assertThat(driver.post(oauth, as.mcp())).isEqualTo(200);
        assertThat(as.authorizeRequests.get() + as.registerRequests.get()).isZero();
        assertThat(as.tokenForms.getFirst()).containsEntry("grant_type", "client_credentials")
                .containsEntry("resource", as.base + "/mcp").containsEntry("scope", "mcp:svc");
        assertThat(as.tokenAuthorization.getFirst()).startsWith("Basic ");
    }

    static Stream<Arguments> grantChoice() {
        return Stream.of(
                // grant_types_supported of the authorization server, the grant used
                Arguments.of(List.of("client_credentials"), "client_credentials"),
                Arguments.of(List.of("client_credentials", "refresh_token"), "client_credentials"),
                Arguments.of(List.of("authorization_code", "refresh_token"), "authorization_code"),
                Arguments.of(List.of("authorization_code", "client_credentials"), "authorization_code"),
                Arguments.of(List.of(), "authorization_code"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("grantChoice")
    void withBothGrantsTheAuthorizationServerMetadataChooses(List<String> offered, String used) throws Exception {
        as.grantTypes = offered;
        as.registration = false;
        as.authMethods = List.of("client_secret_basic");
        for (boolean codeFirst : new boolean[] {true, false}) {
            as.tokenForms.clear();
            as.authorizeRequests.set(0);
            as.access.clear();
            McpOAuth.Builder b = McpOAuth.newBuilder().tokenStore(new MapStore())
                    .client("both", ClientAuthentication.clientSecret("both-secret"));
            if (codeFirst) {
                b.authorizationCode(AuthorizationCodeHandler.nonInteractive(REDIRECT)).clientCredentials();
            } else {
                b.clientCredentials().authorizationCode(AuthorizationCodeHandler.nonInteractive(REDIRECT));
            }
            assertThat(driver.post(open(b), as.mcp())).as("code first: %s", codeFirst).isEqualTo(200);
            assertThat(as.tokenForms).extracting(f -> f.get("grant_type")).containsExactly(used);
            assertThat(as.authorizeRequests.get()).isEqualTo("authorization_code".equals(used) ? 1 : 0);
        }
    }

    @Test
    void bothGrantsNeedAClientWithASecretAndLaterExclusiveGrantsReplaceThem() throws Exception {
        assertThatThrownBy(() -> code().clientCredentials().build()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("client-credentials grant needs client(id, authentication)");
        as.grantTypes = List.of("client_credentials");
        as.registration = false;
        McpOAuth oauth = open(code().clientCredentials().client("workload")
                .jwtBearer(AssertionSource.of("workload.jwt.token")));
        assertThat(oauth.toString()).contains("grant=jwt_bearer");
        assertThat(driver.post(oauth, as.mcp())).isEqualTo(200);
        assertThat(as.tokenForms.getFirst())
                .containsEntry("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer");
        assertThat(open(McpOAuth.newBuilder().jwtBearer(AssertionSource.of("x")).clientCredentials()
                .client("svc", ClientAuthentication.clientSecret("svc-secret"))).toString())
                .contains("grant=client_credentials,");
        assertThat(open(code().clientCredentials().client("svc", ClientAuthentication.clientSecret("svc-secret")))
                .toString()).contains("grant=authorization_code or client_credentials");
    }

    @Test
    void jwtBearerGrantWithAWorkloadToken() throws Exception {
        as.registration = false;
        McpOAuth oauth = open(McpOAuth.newBuilder().jwtBearer(AssertionSource.of("workload.jwt.token"))
                .tokenStore(store).client("workload"));
        assertThat(driver.post(oauth, as.mcp())).isEqualTo(200);
        assertThat(as.tokenForms.getFirst())
                .containsEntry("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer")
                .containsEntry("assertion", "workload.jwt.token");
    }

    /** Regression: {@code invalid_client} on the other grants' token request removes the kept registration too. */
    @Test
    void aForgottenClientOnAJwtBearerGrantIsRemoved() throws Exception {
        store.saveRegistration(new ClientRegistration(as.issuer(), "dead-client", null, "none", null));
        as.forgottenClients.add("dead-client");
        McpOAuth oauth = open(McpOAuth.newBuilder().jwtBearer(AssertionSource.of("workload.jwt.token"))
                .tokenStore(store));
        assertThatThrownBy(() -> driver.post(oauth, as.mcp())).isInstanceOf(McpAuthorizationException.class)
                .hasMessageContaining("invalid_client");
        assertThat(store.registration(as.issuer())).isEmpty();
        assertThat(driver.post(oauth, as.mcp())).isEqualTo(200);
        assertThat(as.registerRequests.get()).isEqualTo(1);
        assertThat(as.tokenForms.getLast()).containsEntry("client_id", "dcr-client");
    }

    @Test
    void logoutForgetsTheTokensAndCloseStopsTheProvider() throws Exception {
        McpOAuth oauth = open(code());
        assertThat(driver.post(oauth, as.mcp())).isEqualTo(200);
        assertThat(oauth.logout(as.mcp())).isEqualTo(1);
        assertThat(store.issuers(as.base + "/mcp")).isEmpty();
        assertThat(driver.post(oauth, as.mcp())).isEqualTo(200);
        assertThat(as.authorizeRequests.get()).isEqualTo(2);
        oauth.close();
        oauth.close();
        assertThatThrownBy(() -> oauth.credentials(new AuthorizationRequest(as.mcp(), "POST", as.mcp(), 0,
                dev.loommcp.Deadline.NONE))).isInstanceOf(McpAuthorizationException.class)
                .hasMessageContaining("closed");
        assertThat(oauth.toString()).contains("authorization_code").contains("closed");
    }

    @Test
    void noSecretInLogsOrMessages() throws Exception {
        McpOAuthFlowTest.class.getModule().addReads(ModuleLayer.boot().findModule("java.logging").orElseThrow());
        List<String> logged;
        List<String> messages = new ArrayList<>();
        try (LogRecorder rec = new LogRecorder()) {
            logged = rec.lines;
            as.authMethods = List.of("client_secret_post");
            as.dcrMethod = "client_secret_post";
            McpOAuth oauth = open(code());
            assertThat(driver.post(oauth, as.mcp())).isEqualTo(200);
            // a refused refresh, then a refused authorization response
            TokenSet old = as.issue(null, Instant.now().minusSeconds(10));
            as.refresh.remove(old.refreshToken());
            store.saveTokens(as.base + "/mcp", old);
            McpOAuth second = open(code());
            as.iss = "wrong";
            try {
                driver.post(second, as.mcp());
            } catch (McpAuthorizationException e) {
                for (Throwable t = e; t != null; t = t.getCause()) {
                    messages.add(String.valueOf(t));
                }
            }
            messages.add(oauth.toString());
            messages.add(String.valueOf(store.registration(as.issuer()).orElseThrow()));
            messages.add(old.toString());
        }
        assertThat(messages).anyMatch(m -> m.contains("RFC 9207"));
        assertThat(logged).isNotEmpty();
        List<String> secrets = new ArrayList<>(as.access.keySet());
        secrets.add("dcr-secret-dcr-client");
        for (Map<String, String> f : as.tokenForms) {
            for (String k : List.of("code", "code_verifier", "refresh_token", "client_secret")) {
                if (f.get(k) != null) {
                    secrets.add(f.get(k));
                }
            }
        }
        for (Map<String, String> q : as.authorizeQueries) {
            secrets.add(q.get("state"));
        }
        assertThat(secrets).hasSizeGreaterThan(6);
        for (String text : concat(logged, messages)) {
            for (String secret : secrets) {
                assertThat(text).as("a log line or message").doesNotContain(secret);
            }
        }
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
