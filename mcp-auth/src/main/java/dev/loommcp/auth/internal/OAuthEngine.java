package dev.loommcp.auth.internal;

import dev.loommcp.auth.McpAuthorizationException;
import dev.loommcp.auth.RefreshLease;
import dev.loommcp.auth.TokenSet;
import dev.loommcp.auth.TokenStore;
import dev.loommcp.internal.net.Hosts;
import dev.loommcp.Deadline;
import dev.loommcp.transport.http.AuthChallenge;
import dev.loommcp.transport.http.AuthorizationFailure;
import dev.loommcp.transport.http.AuthorizationRequest;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The logic behind {@code McpOAuth}: credentials for each request from the stored tokens (refreshed ahead of
 * expiry), and on a 401 or 403 discovery, refresh, (re)authorization or step-up, one at a time per resource (single
 * flight: callers that find the token expired or refused while another caller renews it wait for and use its
 * result). Thread-safe.
 */
public final class OAuthEngine {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.auth");
    /** Refresh this long before the access token expires at most. */
    static final Duration REFRESH_AHEAD = Duration.ofSeconds(30);
    /** The request-to-token memo is cleared when it grows past this (entries of requests that failed on the way). */
    private static final int MAX_SENT = 65_536;
    private static final Object NOTHING = new Object();
    /** {@link #leaseOrTokens}: another holder refreshes, and the caller did not want to wait. */
    private static final Object BUSY = new Object();
    /** A refresh lease runs this much longer than the token request may take (the holder's margin). */
    static final Duration LEASE_MARGIN = Duration.ofSeconds(10);
    /** How long a caller waiting for another holder's refresh sleeps between looks at the store, at first and most. */
    private static final long WAIT_FIRST_MILLIS = 10;
    private static final long WAIT_MAX_MILLIS = 250;

    private final OAuthConfig config;
    private final TokenStore store;
    private final AuthHttp http;
    private final DpopProofs dpop;
    private final TokenEndpoint tokenEndpoint;
    private final Discovery discovery;
    private final ClientIdentity identity;
    private final ConcurrentHashMap<String, ResourceState> states = new ConcurrentHashMap<>();
    /** What each request in flight carried (a {@link TokenSet} or {@link #NOTHING}), by request identity. */
    private final ConcurrentHashMap<RequestKey, Object> sent = new ConcurrentHashMap<>();
    private volatile boolean closed;
    /** This engine's holder id for the store's refresh leases. */
    private final String holder = "oauth-" + UUID.randomUUID();

    /**
     * @param config the settings
     */
    public OAuthEngine(OAuthConfig config) {
        this.config = config;
        this.store = config.tokenStore();
        this.http = new AuthHttp(config.httpClient(), config.requestTimeout(), config.allowedDestinations());
        this.dpop = config.dpopKey() == null ? null : new DpopProofs(config.dpopKey());
        this.tokenEndpoint = new TokenEndpoint(http, dpop);
        this.discovery = new Discovery(http);
        this.identity = new ClientIdentity(config, http);
    }

    /** Identity of one {@link AuthorizationRequest} object (records compare by value). */
    private record RequestKey(AuthorizationRequest request) {
        @Override
        public boolean equals(Object o) {
            return o instanceof RequestKey k && k.request == request;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(request);
        }
    }

    /** What the engine knows about one protected resource. Fields other than {@code tokens} are guarded by lock. */
    private static final class ResourceState {
        final String key;
        final URI endpoint;
        final ReentrantLock lock = new ReentrantLock();
        volatile TokenSet tokens;
        volatile boolean loaded;
        /**
         * When {@link #tokens} were obtained by this engine, or, for tokens it took from the store (another holder's:
         * another replica or process, or an earlier run), when it took them: their lifetime counts from there, which
         * is no earlier than their real start, so a fifth of it never asks for a refresh earlier than the holder
         * would; {@code null} when there are none.
         */
        volatile Instant obtainedAt;
        Discovery.ProtectedResource prm;
        AuthServerMetadata as;
        String resourceParam;
        String requestedScope;
        /** What the last discovery noted (metadata URLs that answered a redirect), for a failing authorization. */
        List<String> discoveryNotes = List.of();

