package dev.loommcp.auth.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.auth.McpAuthorizationException;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Reading and checking protected-resource and authorization-server metadata documents. */
class DiscoveryTest {

    static final URI ENDPOINT = URI.create("http://localhost:3000/mcp");
    static final URI AT = URI.create("http://localhost:3000/.well-known/oauth-protected-resource/mcp");

    @Test
    void protectedResourceKeepsTheResourceStringAsSent() {
        Discovery.ProtectedResource p = Discovery.parseProtectedResource(AuthHttp.JSON.readTree("""
                {"resource":"http://localhost:3000","authorization_servers":["https://as/t1","https://as2"],
                 "scopes_supported":["a","b",3]}"""), AT, ENDPOINT);
        assertThat(p.resource()).isEqualTo("http://localhost:3000");
        assertThat(p.authorizationServers()).containsExactly("https://as/t1", "https://as2");
        assertThat(p.scopesSupported()).containsExactly("a", "b");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            []                                                                         | not a JSON object
            {}                                                                         | has no resource
            {"resource":7,"authorization_servers":["https://as"]}                       | has no resource
            {"resource":"https://evil.example.com/mcp","authorization_servers":["https://as"]} | "https://evil.example.com/mcp", not for the server
            {"resource":"http://localhost:3000/other","authorization_servers":["https://as"]}  | not for the server
            {"resource":"http://localhost:3000/mcp"}                                   | names no authorization server
            {"resource":"http://localhost:3000/mcp","authorization_servers":[]}        | names no authorization server
            """)
    void protectedResourceRefusals(String json, String message) {
        assertThatThrownBy(() -> Discovery.parseProtectedResource(AuthHttp.JSON.readTree(json), AT, ENDPOINT))
                .isInstanceOf(McpAuthorizationException.class).hasMessageContaining(message)
                .hasMessageContaining("/.well-known/oauth-protected-resource/mcp");
    }

    @Test
    void authServerMetadataFields() {
        AuthServerMetadata m = Discovery.parseAuthServer(AuthHttp.JSON.readTree("""
                {"issuer":"https://as/t1","authorization_endpoint":"https://as/t1/authorize",
                 "token_endpoint":"https://as/t1/token","grant_types_supported":["authorization_code"],
                 "token_endpoint_auth_methods_supported":["none"],"scopes_supported":["offline_access"],
                 "code_challenge_methods_supported":["S256"],"client_id_metadata_document_supported":true,
                 "authorization_response_iss_parameter_supported":true,
                 "dpop_signing_alg_values_supported":["ES256"]}"""), URI.create("https://as/x"), "https://as/t1");
        assertThat(m.issuer()).isEqualTo("https://as/t1");
        assertThat(m.registrationEndpoint()).isNull();
        assertThat(m.tokenEndpoint()).hasToString("https://as/t1/token");
        assertThat(m.clientIdMetadataDocumentSupported()).isTrue();
        assertThat(m.issParameterSupported()).isTrue();
        assertThat(m.scopesSupported()).containsExactly("offline_access");
        assertThat(m.dpopSigningAlgValuesSupported()).containsExactly("ES256");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            {"issuer":"https://attacker.example.com","token_endpoint":"https://as/token"} | names the issuer "https://attacker.example.com", not "https://as"
            {"issuer":"https://as/","token_endpoint":"https://as/token"}                  | names the issuer "https://as/", not "https://as"
            {"issuer":"HTTPS://AS","token_endpoint":"https://as/token"}                   | names the issuer
            {"token_endpoint":"https://as/token"}                                        | names the issuer (none)
            {"issuer":"https://as"}                                                      | has no token_endpoint
            {"issuer":"https://as","token_endpoint":5}                                   | not a string
            {"issuer":"https://as","token_endpoint":"/token"}                            | not an absolute http(s) URI
            {"issuer":"https://as","token_endpoint":"http://as/token"}                   | its token_endpoint http://as/token is refused: https is required
            {"issuer":"https://as","token_endpoint":"https://as/t","authorization_endpoint":"http://as/a"} | its authorization_endpoint http://as/a is refused: https is required
            {"issuer":"https://as","token_endpoint":"https://as/t","registration_endpoint":"http://10.0.0.1/r"} | its registration_endpoint http://10.0.0.1/r is refused: https is required
            {"issuer":"https://as","token_endpoint":"http://127.evil.example/t"}          | http://127.evil.example/t is refused
            "text"                                                                      | not a JSON object
            """)
    void authServerRefusals(String json, String message) {
        assertThatThrownBy(() -> Discovery.parseAuthServer(AuthHttp.JSON.readTree(json),
                URI.create("https://as/.well-known/oauth-authorization-server"), "https://as"))
                .isInstanceOf(McpAuthorizationException.class).hasMessageContaining(message);
    }

    @Test
    void defaultEndpointsOfTheOrigin() {
        AuthServerMetadata m = Discovery.defaultEndpoints("http://localhost:3000");
        assertThat(m.issuer()).isEqualTo("http://localhost:3000");
        assertThat(m.authorizationEndpoint()).hasToString("http://localhost:3000/authorize");
        assertThat(m.tokenEndpoint()).hasToString("http://localhost:3000/token");
        assertThat(m.registrationEndpoint()).hasToString("http://localhost:3000/register");
        assertThat(m.issParameterSupported()).isFalse();
    }
}
