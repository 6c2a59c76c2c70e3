package dev.loommcp.auth.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.auth.AuthorizationCodeHandler;
import dev.loommcp.auth.ClientAuthentication;
import dev.loommcp.auth.ClientRegistration;
import dev.loommcp.auth.InMemoryTokenStore;
import dev.loommcp.auth.McpAuthorizationException;
import dev.loommcp.Deadline;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.node.ObjectNode;

/** Client identity rules: the registration request, the method asked for, and what a registration maps to. */
class ClientIdentityTest {

    static OAuthConfig config(String grant, boolean offline, String clientId, URI cimd) {
        return new OAuthConfig(grant, "client_credentials".equals(grant), AuthorizationCodeHandler.nonInteractive(URI.create("http://127.0.0.1:1/cb")),
                null, null, clientId, clientId == null ? null : ClientAuthentication.none(), cimd, "loom-test",
                "native", null, offline, null, new InMemoryTokenStore(), null, Duration.ofSeconds(5),
                Duration.ofSeconds(5), 3, null);
    }

    static AuthServerMetadata as(String grants, String methods, boolean cimd, boolean registration) {
        return new AuthServerMetadata("https://as.example.com", URI.create("https://as.example.com/authorize"),
                URI.create("https://as.example.com/token"),
                registration ? URI.create("https://as.example.com/register") : null,
                grants.isEmpty() ? List.of() : Arrays.asList(grants.split(" ")),
                methods.isEmpty() ? List.of() : Arrays.asList(methods.split(" ")), List.of(), List.of("S256"), cimd,
                true, List.of(), null);
    }

    @ParameterizedTest(name = "{0} offline={1} as grants=[{2}] -> {3}")
    @CsvSource(delimiter = '|', textBlock = """
            authorization_code | true  | authorization_code refresh_token | ["authorization_code","refresh_token"]
            authorization_code | false | authorization_code refresh_token | ["authorization_code"]
            authorization_code | true  | authorization_code               | ["authorization_code"]
            authorization_code | true  | ''                               | ["authorization_code"]
            jwt_bearer         | true  | ''                               | ["urn:ietf:params:oauth:grant-type:jwt-bearer"]
            enterprise_managed | true  | ''                               | ["urn:ietf:params:oauth:grant-type:jwt-bearer"]
            """)
    void registrationGrantTypes(String grant, boolean offline, String asGrants, String expected) {
        try (AuthHttp http = new AuthHttp(null, Duration.ofSeconds(5))) {
            ClientIdentity id = new ClientIdentity(config(grant, offline, null, null), http);
            URI redirect = "authorization_code".equals(grant) ? URI.create("http://127.0.0.1:1/cb") : null;
            ObjectNode body = id.registrationRequest(as(asGrants, "", false, true), redirect);
            assertThat(body.get("grant_types").toString()).isEqualTo(expected);
            assertThat(body.get("application_type").asString()).isEqualTo("native");
            assertThat(body.get("client_name").asString()).isEqualTo("loom-test");
            assertThat(body.has("redirect_uris")).isEqualTo(redirect != null);
        }
    }

    @ParameterizedTest(name = "[{0}] -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            ''                                          | none
            none                                        | none
            client_secret_basic none                    | none
            client_secret_basic                         | client_secret_basic
            client_secret_post                          | client_secret_post
            private_key_jwt client_secret_post          | client_secret_post
            private_key_jwt                             | none
            """)
    void methodAskedFor(String methods, String expected) {
        assertThat(ClientIdentity.requestedMethod(as("", methods, false, true))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} secret={1} -> {2}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            none                | -  | None
            client_secret_basic | s1 | SecretBasic
            client_secret_post  | s1 | SecretPost
            """)
    void registrationToAuthentication(String method, String secret, String expected) {
        ClientRegistration r = new ClientRegistration("https://as.example.com", "c1", secret, method, null);
        ClientIdentity.Client c = ClientIdentity.fromRegistration(r);
        assertThat(c.clientId()).isEqualTo("c1");
        assertThat(c.authentication().getClass().getSimpleName()).isEqualTo(expected);
        assertThat(c.toString()).doesNotContain("s1");
    }

    @Test
    void preRegisteredThenMetadataDocumentThenKeptRegistration() throws Exception {
        try (AuthHttp http = new AuthHttp(null, Duration.ofSeconds(5))) {
            Deadline d = Deadline.after(Duration.ofSeconds(5));
            URI redirect = URI.create("http://127.0.0.1:1/cb");
            assertThat(new ClientIdentity(config("authorization_code", true, "pre", URI.create(
                    "https://app.example.com/c.json")), http).resolve(as("", "", true, true), redirect, d)
                    .clientId()).isEqualTo("pre");
            OAuthConfig cimd = config("authorization_code", true, null, URI.create("https://app.example.com/c.json"));
            assertThat(new ClientIdentity(cimd, http).resolve(as("", "", true, true), redirect, d).clientId())
                    .isEqualTo("https://app.example.com/c.json");
            OAuthConfig kept = config("authorization_code", true, null, null);
            kept.tokenStore().saveRegistration(new ClientRegistration("https://as.example.com", "kept", null, "none",
                    null));
            assertThat(new ClientIdentity(kept, http).resolve(as("", "", true, true), redirect, d).clientId())
                    .isEqualTo("kept");
            OAuthConfig nothing = config("authorization_code", true, null, null);
            assertThatThrownBy(() -> new ClientIdentity(nothing, http).resolve(as("", "", false, false), redirect, d))
                    .isInstanceOf(McpAuthorizationException.class)
                    .hasMessageContaining("no dynamic client registration");
        }
    }
}