        ResourceState(String key, URI endpoint) {
            this.key = key;
            this.endpoint = endpoint;
        }
    }

    // ---------------------------------------------------------------------------------------------- credentials

    /**
     * The credentials for one request: the current access token (refreshed first when it expires soon and can be
     * refreshed; a token that is still valid goes as it is while another caller holds the resource, refreshing or
     * authorizing, instead of waiting for it), with a DPoP proof when the token is DPoP-bound; empty when there is
     * none yet.
     *
     * @param request the request
     * @return the headers
     * @throws McpAuthorizationException if the provider is closed
     * @throws InterruptedException      if interrupted while waiting for another caller's refresh
     */
    public Map<String, String> credentials(AuthorizationRequest request) throws InterruptedException {
        ensureOpen();
        ResourceState s = state(request.endpoint());
        if (!Hosts.isHttpsOrLoopbackHttp(s.endpoint)) {
            return Map.of(); // tokens never travel in clear text; a 401 gets the reason from onChallenge
        }
        TokenSet t = current(s);
        if (t != null && t.refreshToken() != null && t.expiresAt() != null
                && !Instant.now().plus(refreshAhead(s, t)).isBefore(t.expiresAt())) {
            if (!t.expiresWithin(Instant.now(), 0)) {
                // still valid: refresh only when no other caller holds the resource (one refreshing, or
                // authorizing); else go on with this token rather than queue behind it (under load a queue of
                // callers with valid tokens behind one slow token request met their deadlines)
                if (s.lock.tryLock()) {
                    t = refreshAheadLocked(s, t, request.deadline());
                }
            } else {
                lock(s, request.deadline());
                t = refreshAheadLocked(s, t, request.deadline());
            }
        }
        remember(request, t);
        return headers(request, t);
    }

    private Map<String, String> headers(AuthorizationRequest request, TokenSet t) {
        if (t == null) {
            return Map.of();
        }
        if (dpop != null && "DPoP".equalsIgnoreCase(t.tokenType())) {
            Map<String, String> h = new LinkedHashMap<>();
            h.put("Authorization", "DPoP " + t.accessToken());
            h.put("DPoP", dpop.proof(request.method(), request.uri(), t.accessToken()));
            return h;
        }
        return Map.of("Authorization", "Bearer " + t.accessToken());
    }

    /**
     * How long before expiry to refresh: 30 s, or a fifth of the token's lifetime when that is shorter (to the
     * millisecond: a token of 3 s is refreshed 600 ms ahead, not at its end, when requests already meet a refusal).
     */
    private static Duration refreshAhead(ResourceState s, TokenSet t) {
        Instant got = s.obtainedAt;
        Duration ahead = REFRESH_AHEAD;
        if (got != null && t.expiresAt() != null) {
            Duration fifth = Duration.between(got, t.expiresAt()).dividedBy(5);
            ahead = fifth.compareTo(ahead) < 0 ? fifth : ahead;
        }
        return ahead.isNegative() ? Duration.ZERO : ahead;
    }

    /**
     * Refreshes a token about to expire or just expired (single flight: the caller holds {@code s.lock}, which this
     * releases); on any failure the request goes with what there is.
     */
    private TokenSet refreshAheadLocked(ResourceState s, TokenSet t, Deadline deadline) throws InterruptedException {
        try {
            TokenSet cur = current(s);
            if (cur != t) {
                return cur; // another caller renewed it meanwhile
            }
            try {
                if (s.as == null || !s.as.issuer().equals(t.issuer())) {
                    discover(s, null, deadline);
                }
                if (!s.as.issuer().equals(t.issuer())) {
                    return t; // the resource moved: its 401 will start an authorization at the new server
                }
                return refresh(s, t, deadline, t.expiresWithin(Instant.now(), 0));
            } catch (McpAuthorizationException | IOException e) {
                if (e instanceof McpAuthorizationException a && !deadline.isNone() && deadline.remainingNanos() <= 0) {
                    throw a; // waited for another holder's refresh until the deadline: the request cannot go
                }
                LOG.log(System.Logger.Level.DEBUG, () -> "refresh ahead of expiry for " + describe(s)
                        + " failed: " + e.getMessage());
                return current(s);
            }
        } finally {
            s.discoveryNotes = List.of();
            s.lock.unlock();
        }
    }

