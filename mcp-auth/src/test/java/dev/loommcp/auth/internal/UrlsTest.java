package dev.loommcp.auth.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** URL orders (RFC 9728, RFC 8414 / OIDC as MCP orders them), canonical resources and the resource check. */
class UrlsTest {

    @ParameterizedTest(name = "{0} + header {1}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            https://mcp.example.com/mcp       | -                                             | https://mcp.example.com/.well-known/oauth-protected-resource/mcp https://mcp.example.com/.well-known/oauth-protected-resource
            https://mcp.example.com/mcp/      | -                                             | https://mcp.example.com/.well-known/oauth-protected-resource/mcp https://mcp.example.com/.well-known/oauth-protected-resource
            https://mcp.example.com/a/b       | -                                             | https://mcp.example.com/.well-known/oauth-protected-resource/a/b https://mcp.example.com/.well-known/oauth-protected-resource
            https://mcp.example.com           | -                                             | https://mcp.example.com/.well-known/oauth-protected-resource
            https://mcp.example.com/          | -                                             | https://mcp.example.com/.well-known/oauth-protected-resource
            HTTPS://MCP.example.com:443/mcp   | -                                             | https://mcp.example.com/.well-known/oauth-protected-resource/mcp https://mcp.example.com/.well-known/oauth-protected-resource
            http://localhost:3000/mcp         | http://localhost:3000/custom/meta.json        | http://localhost:3000/custom/meta.json http://localhost:3000/.well-known/oauth-protected-resource/mcp http://localhost:3000/.well-known/oauth-protected-resource
            http://localhost:3000/mcp         | http://localhost:3000/.well-known/oauth-protected-resource/mcp | http://localhost:3000/.well-known/oauth-protected-resource/mcp http://localhost:3000/.well-known/oauth-protected-resource
            """)
    void protectedResourceMetadataOrder(String endpoint, String header, String expected) {
        List<URI> urls = Urls.protectedResourceMetadataUrls(URI.create(endpoint),
                header == null ? null : URI.create(header));
        assertThat(urls).map(URI::toString).containsExactly(expected.split(" "));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            https://auth.example.com            | https://auth.example.com/.well-known/oauth-authorization-server https://auth.example.com/.well-known/openid-configuration
            https://auth.example.com/           | https://auth.example.com/.well-known/oauth-authorization-server https://auth.example.com/.well-known/openid-configuration
            http://localhost:9000               | http://localhost:9000/.well-known/oauth-authorization-server http://localhost:9000/.well-known/openid-configuration
            https://auth.example.com/tenant1    | https://auth.example.com/.well-known/oauth-authorization-server/tenant1 https://auth.example.com/.well-known/openid-configuration/tenant1 https://auth.example.com/tenant1/.well-known/openid-configuration
            https://auth.example.com/tenant1/   | https://auth.example.com/.well-known/oauth-authorization-server/tenant1 https://auth.example.com/.well-known/openid-configuration/tenant1 https://auth.example.com/tenant1/.well-known/openid-configuration
            https://auth.example.com/a/b        | https://auth.example.com/.well-known/oauth-authorization-server/a/b https://auth.example.com/.well-known/openid-configuration/a/b https://auth.example.com/a/b/.well-known/openid-configuration
            """)
    void authorizationServerMetadataOrder(String issuer, String expected) {
        assertThat(Urls.authorizationServerMetadataUrls(URI.create(issuer))).map(URI::toString)
                .containsExactly(expected.split(" "));
    }

