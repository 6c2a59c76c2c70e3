package dev.loommcp.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.Deadline;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.transport.http.AuthChallenge;
import dev.loommcp.transport.http.AuthorizationFailure;
import dev.loommcp.transport.http.AuthorizationRequest;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Where McpOAuth may send: never through a client that follows redirects, https only (plain http on loopback hosts),
 * and only where {@code allowedDestinations} agrees; each refusal names the URL and the rule, and nothing is sent.
 */
@ExtendWith(LeakCheck.class)
class McpOAuthDestinationsTest {

    static final URI REDIRECT = URI.create("http://127.0.0.1:1/callback");

    FakeOAuth as;
    Driver driver;
    final List<McpOAuth> opened = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        as = new FakeOAuth();
        driver = new Driver();
    }

    @AfterEach
    void tearDown() {
        opened.forEach(McpOAuth::close);
        driver.close();
        as.close();
    }

    McpOAuth open(McpOAuth.Builder b) {
        McpOAuth o = b.build();
        opened.add(o);
        return o;
    }

    static McpOAuth.Builder code() {
        return McpOAuth.newBuilder().authorizationCode(AuthorizationCodeHandler.nonInteractive(REDIRECT));
    }

    // ---- item: a user HttpClient that follows redirects would resend the token request's body elsewhere

    @ParameterizedTest
    @EnumSource(value = HttpClient.Redirect.class, names = {"NORMAL", "ALWAYS"})
    void anHttpClientThatFollowsRedirectsIsRefused(HttpClient.Redirect redirect) {
        try (HttpClient following = HttpClient.newBuilder().followRedirects(redirect).build()) {
            assertThatThrownBy(() -> code().httpClient(following)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("followRedirects() is " + redirect).hasMessageContaining("must be NEVER")
                    .hasMessageContaining("client_secret");
        }
    }

    @Test
    void anHttpClientThatNeverFollowsRedirectsIsUsed() throws Exception {
        try (HttpClient never = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build()) {
            assertThat(driver.post(open(code().httpClient(never)), as.mcp())).isEqualTo(200);
        }
    }

    // ---- item: https for every authorization URL except on loopback hosts

    @Test
    void aProtectedResourceNamingAPlainHttpAuthorizationServerIsRefusedBeforeAnyRequestThere() {
        as.prmAuthServer = "http://as.example.com";
        McpOAuth oauth = open(code());
        assertThatThrownBy(() -> driver.post(oauth, as.mcp())).isInstanceOf(McpAuthorizationException.class)
                .hasMessageContaining("http://as.example.com").hasMessageContaining("https is required");
        assertThat(as.paths).containsExactly("POST /mcp", "GET /.well-known/oauth-protected-resource/mcp");
    }

    @Test
    void aPlainHttpTokenEndpointIsRefusedBeforeAnySecretOrCodeIsSent() {
        as.tokenEndpoint = "http://as.example.com/token";
        McpOAuth oauth = open(code());
        assertThatThrownBy(() -> driver.post(oauth, as.mcp())).isInstanceOf(McpAuthorizationException.class)
                .hasMessageContaining("token_endpoint http://as.example.com/token is refused")
                .hasMessageContaining("https is required");
        assertThat(as.registerRequests.get() + as.authorizeRequests.get() + as.tokenRequests.get()).isZero();
    }

    @Test
    void aPlainHttpResourceMetadataUrlInTheChallengeIsRefused() {
        as.prmUrl = "http://169.254.169.254/latest/meta-data";
        McpOAuth oauth = open(code());
        assertThatThrownBy(() -> driver.post(oauth, as.mcp())).isInstanceOf(McpAuthorizationException.class)
                .hasMessageContaining("resource_metadata http://169.254.169.254/latest/meta-data is refused")
                .hasMessageContaining("https is required");
        assertThat(as.paths).containsExactly("POST /mcp");
    }

    /** The MCP server on plain http elsewhere than loopback: its metadata and the token would travel in clear. */
    @Test
    void aPlainHttpMcpServerIsNeitherAuthorizedNorGivenATokenItHas() throws Exception {
        McpOAuth oauth = open(code().tokenStore(new MapStore()));
        URI plain = URI.create("http://mcp.example.com/mcp");
        oauth.tokenStore().saveTokens("http://mcp.example.com/mcp", new TokenSet("https://as.example.com", "at-1",
                "Bearer", null, null, null));
        AuthorizationRequest r = new AuthorizationRequest(plain, "POST", plain, 0,
                Deadline.after(Duration.ofSeconds(30)));
        assertThat(oauth.credentials(r)).isEmpty();
        HttpHeaders none = HttpHeaders.of(Map.of(), (a, b) -> true);
        assertThatThrownBy(() -> oauth.onChallenge(r, new AuthorizationFailure(401,
                AuthChallenge.parse(List.of("Bearer resource_metadata=\"https://mcp.example.com/prm\"")), none)))
                .isInstanceOf(McpAuthorizationException.class)
                .hasMessageContaining("http://mcp.example.com/mcp is refused")
                .hasMessageContaining("https is required");
    }

    // ---- item: allowedDestinations restricts every request, names the URL refused

    @Test
    void allowedDestinationsRefusesTheFirstDiscoveryRequestAndNamesIt() {
        List<URI> asked = new CopyOnWriteArrayList<>();
        McpOAuth oauth = open(code().allowedDestinations(u -> {
            asked.add(u);
            return false;
        }));
        assertThatThrownBy(() -> driver.post(oauth, as.mcp())).isInstanceOf(McpAuthorizationException.class)
                .hasMessageContaining("the request to " + as.base + "/.well-known/oauth-protected-resource/mcp")
                .hasMessageContaining("refused by allowedDestinations");
        assertThat(asked).containsExactly(URI.create(as.base + "/.well-known/oauth-protected-resource/mcp"));
        assertThat(as.paths).containsExactly("POST /mcp");
    }

    @Test
    void allowedDestinationsSeesEveryRequestIncludingTheAuthorizationUrl() throws Exception {
        List<String> asked = new CopyOnWriteArrayList<>();
        McpOAuth oauth = open(code().allowedDestinations(u -> asked.add(u.getPath())));
        assertThat(driver.post(oauth, as.mcp())).isEqualTo(200);
        assertThat(asked).containsExactly("/.well-known/oauth-protected-resource/mcp",
                "/.well-known/oauth-authorization-server", "/register", "/authorize", "/token");
    }

    @Test
    void allowedDestinationsRefusingTheAuthorizationUrlStopsItBeforeTheHandler() {
        List<URI> handed = new CopyOnWriteArrayList<>();
        AuthorizationCodeHandler recording = new AuthorizationCodeHandler() {
            @Override
            public URI redirectUri() {
                return REDIRECT;
            }

            @Override
            public URI authorize(URI url, String state, Deadline deadline) {
                handed.add(url);
                throw new IllegalStateException("must not be called");
            }
        };
        McpOAuth oauth = open(McpOAuth.newBuilder().authorizationCode(recording)
                .allowedDestinations(u -> !u.getPath().endsWith("/authorize")));
        assertThatThrownBy(() -> driver.post(oauth, as.mcp())).isInstanceOf(McpAuthorizationException.class)
                .hasMessageContaining("the authorization request to " + as.base + "/authorize")
                .hasMessageContaining("refused by allowedDestinations");
        assertThat(handed).isEmpty();
        assertThat(as.authorizeRequests.get() + as.tokenRequests.get()).isZero();
    }

    @Test
    void aFailingPredicateFailsTheAuthorizationWithItsCause() {
        IllegalStateException boom = new IllegalStateException("resolver down");
        McpOAuth oauth = open(code().allowedDestinations(u -> {
            throw boom;
        }));
        assertThatThrownBy(() -> driver.post(oauth, as.mcp())).isInstanceOf(McpAuthorizationException.class)
                .hasMessageContaining("allowedDestinations failed (IllegalStateException: resolver down)").hasCause(boom);
    }

    /** The example of {@link McpOAuth.Builder#allowedDestinations}'s Javadoc, verbatim. */
    static final Predicate<URI> PUBLIC_ADDRESSES_ONLY = uri -> {
        try {
            for (InetAddress a : InetAddress.getAllByName(uri.getHost())) {
                if (a.isLoopbackAddress() || a.isLinkLocalAddress() || a.isSiteLocalAddress()
                        || a.isAnyLocalAddress() || a.isMulticastAddress()
                        || (a instanceof Inet6Address && (a.getAddress()[0] & 0xfe) == 0xfc)) { // fc00::/7
                    return false;
                }
            }
            return true;
        } catch (UnknownHostException e) {
            return false;
        }
    };

    @Test
    void theDocumentedExampleRefusesLoopbackLinkLocalAndPrivateAddresses() {
        for (String refused : List.of("http://127.0.0.1/x", "https://169.254.169.254/latest", "https://10.1.2.3/x",
                "https://192.168.0.1/x", "https://172.16.0.1/x", "https://[fd00::1]/x", "https://[fe80::1]/x",
                "https://[::1]/x", "https://0.0.0.0/x")) {
            assertThat(PUBLIC_ADDRESSES_ONLY.test(URI.create(refused))).as(refused).isFalse();
        }
        for (String allowed : List.of("https://93.184.215.14/x", "https://[2606:4700::1111]/x")) {
            assertThat(PUBLIC_ADDRESSES_ONLY.test(URI.create(allowed))).as(allowed).isTrue();
        }
        McpOAuth oauth = open(code().allowedDestinations(PUBLIC_ADDRESSES_ONLY));
        assertThatThrownBy(() -> driver.post(oauth, as.mcp())).isInstanceOf(McpAuthorizationException.class)
                .hasMessageContaining(as.base + "/.well-known/oauth-protected-resource/mcp")
                .hasMessageContaining("refused by allowedDestinations");
        assertThat(as.paths).containsExactly("POST /mcp");
    }
}