    // ---------------------------------------------------------------------------------------------- challenges

    /**
     * Handles a 401 or 403: notes a resource server's DPoP nonce ({@code use_dpop_nonce}), uses tokens another
     * caller obtained meanwhile, refreshes, steps up ({@code insufficient_scope}) or authorizes.
     *
     * @param request the refused request
     * @param failure the answer
     * @return whether to send the request again
     * @throws McpAuthorizationException when the authorization cannot succeed
     * @throws InterruptedException      if interrupted
     */
    public boolean onChallenge(AuthorizationRequest request, AuthorizationFailure failure)
            throws InterruptedException {
        ensureOpen();
        Object usedMemo = sent.remove(new RequestKey(request));
        TokenSet used = usedMemo instanceof TokenSet ts ? ts : null;
        ResourceState s = state(request.endpoint());
        try {
            // the server would get the token in clear text, and its metadata URLs are plain http too
            Urls.requireSecure(s.endpoint, "authorizing the MCP server");
        } catch (IllegalArgumentException e) {
            throw new McpAuthorizationException(e.getMessage());
        }
        if (failure.status() == 401 && dpop != null && failure.challenge("DPoP").flatMap(c -> c.parameter("error"))
                .filter("use_dpop_nonce"::equals).isPresent()) {
            // a fresh proof with the nonce, no new authorization; without a usable nonce the retry cannot succeed
            return dpop.noteNonce(request.uri(), failure.headers());
        }
        AuthChallenge ch = challenge(failure);
        String error = ch == null ? null : ch.parameter("error").orElse(null);
        if (failure.status() == 403 && !"insufficient_scope".equals(error)) {
            return false; // forbidden for a reason new tokens do not change
        }
        Deadline deadline = request.deadline();
        lock(s, deadline);
        try {
            ensureOpen();
            TokenSet cur = reload(s);
            if (cur != null && !cur.equals(used)) {
                return true; // renewed by another caller (or process) since this request was sent
            }
            URI resourceMetadata = resourceMetadata(ch);
            discover(s, resourceMetadata, deadline);
            String asked = ch == null ? null : ch.parameter("scope").orElse(null);
            if (failure.status() == 403) {
                String scope = Scopes.union(held(s, cur), asked);
                authorize(s, request, scope, "the server asked for the scope " + SafeText.quote(String.valueOf(asked)));
                return true;
            }
            if (cur != null && cur.refreshToken() != null && cur.issuer().equals(s.as.issuer())) {
                TokenSet fresh = null;
                try {
                    fresh = refresh(s, cur, deadline, true);
                } catch (McpAuthorizationException e) {
                    LOG.log(System.Logger.Level.DEBUG, () -> "refresh for " + describe(s) + " failed: "
                            + e.getMessage());
                }
                if (fresh != null) {
                    return true; // refreshed, or another process's tokens
                }
                cur = current(s);
            }
            if (cur != null) {
                store.removeTokens(s.key, cur); // refused: compare-and-delete
                s.tokens = null;
            }
            String scope = Scopes.select(asked, s.prm == null ? List.of() : s.prm.scopesSupported(), config.scope());
            authorize(s, request, scope, "the server refused the request with HTTP 401");
            return true;
        } catch (IOException e) {
            throw new McpAuthorizationException("the authorization for " + describe(s) + " failed: "
                    + e.getMessage() + noted(s), e);
        } catch (McpAuthorizationException e) {
            String notes = noted(s);
            throw notes.isEmpty() ? e : new McpAuthorizationException(e.getMessage() + notes, e);
        } finally {
            s.discoveryNotes = List.of();
            s.lock.unlock();
        }
    }

    /** The last discovery's notes as a suffix of an error message ({@code ""} without any). */
    private static String noted(ResourceState s) {
        return s.discoveryNotes.isEmpty() ? "" : "; during discovery, " + String.join("; ", s.discoveryNotes);
    }