    @ParameterizedTest(name = "{0} for {1}: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            http://localhost:3000/mcp           | http://localhost:3000/mcp     | true
            http://localhost:3000               | http://localhost:3000/mcp     | true
            http://localhost:3000/              | http://localhost:3000/mcp     | true
            HTTP://LOCALHOST:3000/mcp           | http://localhost:3000/mcp     | true
            https://mcp.example.com:443/mcp     | https://mcp.example.com/mcp   | true
            http://localhost:3000/mcp/          | http://localhost:3000/mcp     | false
            http://localhost:3000/mcp           | http://localhost:3000/mcp/    | true
            http://localhost:3000/mcp/          | http://localhost:3000/mcp/    | true
            http://localhost:3000/a/            | http://localhost:3000/a/mcp   | true
            http://localhost:3000/a             | http://localhost:3000/a/mcp   | true
            http://localhost:3000/mcp//         | http://localhost:3000/mcp     | false
            http://localhost:3000/mc            | http://localhost:3000/mcp     | false
            http://localhost:3000/mcp/sub       | http://localhost:3000/mcp     | false
            https://evil.example.com/mcp        | http://localhost:3000/mcp     | false
            http://localhost:3001/mcp           | http://localhost:3000/mcp     | false
            https://localhost:3000/mcp          | http://localhost:3000/mcp     | false
            http://localhost:3000/mcp#frag      | http://localhost:3000/mcp     | false
            urn:example:mcp                     | http://localhost:3000/mcp     | false
            not a uri                           | http://localhost:3000/mcp     | false
            """)
    void resourceMatches(String resource, String endpoint, boolean expected) {
        assertThat(Urls.resourceMatches(resource, URI.create(endpoint))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            HTTPS://MCP.Example.COM/Mcp         | https://mcp.example.com/Mcp
            https://mcp.example.com:443/mcp     | https://mcp.example.com/mcp
            http://mcp.example.com:80/mcp       | http://mcp.example.com/mcp
            http://localhost:3000/mcp#x         | http://localhost:3000/mcp
            http://localhost:3000/mcp?a=b       | http://localhost:3000/mcp?a=b
            http://localhost:3000               | http://localhost:3000
            """)
    void canonicalResource(String endpoint, String expected) {
        assertThat(Urls.canonicalResource(URI.create(endpoint))).isEqualTo(expected);
    }

    @Test
    void canonicalResourceRefusesOtherSchemes() {
        assertThatThrownBy(() -> Urls.canonicalResource(URI.create("ftp://x/y")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("http(s)");
    }

    @Test
    void queryBuildingAndParsingRoundTrip() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("a", "x y&z=é");
        p.put("skip", null);
        p.put("b", "http://h/p?q=1");
        URI u = Urls.withQuery(URI.create("https://as.example.com/authorize?tenant=t1#frag"), p);
        assertThat(u.toString()).startsWith("https://as.example.com/authorize?tenant=t1&a=").doesNotContain("#")
                .doesNotContain("skip");
        assertThat(Urls.queryParameters(u)).containsExactly(Map.entry("tenant", "t1"), Map.entry("a", "x y&z=é"),
                Map.entry("b", "http://h/p?q=1"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            https://app.example.com/client.json | true
            http://localhost:8080/client.json   | true
            http://127.0.0.1/c                  | true
            http://app.example.com/client.json  | false
            http://127.evil.example/client.json | false
            https://app.example.com             | false
            https://app.example.com/            | false
            https://app.example.com/c#f         | false
            /relative/client.json               | false
            """)
    void metadataDocumentUrl(String url, boolean ok) {
        if (ok) {
            assertThat(Urls.checkMetadataDocumentUrl(URI.create(url))).hasToString(url);
        } else {
            assertThatThrownBy(() -> Urls.checkMetadataDocumentUrl(URI.create(url)))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    /** Server-sent URLs: https, or plain http only on a loopback host (OAuth 2.1 section 1.5), named when refused. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            https://as.example.com/t         | true
            http://127.0.0.1:9/t             | true
            http://localhost/t               | true
            http://[::1]:9/t                 | true
            http://as.example.com/t          | false
            http://127.evil.example/t        | false
            http://169.254.169.254/latest    | false
            """)
    void serverUrlsMustBeHttpsExceptOnLoopback(String url, boolean ok) {
        if (ok) {
            assertThat(Urls.httpUrl(url, "its token_endpoint")).hasToString(url);
        } else {
            assertThatThrownBy(() -> Urls.httpUrl(url, "its token_endpoint"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("its token_endpoint " + url + " is refused")
                    .hasMessageContaining("https is required (plain http only on a loopback host");
        }
    }
}
