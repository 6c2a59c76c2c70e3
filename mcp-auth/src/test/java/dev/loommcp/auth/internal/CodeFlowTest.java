package dev.loommcp.auth.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.auth.McpAuthorizationException;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** PKCE S256, the authorization request URL and the redirect check (state, RFC 9207 iss table). */
class CodeFlowTest {

    static final String ISSUER = "http://localhost:38287";

    static AuthServerMetadata as(boolean issSupported, List<String> pkceMethods) {
        return new AuthServerMetadata(ISSUER, URI.create(ISSUER + "/authorize"), URI.create(ISSUER + "/token"), null,
                List.of(), List.of(), List.of(), pkceMethods, false, issSupported, List.of(), null);
    }

    @Test
    void pkceS256MatchesRfc7636AppendixB() {
        assertThat(CodeFlow.s256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
                .isEqualTo("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
        CodeFlow.Pkce p = CodeFlow.Pkce.create();
        assertThat(p.verifier()).hasSize(43).matches("[A-Za-z0-9_-]+");
        assertThat(p.challenge()).isEqualTo(CodeFlow.s256(p.verifier()));
        assertThat(p.toString()).doesNotContain(p.verifier());
        assertThat(CodeFlow.Pkce.create().verifier()).isNotEqualTo(p.verifier());
        assertThat(CodeFlow.newState()).isNotEqualTo(CodeFlow.newState());
    }

    @Test
    void authorizationUrlCarriesEveryParameter() {
        CodeFlow.Pkce p = CodeFlow.Pkce.create();
        URI u = CodeFlow.authorizationUrl(as(true, List.of("S256")), "client 1", URI.create("http://127.0.0.1:5/cb"),
                "st", p, "http://localhost:3000/mcp", "mcp:basic mcp:write");
        assertThat(Urls.queryParameters(u)).containsExactly(Map.entry("response_type", "code"),
                Map.entry("client_id", "client 1"), Map.entry("redirect_uri", "http://127.0.0.1:5/cb"),
                Map.entry("state", "st"), Map.entry("code_challenge", p.challenge()),
                Map.entry("code_challenge_method", "S256"), Map.entry("resource", "http://localhost:3000/mcp"),
                Map.entry("scope", "mcp:basic mcp:write"));
        assertThat(u.toString()).doesNotContain(p.verifier());
        URI noScope = CodeFlow.authorizationUrl(as(true, List.of()), "c", URI.create("http://127.0.0.1:5/cb"), "st",
                p, "r", null);
        assertThat(Urls.queryParameters(noScope)).doesNotContainKey("scope");
    }

    @Test
    void authorizationUrlRefusesServersWithoutS256OrAuthorizationEndpoint() {
        CodeFlow.Pkce p = CodeFlow.Pkce.create();
        assertThatThrownBy(() -> CodeFlow.authorizationUrl(as(true, List.of("plain")), "c",
                URI.create("http://127.0.0.1:5/cb"), "st", p, "r", null))
                .isInstanceOf(McpAuthorizationException.class).hasMessageContaining("S256");
        AuthServerMetadata noAuthz = new AuthServerMetadata(ISSUER, null, URI.create(ISSUER + "/token"), null,
                List.of(), List.of(), List.of(), List.of(), false, false, List.of(), null);
        assertThatThrownBy(() -> CodeFlow.authorizationUrl(noAuthz, "c", URI.create("http://127.0.0.1:5/cb"), "st",
                p, "r", null)).isInstanceOf(McpAuthorizationException.class)
                .hasMessageContaining("authorization_endpoint");
    }

    /** RFC 9207 as MCP 2026-07-28 (SEP-2468) asks: exact comparison, advertised means required. */
    @ParameterizedTest(name = "advertised={0} iss={1} -> {2}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            true  | http://localhost:38287          | ok
            false | -                               | ok
            false | http://localhost:38287          | ok
            true  | -                               | no iss
            true  | https://evil.example.com        | names the issuer
            false | https://evil.example.com        | names the issuer
            true  | http://localhost:38287/         | names the issuer
            false | http://localhost:38287/         | names the issuer
            true  | HTTP://LOCALHOST:38287          | names the issuer
            true  | ''                              | names the issuer
            """)
    void issTable(boolean advertised, String iss, String outcome) {
        String q = "code=the-code&state=st" + (iss == null ? "" : "&iss=" + AuthHttp.formEncode(iss));
        URI redirect = URI.create("http://127.0.0.1:5/cb?" + q);
        if ("ok".equals(outcome)) {
            assertThat(CodeFlow.checkRedirect(redirect, "st", as(advertised, List.of("S256")))).isEqualTo("the-code");
        } else {
            assertThatThrownBy(() -> CodeFlow.checkRedirect(redirect, "st", as(advertised, List.of("S256"))))
                    .isInstanceOf(McpAuthorizationException.class).hasMessageContaining(outcome)
                    .hasMessageNotContaining("the-code");
        }
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            code=c1&iss=http%3A%2F%2Flocalhost%3A38287                    | no state
            code=c1&state=other&iss=http%3A%2F%2Flocalhost%3A38287        | another state
            state=st&iss=http%3A%2F%2Flocalhost%3A38287                   | no code
            error=access_denied&error_description=nope&state=st           | access_denied
            """)
    void redirectRefusals(String query, String message) {
        URI redirect = URI.create("http://127.0.0.1:5/cb?" + query);
        assertThatThrownBy(() -> CodeFlow.checkRedirect(redirect, "st", as(true, List.of())))
                .isInstanceOf(McpAuthorizationException.class).hasMessageContaining(message)
                .hasMessageNotContaining("c1");
    }
}