    /** The challenge to follow: a Bearer or DPoP one, else the first. */
    private static AuthChallenge challenge(AuthorizationFailure failure) {
        for (AuthChallenge c : failure.challenges()) {
            if ("Bearer".equalsIgnoreCase(c.scheme()) || "DPoP".equalsIgnoreCase(c.scheme())) {
                return c;
            }
        }
        return failure.challenges().isEmpty() ? null : failure.challenges().getFirst();
    }

    private static URI resourceMetadata(AuthChallenge ch) {
        String v = ch == null ? null : ch.parameter("resource_metadata").orElse(null);
        if (v == null || v.isBlank()) {
            return null;
        }
        try {
            return Urls.httpUrl(v, "the challenge's resource_metadata");
        } catch (IllegalArgumentException e) {
            throw new McpAuthorizationException(e.getMessage());
        }
    }

    /** The scopes held: those asked in the last authorization and those granted. */
    private static String held(ResourceState s, TokenSet t) {
        return Scopes.union(s.requestedScope, t == null ? null : t.scope());
    }

    /**
     * Notes a DPoP nonce the server sent in any answer; forgets what a request carried once it is answered other
     * than with 401/403.
     *
     * @param request the request
     * @param status  the status
     * @param headers the headers
     */
    public void onResponse(AuthorizationRequest request, int status, HttpHeaders headers) {
        if (status != 401 && status != 403) {
            sent.remove(new RequestKey(request));
        }
        if (dpop != null) {
            headers.firstValue("DPoP-Nonce").ifPresent(n -> dpop.nonce(request.uri(), n));
        }
    }

    // ---------------------------------------------------------------------------------------------- discovery

    /** Discovers the resource's metadata and its authorization server (cached while the issuer stays). */
    private void discover(ResourceState s, URI resourceMetadata, Deadline deadline)
            throws IOException, InterruptedException {
        List<String> notes = new ArrayList<>();
        s.discoveryNotes = notes;
        Discovery.ProtectedResource prm = discovery.protectedResource(s.endpoint, resourceMetadata, deadline, notes);
        if (prm == null) {
            if (s.as == null || s.prm != null) {
                s.as = discovery.legacy(s.endpoint, deadline, notes);
            }
            s.prm = null;
            s.resourceParam = s.key;
            return;
        }
        String issuer = prm.authorizationServers().getFirst();
        if (s.as == null || !s.as.issuer().equals(issuer) || s.prm == null) {
            AuthServerMetadata as = discovery.authorizationServer(issuer, deadline, notes);
            if (as == null) {
                throw new McpAuthorizationException("found no metadata of the authorization server "
                        + SafeText.quote(issuer) + " (tried " + Urls.authorizationServerMetadataUrls(
                        URI.create(issuer)).stream().map(AuthHttp::describe).toList() + ")");
            }
            s.as = as;
        }
        s.prm = prm;
        s.resourceParam = prm.resource();
    }

    // ---------------------------------------------------------------------------------------------- grants

