package dev.loommcp.auth;

import dev.loommcp.transport.http.AuthorizationFailure;
import dev.loommcp.transport.http.AuthorizationProvider;
import dev.loommcp.transport.http.AuthorizationRequest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * The OAuth 2.1 client of MCP "Authorization" (2025-06-18 .. 2026-07-28, plus the 2025-03-26 fallbacks), as the
 * {@link AuthorizationProvider} of an {@link dev.loommcp.transport.http.HttpTransport}:
 *
 * <pre>{@code
 * try (LoopbackReceiver browser = LoopbackReceiver.open(url -> System.out.println("Open " + url))) {
 *     McpOAuth oauth = McpOAuth.newBuilder().authorizationCode(browser).build();
 *     HttpTransport transport = HttpTransport.newBuilder(URI.create("https://mcp.example.com/mcp"))
 *             .authorization(oauth).build();
 *     try (McpClient client = McpClient.connect(transport)) { ... }
 * }
 * }</pre>
 *
 * <p>What it does for a protected server (the transport's endpoint is the protected resource):
 * <ol>
 *   <li>Sends the stored access token (from {@link TokenStore}, per resource and issuer) on every request:
 *       {@code Authorization: Bearer}, or {@code Authorization: DPoP} with a fresh DPoP proof (RFC 9449) when a
 *       {@link Builder#dpop DPoP key} is set. A token about to expire is refreshed first.</li>
 *   <li>On 401: discovers the protected-resource metadata (RFC 9728: the challenge's {@code resource_metadata}, then
 *       the path-based and the root well-known URL) and refuses it unless its {@code resource} is this server; then
 *       the authorization server's metadata (RFC 8414 / OpenID discovery in the spec's order, the {@code issuer}
 *       compared exactly; for servers without protected-resource metadata the 2025-03-26 fallbacks). Then it
 *       refreshes, or runs the configured grant, and the transport sends the request again.</li>
 *   <li>Client identity per issuer: a pre-registered {@link Builder#client client}, else a
 *       {@link Builder#clientMetadataDocument client-ID metadata document} when the server supports them, else
 *       dynamic registration (RFC 7591).</li>
 *   <li>Grants: authorization code with PKCE S256, {@code state}, {@code resource} (RFC 8707) and RFC 9207
 *       {@code iss} checks; refresh; client credentials; JWT bearer (workload identity, RFC 7523); enterprise-managed
 *       authorization (RFC 8693 token exchange for an ID-JAG, then JWT bearer).</li>
 *   <li>Scopes: the challenge's {@code scope}, else every {@code scopes_supported} of the resource, else none;
 *       {@code offline_access} only when the authorization server offers it. On 403 {@code insufficient_scope} it
 *       re-authorizes with the union of the scopes held and asked (step-up), at most
 *       {@link Builder#maxAuthorizations} times per request.</li>
 *   <li>Concurrency: when many calls find the token expired or refused at once, one refresh or authorization runs and
 *       they all use its result (single flight per resource). Across processes sharing the {@link TokenStore} (the
 *       replicas of a backend on one database) a refresh runs only under the store's
 *       {@link TokenStore#leaseRefresh refresh lease}: a call whose token expired or was refused while another
 *       process holds it waits, within its request's deadline, for that process's tokens (then fails with
 *       {@link McpAuthorizationException}), so a rotated refresh token is never presented twice; a dynamic
 *       registration is kept with {@link TokenStore#registerIfAbsent put-if-absent}.</li>
 * </ol>
 *
 * <p>Every URL the provider sends to or hands to the user must be {@code https} (plain {@code http} only on a
 * loopback host: {@code localhost}, {@code 127.0.0.0/8}, {@code ::1}; OAuth 2.1 section 1.5): the MCP server itself
 * (no token is ever sent to a plain-http server elsewhere), its metadata URLs, the authorization server's issuer and
 * endpoints (authorization, token, registration), the enterprise IdP's token endpoint. A URL breaking the rule fails
 * the authorization with a {@link McpAuthorizationException} naming it and the rule.
 * {@link Builder#allowedDestinations} restricts the destinations further.
 *
 * <p>Secrets (tokens, client secrets, keys, codes, assertions) never appear in logs, exception messages,
 * {@code toString()} or URLs. Thread-safe; one instance may serve many transports and servers (tokens are kept per
 * resource).
 */
public final class McpOAuth implements AuthorizationProvider, AutoCloseable {

    private final dev.loommcp.auth.internal.OAuthEngine engine;

    private McpOAuth(Builder b) {
        this.engine = new dev.loommcp.auth.internal.OAuthEngine(b.config());
    }

    /**
     * Starts a builder.
     *
     * @return a builder with the defaults described on its methods
     */
    public static Builder newBuilder() {
        return new Builder();
    }

    /**
     * {@inheritDoc}
     *
     * @throws McpAuthorizationException if a token refresh was needed and failed for good
     */
    @Override
    public Map<String, String> credentials(AuthorizationRequest request) throws InterruptedException {
        return engine.credentials(request);
    }

    /**
     * {@inheritDoc}
     *
     * @throws McpAuthorizationException when the authorization cannot succeed (see that class)
     */
    @Override
    public boolean onChallenge(AuthorizationRequest request, AuthorizationFailure failure)
            throws InterruptedException {
        return engine.onChallenge(request, failure);
    }

    @Override
    public void onResponse(AuthorizationRequest request, int status, HttpHeaders headers) {
        engine.onResponse(request, status, headers);
    }

    /**
     * Forgets the tokens of a server (every issuer), in the token store. Client registrations stay.
     *
     * @param server the MCP endpoint (the protected resource)
     * @return how many token sets were removed
     * @throws NullPointerException if {@code server} is {@code null}
     */
    public int logout(URI server) {
        return engine.logout(Objects.requireNonNull(server, "server"));
    }

    /**
     * Returns the token store this provider keeps tokens and registrations in.
     *
     * @return the token store in use
     */
    public TokenStore tokenStore() {
        return engine.tokenStore();
    }

    /**
     * Releases what the provider owns: its HTTP client, unless one was {@linkplain Builder#httpClient given}.
     * Tokens stay in the store. Later requests fail with {@link McpAuthorizationException}. Idempotent.
     */
    @Override
    public void close() {
        engine.close();
    }

    @Override
    public String toString() {
        return "McpOAuth" + engine;
    }

    /**
     * Builds a {@link McpOAuth}. The grant: {@link #authorizationCode}, {@link #clientCredentials}, both of them, or
     * {@link #jwtBearer} or {@link #enterpriseManaged}. {@code authorizationCode} and {@code clientCredentials}
     * combine: with both, each authorization server's metadata decides (see {@link #clientCredentials}).
     * {@code jwtBearer} and {@code enterpriseManaged} replace every grant configured before them, and any later grant
     * call replaces them (the last call wins). Not thread-safe.
     */
    public static final class Builder {
        /** {@code jwt_bearer} or {@code enterprise_managed}, or {@code null} for code and/or client credentials. */
        String exclusiveGrant;
        boolean clientCredentials;
        AuthorizationCodeHandler codeHandler;
        AssertionSource assertion;
        EnterpriseIdp idp;
        String clientId;
        ClientAuthentication clientAuthentication;
        URI clientMetadataDocument;
        String clientName = "loom-mcp";
        String applicationType = "native";
        String scope;
        boolean offlineAccess = true;
        DpopKey dpopKey;
        TokenStore tokenStore;
        HttpClient httpClient;
        Duration requestTimeout = Duration.ofSeconds(30);
        Duration authorizationTimeout = Duration.ofMinutes(5);
        int maxAuthorizations = 3;
        Predicate<URI> allowedDestinations;

        private Builder() {
        }

        /**
         * Uses the authorization-code grant with PKCE (a user approves in a browser), through this handler. May be
         * combined with {@link #clientCredentials()} (see there); replaces {@link #jwtBearer} and
         * {@link #enterpriseManaged}.
         *
         * @param handler runs the authorization (see {@link LoopbackReceiver},
         *                {@link AuthorizationCodeHandler#nonInteractive})
         * @return this builder
         * @throws NullPointerException if {@code handler} is {@code null}
         */
        public Builder authorizationCode(AuthorizationCodeHandler handler) {
            this.codeHandler = Objects.requireNonNull(handler, "handler");
            this.exclusiveGrant = null;
            return this;
        }

        /**
         * Uses the client-credentials grant (no user: a service); needs {@link #client(String, ClientAuthentication)}
         * with a secret or a private key. Replaces {@link #jwtBearer} and {@link #enterpriseManaged}.
         *
         * <p>Combined with {@link #authorizationCode} (in either order), the grant is chosen per authorization server
         * from its metadata's {@code grant_types_supported}: client credentials when it lists
         * {@code client_credentials} and not {@code authorization_code} (a server for services only), else the
         * authorization code (also when it lists neither or publishes no metadata). So one configuration serves
         * both kinds of server with the same pre-registered client. Alone, client credentials is used whatever the
         * metadata says.
         *
         * @return this builder
         */
        public Builder clientCredentials() {
            this.clientCredentials = true;
            this.exclusiveGrant = null;
            return this;
        }

        /**
         * Uses the JWT-bearer grant (RFC 7523 section 2.1) with a workload identity token from {@code assertion}
         * (workload identity federation), instead of every grant configured before.
         *
         * @param assertion supplies the workload's signed identity token
         * @return this builder
         * @throws NullPointerException if {@code assertion} is {@code null}
         */
        public Builder jwtBearer(AssertionSource assertion) {
            this.assertion = Objects.requireNonNull(assertion, "assertion");
            exclusive("jwt_bearer");
            return this;
        }

        /**
         * Uses enterprise-managed authorization (SEP-990): the user's ID token is exchanged at the enterprise IdP for
         * an ID-JAG, presented to the MCP server's authorization server with the JWT-bearer grant. Replaces every
         * grant configured before.
         *
         * @param idp the identity provider
         * @return this builder
         * @throws NullPointerException if {@code idp} is {@code null}
         */
        public Builder enterpriseManaged(EnterpriseIdp idp) {
            this.idp = Objects.requireNonNull(idp, "idp");
            exclusive("enterprise_managed");
            return this;
        }

        /**
         * Uses a pre-registered public client ID (no registration).
         *
         * @param clientId the client ID
         * @return this builder
         * @throws NullPointerException if {@code clientId} is {@code null}
         */
        public Builder client(String clientId) {
            return client(clientId, ClientAuthentication.none());
        }

        /**
         * Uses pre-registered client credentials (no registration) at every authorization server.
         *
         * @param clientId       the client ID
         * @param authentication how the client authenticates at the token endpoint
         * @return this builder
         * @throws NullPointerException if an argument is {@code null}
         */
        public Builder client(String clientId, ClientAuthentication authentication) {
            this.clientId = Objects.requireNonNull(clientId, "clientId");
            this.clientAuthentication = Objects.requireNonNull(authentication, "authentication");
            return this;
        }

        /**
         * The URL of the client's client-ID metadata document (used as {@code client_id} where the authorization
         * server advertises {@code client_id_metadata_document_supported}; others get dynamic registration).
         *
         * @param url an https URL with a path
         * @return this builder
         * @throws NullPointerException     if {@code url} is {@code null}
         * @throws IllegalArgumentException if it is not an absolute https URL with a path (http is accepted for
         *                                  loopback hosts)
         */
        public Builder clientMetadataDocument(URI url) {
            this.clientMetadataDocument = dev.loommcp.auth.internal.Urls.checkMetadataDocumentUrl(url);
            return this;
        }

        /**
         * The {@code client_name} sent in dynamic registration. Default {@code loom-mcp}.
         *
         * @param name the name
         * @return this builder
         * @throws NullPointerException if {@code name} is {@code null}
         */
        public Builder clientName(String name) {
            this.clientName = Objects.requireNonNull(name, "name");
            return this;
        }

        /**
         * The {@code application_type} sent in dynamic registration: {@code native} (the default: desktop, CLI,
         * loopback redirect) or {@code web}.
         *
         * @param type {@code native} or {@code web}
         * @return this builder
         * @throws IllegalArgumentException if it is neither
         */
        public Builder applicationType(String type) {
            if (!"native".equals(type) && !"web".equals(type)) {
                throw new IllegalArgumentException("applicationType must be native or web");
            }
            this.applicationType = type;
            return this;
        }

        /**
         * A scope to request when neither the server's challenge nor its protected-resource metadata names one
         * (space-separated). Default none.
         *
         * @param scope the scope, or {@code null}
         * @return this builder
         */
        public Builder scope(@Nullable String scope) {
            this.scope = scope;
            return this;
        }

        /**
         * Whether to ask for refresh tokens: register the {@code refresh_token} grant and request
         * {@code offline_access} where the authorization server offers them. Default {@code true}.
         *
         * @param offlineAccess whether to
         * @return this builder
         */
        public Builder offlineAccess(boolean offlineAccess) {
            this.offlineAccess = offlineAccess;
            return this;
        }

        /**
         * Binds tokens to a DPoP key (RFC 9449) where the authorization server offers DPoP. Default none (bearer
         * tokens).
         *
         * <p>DPoP is used per authorization server, from its metadata: when its
         * {@code dpop_signing_alg_values_supported} lists {@code ES256} (the algorithm of {@link DpopKey}), every
         * token request carries a DPoP proof (retried once with the server's nonce on {@code use_dpop_nonce}), the
         * token must come back with {@code token_type} {@code DPoP} (a Bearer answer is refused), and every MCP
         * request then carries {@code Authorization: DPoP} with a fresh proof (again with the resource server's
         * nonce when it asks for one). An authorization server that lists no such value (or only other algorithms,
         * or publishes no metadata) gets no proof, and its tokens are used as Bearer tokens. So a key may be set
         * unconditionally: servers without DPoP keep working as before.
         *
         * @param key the key, or {@code null} for none
         * @return this builder
         */
        public Builder dpop(@Nullable DpopKey key) {
            this.dpopKey = key;
            return this;
        }

        /**
         * Where tokens and registrations are kept. Default a new {@link InMemoryTokenStore}. Several providers (or
         * processes) may share one store; give each principal of a multi-user backend its
         * {@link TokenStore#forPrincipal view}.
         *
         * @param store the store
         * @return this builder
         * @throws NullPointerException if {@code store} is {@code null}
         */
        public Builder tokenStore(TokenStore store) {
            this.tokenStore = Objects.requireNonNull(store, "store");
            return this;
        }

        /**
         * The HTTP client for discovery, registration and token requests; the caller closes it. Default: the provider
         * creates one ({@code Redirect.NEVER}) and closes it in {@link #close()}.
         *
         * <p>It must not follow redirects ({@link HttpClient#followRedirects()} {@code NEVER}): a client that did
         * would send a token request's form body ({@code client_secret}, codes, refresh tokens) again to wherever a
         * 307 or 308 points, and fetch metadata from wherever a redirect leads, past
         * {@link #allowedDestinations}. The provider never follows a redirect of these requests (discovery treats one
         * as "no document here").
         *
         * @param client the client
         * @return this builder
         * @throws NullPointerException     if {@code client} is {@code null}
         * @throws IllegalArgumentException if the client follows redirects
         */
        public Builder httpClient(HttpClient client) {
            Objects.requireNonNull(client, "client");
            if (client.followRedirects() != HttpClient.Redirect.NEVER) {
                throw new IllegalArgumentException("the HTTP client follows redirects (followRedirects() is "
                        + client.followRedirects() + "); it must be NEVER, or a token request's form body, "
                        + "client_secret included, is sent again to wherever a redirect points");
            }
            this.httpClient = client;
            return this;
        }

        /**
         * The timeout of each discovery, registration and token request (also bounded by the MCP request's
         * deadline). Default 30 seconds.
         *
         * @param timeout the timeout, positive
         * @return this builder
         * @throws IllegalArgumentException if not positive
         */
        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = positive(timeout, "requestTimeout");
            return this;
        }

        /**
         * How long an authorization-code grant waits for the user at most. Default 5 minutes.
         *
         * @param timeout the timeout, positive
         * @return this builder
         * @throws IllegalArgumentException if not positive
         */
        public Builder authorizationTimeout(Duration timeout) {
            this.authorizationTimeout = positive(timeout, "authorizationTimeout");
            return this;
        }

        /**
         * How many authorizations (grants run, not refreshes) one MCP request may cause at most before it fails
         * (step-up included). Default 3; at most {@link AuthorizationProvider#MAX_RETRIES}.
         *
         * @param max 1 .. 3
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder maxAuthorizations(int max) {
            if (max < 1 || max > AuthorizationProvider.MAX_RETRIES) {
                throw new IllegalArgumentException("maxAuthorizations must be 1.." + AuthorizationProvider.MAX_RETRIES);
            }
            this.maxAuthorizations = max;
            return this;
        }

        /**
         * Restricts where the provider's requests may go: every request it makes or hands out is first given to
         * {@code allowed}, and one it refuses fails the authorization with a {@link McpAuthorizationException} naming
         * the URL (origin and path); nothing is sent there. That is each protected-resource metadata and
         * authorization-server metadata GET (the URLs come from the server: its challenge's
         * {@code resource_metadata}, its metadata's {@code authorization_servers}), dynamic registration, every token
         * request (the enterprise IdP's too), and the authorization URL before it is handed to the
         * {@link AuthorizationCodeHandler} (a browser, or {@link AuthorizationCodeHandler#nonInteractive}, which
         * fetches it). Redirects are never followed, so no request reaches a destination this check did not see.
         * Default: every destination that passes the https rule (https, or plain http on a loopback host: that rule
         * always applies, before this one).
         *
         * <p>Use it where the servers are not yours to choose, such as an agent that connects to servers its users
         * name: without it, a server's metadata can point the provider at internal addresses (link-local cloud
         * metadata services, private ranges, the host itself). A predicate that refuses hosts resolving to such
         * addresses:
         *
         * <pre>{@code
         * McpOAuth.newBuilder().authorizationCode(handler).allowedDestinations(uri -> {
         *     try {
         *         for (InetAddress a : InetAddress.getAllByName(uri.getHost())) {
         *             if (a.isLoopbackAddress() || a.isLinkLocalAddress() || a.isSiteLocalAddress()
         *                     || a.isAnyLocalAddress() || a.isMulticastAddress()
         *                     || (a instanceof Inet6Address && (a.getAddress()[0] & 0xfe) == 0xfc)) { // fc00::/7
         *                 return false;
         *             }
         *         }
         *         return true;
         *     } catch (UnknownHostException e) {
         *         return false;
         *     }
         * }).build();
         * }</pre>
         *
         * <p>The predicate resolves the name when it is called and the HTTP client resolves it again when it
         * connects: a name server that answers differently the second time (DNS rebinding) is not stopped by it. For
         * a guarantee, enforce the same rule where the connection is made as well (an egress proxy, through an
         * {@link #httpClient} with a {@code ProxySelector}, or a firewall).
         *
         * <p>The predicate runs on the thread of the MCP request that needs the authorization, while that resource's
         * authorization is in progress (other requests to the same server wait for it): it may block (a DNS lookup),
         * briefly. An exception it throws fails the authorization like a refusal (as the cause).
         *
         * @param allowed whether a request may go to a URI; thread-safe
         * @return this builder
         * @throws NullPointerException if {@code allowed} is {@code null}
         */
        public Builder allowedDestinations(Predicate<URI> allowed) {
            this.allowedDestinations = Objects.requireNonNull(allowed, "allowed");
            return this;
        }

        /**
         * Builds the provider.
         *
         * @return the provider
         * @throws IllegalStateException if no grant is configured, or the grant lacks what it needs (client
         *                               credentials without {@link #client(String, ClientAuthentication)} and a
         *                               secret or key)
         */
        public McpOAuth build() {
            String grant = grant();
            if (grant == null) {
                throw new IllegalStateException("no grant configured: call authorizationCode, clientCredentials, "
                        + "jwtBearer or enterpriseManaged");
            }
            if (clientCredentials && exclusiveGrant == null && (clientId == null
                    || clientAuthentication instanceof ClientAuthentication.None)) {
                throw new IllegalStateException("the client-credentials grant needs client(id, authentication) "
                        + "with a secret or a private key");
            }
            return new McpOAuth(this);
        }

        dev.loommcp.auth.internal.OAuthConfig config() {
            return new dev.loommcp.auth.internal.OAuthConfig(grant(), clientCredentials && exclusiveGrant == null,
                    codeHandler, assertion, idp, clientId,
                    clientAuthentication, clientMetadataDocument, clientName, applicationType, scope, offlineAccess,
                    dpopKey, tokenStore != null ? tokenStore : new InMemoryTokenStore(),
                    httpClient, requestTimeout, authorizationTimeout, maxAuthorizations, allowedDestinations);
        }

        /** The primary grant: the exclusive one, else the authorization code when configured, else client credentials. */
        private String grant() {
            if (exclusiveGrant != null) {
                return exclusiveGrant;
            }
            if (codeHandler != null) {
                return "authorization_code";
            }
            return clientCredentials ? "client_credentials" : null;
        }

        private void exclusive(String grant) {
            this.exclusiveGrant = grant;
            this.codeHandler = null;
            this.clientCredentials = false;
        }

        private static Duration positive(Duration d, String what) {
            Objects.requireNonNull(d, what);
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(what + " must be positive");
            }
            return d;
        }
    }
}