    /** Runs the configured grant once (counted against the request's allowance) and keeps the tokens. */
    private void authorize(ResourceState s, AuthorizationRequest request, String scope, String why)
            throws IOException, InterruptedException {
        if (request.attempt() >= config.maxAuthorizations()) {
            throw new McpAuthorizationException("the server " + describe(s) + " still refuses the request after "
                    + config.maxAuthorizations() + " authorization attempts (" + why + "); giving up");
        }
        AuthServerMetadata as = s.as;
        Deadline deadline = request.deadline();
        TokenSet tokens;
        String asked = scope;
        String grant = config.grantAt(as);
        ClientIdentity.Client c = null;
        try {
            switch (grant) {
                case "authorization_code" -> {
                    asked = Scopes.withOfflineAccess(scope, as.scopesSupported(), config.offlineAccess());
                    tokens = authorizationCode(s, as, asked, deadline);
                }
                case "client_credentials" -> {
                    c = identity.resolve(as, null, deadline);
                    tokens = tokenEndpoint.clientCredentials(as, c.clientId(), c.authentication(), scope,
                            s.resourceParam, deadline);
                }
                case "jwt_bearer" -> {
                    c = identity.resolve(as, null, deadline);
                    tokens = tokenEndpoint.jwtBearer(as, c.clientId(), c.authentication(), config.assertion(), scope,
                            s.resourceParam, deadline);
                }
                case "enterprise_managed" -> {
                    c = identity.resolve(as, null, deadline);
                    tokens = tokenEndpoint.enterpriseManaged(as, c.clientId(), c.authentication(), config.idp(),
                            scope, s.resourceParam, deadline);
                }
                default -> throw new IllegalStateException("unknown grant " + grant);
            }
        } catch (TokenError e) {
            if (c != null && "invalid_client".equals(e.error())) {
                identity.forget(c); // a registration the server forgot: the next authorization registers afresh
            }
            throw new McpAuthorizationException(e.describe(as.issuer(), "token request"), e);
        }
        keep(s, tokens);
        s.requestedScope = asked;
        LOG.log(System.Logger.Level.DEBUG, () -> "authorized " + describe(s) + " at " + as.issuer() + " ("
                + grant + ")");
    }

    private TokenSet authorizationCode(ResourceState s, AuthServerMetadata as, String scope, Deadline deadline)
            throws IOException, InterruptedException, TokenError {
        URI redirectUri = config.codeHandler().redirectUri();
        ClientIdentity.Client client = identity.resolve(as, redirectUri, deadline);
        CodeFlow.Pkce pkce = CodeFlow.Pkce.create();
        String state = CodeFlow.newState();
        URI url = CodeFlow.authorizationUrl(as, client.clientId(), redirectUri, state, pkce, s.resourceParam,
                scope);
        http.checkDestination(url, "the authorization request"); // before the handler or a browser goes there
        Deadline authDeadline = Deadline.after(config.authorizationTimeout()).earliest(deadline);
        URI redirect = config.codeHandler().authorize(url, state, authDeadline);
        if (redirect == null) {
            throw new McpAuthorizationException("the authorization handler returned no redirect");
        }
        String code = CodeFlow.checkRedirect(redirect, state, as);
        Map<String, String> params = new LinkedHashMap<>();
        params.put("grant_type", "authorization_code");
        params.put("code", code);
        params.put("redirect_uri", redirectUri.toString());
        params.put("code_verifier", pkce.verifier());
        params.put("resource", s.resourceParam);
        try {
            return tokenEndpoint.request(as, client.clientId(), client.authentication(), params, deadline);
        } catch (TokenError e) {
            if ("invalid_client".equals(e.error())) {
                identity.forget(client); // the next authorization registers afresh
            }
            throw e;
        }
    }

    /**
     * Refreshes (caller holds the lock) under the store's refresh lease, waiting for it when {@code wait} (the token
     * has expired or was refused) and else going on with {@code t} while another holder refreshes. On
     * {@code invalid_grant} the refused tokens are removed from the store only if still the same
     * (compare-and-delete); tokens another process stored meanwhile are used instead. On
     * {@code invalid_client} the client's dynamic registration is removed too (compare-and-delete), so that the
     * next authorization registers afresh.
     *
     * @return the new tokens, or the ones another process stored, or {@code null} when there are none
     * @throws McpAuthorizationException if the refresh failed otherwise
     */
    private TokenSet refresh(ResourceState s, TokenSet t, Deadline deadline, boolean wait)
            throws IOException, InterruptedException {
        Object leased = leaseOrTokens(s, t, deadline, wait);
        if (leased == BUSY) {
            return t; // refreshing ahead of expiry while another holder refreshes: this token still works
        }
        if (!(leased instanceof RefreshLease lease)) {
            return (TokenSet) leased; // another holder's tokens (or none left to refresh)
        }
        try {
            return refreshLeased(s, t, lease, deadline);
        } finally {
            store.releaseRefresh(lease);
        }
    }

    /**
     * Takes the store's refresh lease for {@code t} (waiting, within {@code deadline}, while another holder, in
     * this process or another, holds it), or returns the tokens another holder stored meanwhile, or {@code null}
     * when the store no longer holds {@code t} nor other tokens of its issuer (they were refused or logged out).
     *
     * @param wait whether to wait while another holder refreshes; if not, {@link #BUSY} is returned then
     * @return a {@link RefreshLease}, a {@link TokenSet}, {@link #BUSY} or {@code null}
     * @throws McpAuthorizationException if the deadline passes while another holder refreshes
     */
    private Object leaseOrTokens(ResourceState s, TokenSet t, Deadline deadline, boolean wait)
            throws InterruptedException {
        Duration length = config.requestTimeout().plus(LEASE_MARGIN);
        long pause = WAIT_FIRST_MILLIS;
        while (true) {
            Optional<RefreshLease> lease = store.leaseRefresh(s.key, t.issuer(), holder, length);
            TokenSet stored = store.tokens(s.key, t.issuer()).orElse(null);
            if (stored == null || !stored.equals(t)) {
                lease.ifPresent(store::releaseRefresh);
                if (stored != null) {
                    adopt(s, stored);
                    LOG.log(System.Logger.Level.DEBUG, () -> "using the tokens another holder stored for "
                            + describe(s));
                } else {
                    s.tokens = null;
                    s.loaded = false;
                }
                return stored;
            }
            if (lease.isPresent()) {
                return lease.get();
            }
            if (!wait) {
                return BUSY;
            }
            long sleep = TimeUnit.MILLISECONDS.toNanos(pause);
            if (!deadline.isNone()) {
                long left = deadline.remainingNanos();
                if (left <= 0) {
                    throw new McpAuthorizationException("the request's deadline passed while another holder (a "
                            + "process sharing the token store) was refreshing the tokens of " + describe(s));
                }
                sleep = Math.min(sleep, left);
            }
            ensureOpen();
            Thread.sleep(Duration.ofNanos(sleep));
            pause = Math.min(pause * 2, WAIT_MAX_MILLIS);
        }
    }

    /** {@link #refresh} under the store's lease. */
    private TokenSet refreshLeased(ResourceState s, TokenSet t, RefreshLease lease, Deadline deadline)
            throws IOException, InterruptedException {
        AuthServerMetadata as = s.as;
        ClientIdentity.Client client = identity.resolve(as, "authorization_code".equals(config.grantAt(as))
                ? config.codeHandler().redirectUri() : null, deadline);
        Map<String, String> params = new LinkedHashMap<>();
        params.put("grant_type", "refresh_token");
        params.put("refresh_token", t.refreshToken());
        params.put("resource", s.resourceParam);
        TokenSet fresh;
        try {
            fresh = tokenEndpoint.request(as, client.clientId(), client.authentication(), params, deadline);
        } catch (TokenError e) {
            boolean deadClient = "invalid_client".equals(e.error());
            if (deadClient) {
                // the server forgot the client: the next authorization registers afresh, not with a dead client_id
                identity.forget(client);
            }
            if (deadClient || "invalid_grant".equals(e.error())) {
                store.removeTokens(s.key, t);
                s.tokens = null;
                s.loaded = false;
                TokenSet other = current(s);
                if (other != null && !other.equals(t)) {
                    return other;
                }
                s.tokens = null;
                return null;
            }
            throw new McpAuthorizationException(e.describe(as.issuer(), "refresh"), e);
        }
        if (fresh.refreshToken() == null || fresh.scope() == null) {
            fresh = new TokenSet(fresh.issuer(), fresh.accessToken(), fresh.tokenType(),
                    fresh.refreshToken() != null ? fresh.refreshToken() : t.refreshToken(), fresh.expiresAt(),
                    fresh.scope() != null ? fresh.scope() : t.scope());
        }
        if (!store.replaceTokens(lease, t, fresh)) {
            // the lease was granted to another holder since (this one paused past it) or the tokens were removed:
            // theirs win; the caller goes on with what the store holds
            LOG.log(System.Logger.Level.DEBUG, () -> "the refreshed tokens of " + describe(s) + " were not stored: "
                    + "the store holds others (the refresh lease passed to another holder, or a logout)");
            s.loaded = false;
            return current(s);
        }
        s.tokens = fresh;
        s.obtainedAt = Instant.now();
        s.loaded = true;
        return fresh;
    }

    private void keep(ResourceState s, TokenSet tokens) {
        store.saveTokens(s.key, tokens);
        s.tokens = tokens;
        s.obtainedAt = Instant.now();
        s.loaded = true;
    }

    /**
     * Uses tokens another holder stored. Their lifetime's start is unknown here: it counts from now (with no start,
     * the refresh-ahead margin was 30 s whatever the lifetime, so every replica sharing tokens that live less than
     * 30 s refreshed them on each request).
     */
    private static void adopt(ResourceState s, TokenSet tokens) {
        s.tokens = tokens;
        s.obtainedAt = tokens == null ? null : Instant.now();
        s.loaded = true;
    }

    // ---------------------------------------------------------------------------------------------- state

    private ResourceState state(URI endpoint) {
        String key;
        try {
            key = Urls.canonicalResource(endpoint);
        } catch (IllegalArgumentException e) {
            throw new McpAuthorizationException(e.getMessage());
        }
        return states.computeIfAbsent(key, k -> new ResourceState(k, endpoint));
    }

    /** The current tokens, loaded from the store the first time (the most recently saved issuer's). */
    private TokenSet current(ResourceState s) {
        if (!s.loaded) {
            adopt(s, fromStore(s));
        }
        return s.tokens;
    }

    /** The current tokens as the store has them now (another process may have renewed them). */
    private TokenSet reload(ResourceState s) {
        TokenSet mine = current(s);
        TokenSet stored = fromStore(s);
        if (stored != null && !stored.equals(mine)) {
            adopt(s, stored);
            return stored;
        }
        if (stored == null && mine != null) {
            s.tokens = null;
            return null;
        }
        return mine;
    }

    private TokenSet fromStore(ResourceState s) {
        List<String> issuers = store.issuers(s.key);
        for (String issuer : issuers) {
            Optional<TokenSet> t = store.tokens(s.key, issuer);
            if (t.isPresent()) {
                return t.get();
            }
        }
        return null;
    }

    private void remember(AuthorizationRequest request, TokenSet t) {
        if (sent.size() >= MAX_SENT) {
            sent.clear();
        }
        sent.put(new RequestKey(request), t == null ? NOTHING : t);
    }

    private static void lock(ResourceState s, Deadline deadline) throws InterruptedException {
        if (deadline.isNone()) {
            s.lock.lockInterruptibly();
            return;
        }
        long left = deadline.remainingNanos();
        if (left <= 0 || !s.lock.tryLock(left, TimeUnit.NANOSECONDS)) {
            throw new McpAuthorizationException("the request's deadline passed while another caller was "
                    + "authorizing " + describe(s));
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new McpAuthorizationException("the OAuth provider is closed");
        }
    }

    private static String describe(ResourceState s) {
        return AuthHttp.describe(s.endpoint);
    }

    // ---------------------------------------------------------------------------------------------- lifecycle

    /**
     * Forgets the tokens of a server in the store (every issuer).
     *
     * @param server the MCP endpoint
     * @return how many token sets were removed
     */
    public int logout(URI server) {
        String key;
        try {
            key = Urls.canonicalResource(server);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot log out of " + server + ": " + e.getMessage());
        }
        int n = store.removeAllTokens(key);
        ResourceState s = states.get(key);
        if (s != null) {
            s.tokens = null;
            s.loaded = true;
        }
        return n;
    }

    /** @return the token store */
    public TokenStore tokenStore() {
        return store;
    }

    /** Closes the HTTP client if the engine created it; later requests fail. Idempotent. */
    public void close() {
        closed = true;
        sent.clear();
        http.close();
    }

    @Override
    public String toString() {
        return "[grant=" + config.grant() + (config.clientCredentials() && "authorization_code".equals(config.grant())
                ? " or client_credentials" : "") + ", store=" + store + (dpop != null ? ", dpop" : "")
                + (closed ? ", closed" : "") + "]";
    }
}
