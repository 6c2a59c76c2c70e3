package dev.loommcp.auth.internal;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jwt.JWTClaimsSet;
import dev.loommcp.auth.AssertionSource;
import dev.loommcp.auth.ClientAuthentication;
import dev.loommcp.auth.EnterpriseIdp;
import dev.loommcp.auth.TokenSet;
import dev.loommcp.Deadline;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Token requests (OAuth 2.1 section 3.2): adds the client authentication ({@code none}, {@code client_secret_basic}
 * with form-urlencoded parts, {@code client_secret_post}, {@code private_key_jwt}; {@link ClientAuthentication.Secret}
 * picks basic unless the server lists only post), the DPoP proof when a key is set and the server offers DPoP (see {@link #request} for the
 * policy; retrying once with the server's nonce on {@code use_dpop_nonce}), posts the form and parses the token response into a {@link TokenSet}. Also the
 * grant-specific requests: authorization code, refresh, client credentials, JWT bearer (workload identity), and the
 * enterprise-managed token exchange + JWT bearer.
 *
 * <p>Only the {@code use_dpop_nonce} retry is automatic: any other refusal is thrown as a {@link TokenError} at once
 * (never a retry or another grant). Messages never contain a token, code, secret or assertion: the server's
 * {@code error_description} is quoted only when it holds none of the secret values of the request. Thread-safe
 * (stateless apart from the DPoP nonces).
 */
public final class TokenEndpoint {

    /** {@code grant_type} of the JWT-bearer grant (RFC 7523 section 2.1). */
    public static final String JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
    /** {@code grant_type} of the token exchange (RFC 8693). */
    public static final String TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
    /** The token type of an Identity Assertion JWT Authorization Grant (SEP-990). */
    public static final String ID_JAG = "urn:ietf:params:oauth:token-type:id-jag";
    /** The token type of an OpenID Connect ID token (RFC 8693 section 3). */
    public static final String ID_TOKEN = "urn:ietf:params:oauth:token-type:id_token";
    /** {@code client_assertion_type} of {@code private_key_jwt} (RFC 7523 section 2.2). */
    public static final String CLIENT_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
    /** How long a {@code private_key_jwt} client assertion is valid: 300 seconds. */
    public static final long CLIENT_ASSERTION_SECONDS = 300;
    /** The largest {@code expires_in} taken as it is (ten years, in seconds); larger values are cut to it. */
    public static final long MAX_EXPIRES_IN = 10L * 366 * 24 * 3600;

    /** Request parameters whose values are secrets (never quoted; an error description containing one is dropped). */
    static final Set<String> SECRET_PARAMS = Set.of("code", "code_verifier", "refresh_token", "assertion",
            "client_assertion", "client_secret", "subject_token", "actor_token", "password");

    private static final System.Logger LOG = System.getLogger("dev.loommcp.auth");

    private final AuthHttp http;
    private final DpopProofs dpop;

    /**
     * @param http the HTTP client
     * @param dpop the DPoP proof maker, or {@code null} for bearer tokens
     * @throws NullPointerException if {@code http} is {@code null}
     */
    public TokenEndpoint(AuthHttp http, DpopProofs dpop) {
        this.http = Objects.requireNonNull(http, "http");
        this.dpop = dpop;
    }

    /** @return the DPoP proof maker, or {@code null} */
    public DpopProofs dpop() {
        return dpop;
    }

    /**
     * Posts one token request to {@code as.tokenEndpoint()}: the parameters, the client authentication and, with a
     * DPoP key, a proof (a {@code 400}/{@code 401} {@code use_dpop_nonce} answer carrying a {@code DPoP-Nonce} is
     * retried once with that nonce; every {@code DPoP-Nonce} the server sends is remembered).
     *
     * <p>DPoP policy: with a DPoP key, a proof is sent only when the server offers DPoP with the key's algorithm (its
     * metadata's {@code dpop_signing_alg_values_supported} lists {@code ES256}); the token type must then be
     * {@code DPoP} (a server that advertises DPoP and issues a Bearer token is refused). A server that lists nothing
     * (or other algorithms only) gets no proof, and its token must be {@code Bearer}. A {@code DPoP} token without a
     * proof sent, or any other token type, is refused; a missing {@code token_type} counts as {@code Bearer}.
     *
     * @param as       the authorization server (its issuer is the {@code aud} of a {@code private_key_jwt} assertion
     *                 and the issuer of the returned set)
     * @param clientId the client ID
     * @param auth     how the client authenticates
     * @param params   the grant's parameters, in order ({@code grant_type} first; {@code null} values left out)
     * @param deadline the caller's deadline
     * @return the tokens
     * @throws TokenError           if the server answered with an OAuth error (or an unusable response: not JSON,
     *                              no or a malformed {@code access_token}, a wrong {@code token_type}, a malformed
     *                              {@code expires_in}, {@code refresh_token} or {@code scope})
     * @throws IOException          on a network failure, or if the token endpoint is not an absolute http(s) URL
     * @throws InterruptedException if interrupted
     * @throws NullPointerException if an argument is {@code null}
     */
    public TokenSet request(AuthServerMetadata as, String clientId, ClientAuthentication auth,
                            Map<String, String> params, Deadline deadline)
            throws TokenError, IOException, InterruptedException {
        Objects.requireNonNull(as, "as");
        List<String> algs = as.dpopSigningAlgValuesSupported() == null ? List.of()
                : as.dpopSigningAlgValuesSupported();
        boolean prove = dpop != null && algs.contains("ES256");
        Target target = new Target("the authorization server", as.tokenEndpoint(), as.issuer(),
                as.tokenEndpointAuthMethodsSupported(), prove ? dpop : null, prove);
        JsonNode body = exchange(target, clientId, auth, params, deadline);
        return tokenSet(target, as.issuer(), body);
    }

    /**
     * The authorization-code grant ({@code grant_type=authorization_code}, {@code code}, {@code code_verifier},
     * {@code redirect_uri}, {@code resource}).
     *
     * @param as           the authorization server
     * @param clientId     the client ID
     * @param auth         how the client authenticates
     * @param code         the authorization code
     * @param codeVerifier the PKCE code verifier
     * @param redirectUri  the redirect URI of the authorization request
     * @param resource     the protected resource (RFC 8707), or {@code null}
     * @param deadline     the caller's deadline
     * @return the tokens
     * @throws TokenError           as {@link #request}
     * @throws IOException          on a network failure
     * @throws InterruptedException if interrupted
     */
    public TokenSet authorizationCode(AuthServerMetadata as, String clientId, ClientAuthentication auth, String code,
                                      String codeVerifier, String redirectUri, String resource, Deadline deadline)
            throws TokenError, IOException, InterruptedException {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("grant_type", "authorization_code");
        p.put("code", Objects.requireNonNull(code, "code"));
        p.put("code_verifier", codeVerifier);
        p.put("redirect_uri", redirectUri);
        p.put("resource", resource);
        return request(as, clientId, auth, p, deadline);
    }

    /**
     * The refresh grant ({@code grant_type=refresh_token}, {@code refresh_token}, {@code scope}, {@code resource}).
     * When the answer has no new refresh token, the returned set keeps {@code refreshToken} (OAuth 2.1 section
     * 4.3.3: the old one stays valid).
     *
     * @param as           the authorization server
     * @param clientId     the client ID
     * @param auth         how the client authenticates
     * @param refreshToken the refresh token
     * @param scope        the scope, or {@code null} to keep the granted one
     * @param resource     the protected resource (RFC 8707), or {@code null}
     * @param deadline     the caller's deadline
     * @return the tokens
     * @throws TokenError           as {@link #request} ({@code invalid_grant}: the refresh token is no longer good)
     * @throws IOException          on a network failure
     * @throws InterruptedException if interrupted
     */
    public TokenSet refresh(AuthServerMetadata as, String clientId, ClientAuthentication auth, String refreshToken,
                            String scope, String resource, Deadline deadline)
            throws TokenError, IOException, InterruptedException {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("grant_type", "refresh_token");
        p.put("refresh_token", Objects.requireNonNull(refreshToken, "refreshToken"));
        p.put("scope", scope);
        p.put("resource", resource);
        TokenSet t = request(as, clientId, auth, p, deadline);
        return t.refreshToken() != null ? t
                : new TokenSet(t.issuer(), t.accessToken(), t.tokenType(), refreshToken, t.expiresAt(), t.scope());
    }

    /**
     * The client-credentials grant ({@code grant_type=client_credentials}, {@code scope}, {@code resource}).
     *
     * @param as       the authorization server
     * @param clientId the client ID
     * @param auth     how the client authenticates
     * @param scope    the scope, or {@code null} to omit it
     * @param resource the protected resource (RFC 8707), or {@code null}
     * @param deadline the caller's deadline
     * @return the tokens
     * @throws TokenError           as {@link #request}
     * @throws IOException          on a network failure
     * @throws InterruptedException if interrupted
     */
    public TokenSet clientCredentials(AuthServerMetadata as, String clientId, ClientAuthentication auth, String scope,
                                      String resource, Deadline deadline)
            throws TokenError, IOException, InterruptedException {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("grant_type", "client_credentials");
        p.put("scope", scope);
        p.put("resource", resource);
        return request(as, clientId, auth, p, deadline);
    }

    /**
     * The JWT-bearer grant with a workload identity token (RFC 7523 section 2.1:
     * {@code grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer}, {@code assertion}, {@code scope},
     * {@code resource}), read fresh from {@code assertion}. A refusal is thrown, never retried.
     *
     * @param as        the authorization server
     * @param clientId  the client ID
     * @param auth      how the client authenticates
     * @param assertion the source of the assertion
     * @param scope     the scope, or {@code null} to omit it
     * @param resource  the protected resource (RFC 8707), or {@code null}
     * @param deadline  the caller's deadline
     * @return the tokens
     * @throws TokenError           as {@link #request}
     * @throws IOException          on a network failure, or if the source fails or gives a blank assertion
     * @throws InterruptedException if interrupted
     */
    public TokenSet jwtBearer(AuthServerMetadata as, String clientId, ClientAuthentication auth,
                              AssertionSource assertion, String scope, String resource,
                              Deadline deadline) throws TokenError, IOException, InterruptedException {
        return jwtBearer(as, clientId, auth, read(assertion, "workload identity assertion", deadline), scope,
                resource, deadline);
    }

    /**
     * Enterprise-managed authorization (SEP-990): RFC 8693 token exchange of the ID token at the IdP
     * ({@code grant_type=urn:ietf:params:oauth:grant-type:token-exchange},
     * {@code requested_token_type=urn:ietf:params:oauth:token-type:id-jag}, {@code audience} = {@code as.issuer()},
     * {@code resource}, {@code scope}, {@code subject_token} = the ID token,
     * {@code subject_token_type=urn:ietf:params:oauth:token-type:id_token}, the IdP's client authentication; no DPoP
     * proof), then the JWT-bearer grant with the ID-JAG at {@code as} (with {@code auth}, and DPoP as in {@link #request}). A
     * {@code private_key_jwt} assertion for the IdP has its token endpoint as {@code aud}.
     *
     * @param as       the MCP server's authorization server
     * @param clientId the client ID at {@code as}
     * @param auth     how the client authenticates at {@code as}
     * @param idp      the identity provider
     * @param scope    the scope, or {@code null} to omit it
     * @param resource the protected resource (RFC 8707)
     * @param deadline the caller's deadline
     * @return the tokens
     * @throws TokenError           if the IdP or the authorization server refused (the message says which), or the
     *                              IdP issued something other than an ID-JAG
     * @throws IOException          on a network failure, or if the ID token cannot be read
     * @throws InterruptedException if interrupted
     */
    public TokenSet enterpriseManaged(AuthServerMetadata as, String clientId, ClientAuthentication auth,
                                      EnterpriseIdp idp, String scope, String resource,
                                      Deadline deadline) throws TokenError, IOException, InterruptedException {
        Objects.requireNonNull(as, "as");
        Objects.requireNonNull(idp, "idp");
        String idToken = read(idp.idToken(), "ID token", deadline);
        Map<String, String> p = new LinkedHashMap<>();
        p.put("grant_type", TOKEN_EXCHANGE);
        p.put("requested_token_type", ID_JAG);
        p.put("audience", as.issuer());
        p.put("resource", resource);
        p.put("scope", scope);
        p.put("subject_token", idToken);
        p.put("subject_token_type", ID_TOKEN);
        Target idpTarget = new Target("the identity provider", idp.tokenEndpoint(), idp.tokenEndpoint().toString(),
                List.of(), null, false);
        JsonNode body = exchange(idpTarget, idp.clientId(), idp.authentication(), p, deadline);
        String idJag = accessToken(idpTarget, body);
        JsonNode issued = body.get("issued_token_type");
        if (issued != null && !issued.isNull() && !(issued.isString() && ID_JAG.equals(issued.stringValue()))) {
            throw TokenError.answerRefused(200, idpTarget.who() + " at " + AuthHttp.describe(idp.tokenEndpoint())
                    + " issued " + (issued.isString() ? "a token of type " + SafeText.quote(issued.stringValue())
                    : "a malformed issued_token_type") + " instead of an ID-JAG (" + ID_JAG + ")");
        }
        return jwtBearer(as, clientId, auth, idJag, scope, resource, deadline);
    }

    private TokenSet jwtBearer(AuthServerMetadata as, String clientId, ClientAuthentication auth, String assertion,
                               String scope, String resource, Deadline deadline)
            throws TokenError, IOException, InterruptedException {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("grant_type", JWT_BEARER);
        p.put("assertion", assertion);
        p.put("scope", scope);
        p.put("resource", resource);
        return request(as, clientId, auth, p, deadline);
    }

    private static String read(AssertionSource source, String what, Deadline deadline)
            throws IOException, InterruptedException {
        Objects.requireNonNull(source, "assertion");
        String s;
        try {
            s = source.assertion(deadline);
        } catch (IOException | InterruptedException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new IOException("the " + what + " source failed (" + SafeText.reason(e) + ")", e);
        }
        if (s == null || s.isBlank()) {
            throw new IOException("the " + what + " source gave " + (s == null ? "null" : "a blank assertion"));
        }
        return s.strip();
    }

    /**
     * Where a request goes: for messages ({@code who}), the endpoint, the {@code aud} of client assertions, the
     * server's authentication methods (for {@link ClientAuthentication.Secret}), the DPoP proofs, if any, and whether
     * the token must then be DPoP-bound.
     */
    private record Target(String who, URI endpoint, String audience, List<String> authMethods, DpopProofs dpop,
                          boolean dpopRequired) {
        Target {
            Objects.requireNonNull(endpoint, "tokenEndpoint");
            authMethods = authMethods == null ? List.of() : authMethods;
        }
    }

    /** Posts the request (once more after a {@code use_dpop_nonce}), returns the JSON body of a 2xx answer. */
    private JsonNode exchange(Target target, String clientId, ClientAuthentication auth, Map<String, String> params,
                              Deadline deadline) throws TokenError, IOException, InterruptedException {
        Objects.requireNonNull(clientId, "clientId");
        Objects.requireNonNull(auth, "auth");
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(deadline, "deadline");
        String grant = params.get("grant_type");
        String scheme = target.endpoint().getScheme();
        if (!target.endpoint().isAbsolute() || target.endpoint().getHost() == null
                || !("https".equalsIgnoreCase(scheme) || "http".equalsIgnoreCase(scheme))) {
            throw new IOException("the token endpoint of " + target.who() + " is not an absolute http(s) URL");
        }
        for (int attempt = 0; ; attempt++) {
            Map<String, String> form = new LinkedHashMap<>(params);
            Map<String, String> headers = new LinkedHashMap<>();
            List<String> secrets = authenticate(target, clientId, auth, form, headers);
            for (String p : SECRET_PARAMS) {
                if (form.get(p) != null) {
                    secrets.add(form.get(p));
                }
            }
            if (target.dpop() != null) {
                headers.put("DPoP", target.dpop().proof("POST", target.endpoint(), null));
            }
            AuthHttp.Response r = http.postForm(target.endpoint(), form, headers, deadline);
            boolean nonce = target.dpop() != null && target.dpop().noteNonce(target.endpoint(), r.headers());
            LOG.log(System.Logger.Level.DEBUG, "token request ({0}) to {1}: HTTP {2}", grant,
                    AuthHttp.describe(target.endpoint()), r.status());
            if (r.ok()) {
                JsonNode body = r.json();
                if (body == null || !body.isObject()) {
                    throw unusable(target, r.status(), "is not a JSON object");
                }
                return body;
            }
            JsonNode body = r.json();
            String error = errorCode(body);
            if (attempt == 0 && nonce && "use_dpop_nonce".equals(error) && (r.status() == 400 || r.status() == 401)) {
                LOG.log(System.Logger.Level.DEBUG, "retrying the token request with the DPoP nonce of {0}",
                        AuthHttp.describe(target.endpoint()));
                continue;
            }
            throw refusal(target, grant, r.status(), error, body, secrets);
        }
    }

    /**
     * Adds the client authentication to the form and headers.
     *
     * @return the secrets it used (a modifiable list)
     */
    private static List<String> authenticate(Target target, String clientId, ClientAuthentication auth,
                                             Map<String, String> form, Map<String, String> headers) {
        List<String> secrets = new ArrayList<>();
        ClientAuthentication a = auth;
        if (a instanceof ClientAuthentication.Secret s) {
            List<String> m = target.authMethods();
            a = m.contains("client_secret_post") && !m.contains("client_secret_basic")
                    ? new ClientAuthentication.SecretPost(s.secret()) : new ClientAuthentication.SecretBasic(s.secret());
        }
        switch (a) {
            case ClientAuthentication.None n -> form.put("client_id", clientId);
            case ClientAuthentication.SecretBasic b -> {
                headers.put("Authorization", basic(clientId, b.secret()));
                secrets.add(b.secret());
            }
            case ClientAuthentication.SecretPost p -> {
                form.put("client_id", clientId);
                form.put("client_secret", p.secret());
                secrets.add(p.secret());
            }
            case ClientAuthentication.PrivateKeyJwt k -> {
                String jwt = clientAssertion(k, clientId, target.audience());
                form.put("client_id", clientId);
                form.put("client_assertion_type", CLIENT_ASSERTION_TYPE);
                form.put("client_assertion", jwt);
                secrets.add(jwt);
            }
            case ClientAuthentication.Secret s -> throw new IllegalStateException("unreachable");
        }
        return secrets;
    }

    /**
     * The {@code Authorization} value of {@code client_secret_basic}: {@code Basic base64(urlencode(id) ":"
     * urlencode(secret))} (RFC 6749 section 2.3.1, UTF-8).
     */
    static String basic(String clientId, String secret) {
        String pair = AuthHttp.formEncode(clientId) + ":" + AuthHttp.formEncode(secret);
        return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A {@code private_key_jwt} client assertion (RFC 7523 section 3): {@code iss} = {@code sub} = the client ID,
     * {@code aud} = the server, {@code iat}, {@code exp} = {@code iat} + {@value #CLIENT_ASSERTION_SECONDS} s, a fresh
     * {@code jti}; the header has {@code alg}, {@code typ: JWT} and the {@code kid} when set.
     */
    static String clientAssertion(ClientAuthentication.PrivateKeyJwt key, String clientId, String audience) {
        long now = Instant.now().getEpochSecond();
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issuer(clientId)
                .subject(clientId)
                .audience(audience)
                .issueTime(new Date(now * 1000))
                .expirationTime(new Date((now + CLIENT_ASSERTION_SECONDS) * 1000))
                .jwtID(Keys.randomId())
                .build();
        JWSHeader.Builder h = new JWSHeader.Builder(Keys.algorithm(key.algorithm())).type(JOSEObjectType.JWT);
        if (key.keyId() != null) {
            h.keyID(key.keyId());
        }
        return Keys.sign(Keys.signer(key.key(), key.algorithm()), h.build(), claims);
    }

    /** Parses a token response body (a JSON object) into a {@link TokenSet}. */
    private static TokenSet tokenSet(Target target, String issuer, JsonNode body) throws TokenError {
        String accessToken = accessToken(target, body);
        JsonNode tt = body.get("token_type");
        String tokenType;
        if (tt == null || tt.isNull()) {
            if (target.dpopRequired()) {
                throw unusable(target, 200, "has no token_type (a DPoP-bound token was asked for)");
            }
            tokenType = "Bearer";
        } else if (!tt.isString()) {
            throw unusable(target, 200, "has a token_type that is not a string");
        } else if ("DPoP".equalsIgnoreCase(tt.stringValue())) {
            if (target.dpop() == null) {
                throw unusable(target, 200, "has token_type \"DPoP\" but the request carried no DPoP proof");
            }
            tokenType = "DPoP";
        } else if ("Bearer".equalsIgnoreCase(tt.stringValue())) {
            if (target.dpopRequired()) {
                throw unusable(target, 200, "has token_type \"Bearer\" where a DPoP-bound token (DPoP) was asked "
                        + "for");
            }
            tokenType = "Bearer";
        } else {
            throw unusable(target, 200, "has token_type " + SafeText.quote(tt.stringValue())
                    + " (only Bearer and DPoP are usable)");
        }
        Instant expiresAt = null;
        JsonNode ei = body.get("expires_in");
        if (ei != null && !ei.isNull()) {
            expiresAt = Instant.now().plusSeconds(expiresIn(target, ei));
        }
        return new TokenSet(issuer, accessToken, tokenType, optionalString(target, body, "refresh_token"),
                expiresAt, optionalString(target, body, "scope"));
    }

    /** The {@code access_token}: a non-empty string of visible ASCII (fit for an HTTP header). */
    private static String accessToken(Target target, JsonNode body) throws TokenError {
        JsonNode at = body.get("access_token");
        if (at == null || at.isNull()) {
            throw unusable(target, 200, "has no access_token");
        }
        if (!at.isString()) {
            throw unusable(target, 200, "has an access_token that is not a string");
        }
        String s = at.stringValue();
        if (s.isEmpty()) {
            throw unusable(target, 200, "has an empty access_token");
        }
        if (!visibleAscii(s)) {
            throw unusable(target, 200, "has an access_token with characters not allowed in an HTTP header");
        }
        return s;
    }

    /** {@code expires_in} in seconds: a non-negative number (or numeric string), cut to {@link #MAX_EXPIRES_IN}. */
    private static long expiresIn(Target target, JsonNode ei) throws TokenError {
        BigDecimal v;
        if (ei.isIntegralNumber()) {
            v = new BigDecimal(ei.bigIntegerValue());
        } else if (ei.isFloatingPointNumber()) {
            double d = ei.doubleValue();
            if (Double.isNaN(d)) {
                throw unusable(target, 200, "has an expires_in that is not a number");
            }
            v = Double.isInfinite(d) ? (d > 0 ? BigDecimal.valueOf(MAX_EXPIRES_IN) : BigDecimal.ONE.negate())
                    : ei.isBigDecimal() ? ei.decimalValue() : BigDecimal.valueOf(d);
        } else if (ei.isString()) {
            try {
                String s = ei.stringValue().strip();
                if (s.length() > 40) {
                    throw new NumberFormatException();
                }
                v = new BigDecimal(s);
            } catch (NumberFormatException e) {
                throw unusable(target, 200, "has an expires_in that is not a number");
            }
        } else {
            throw unusable(target, 200, "has an expires_in that is not a number");
        }
        if (v.signum() < 0) {
            throw unusable(target, 200, "has a negative expires_in");
        }
        BigInteger secs = v.toBigInteger();
        return secs.compareTo(BigInteger.valueOf(MAX_EXPIRES_IN)) > 0 ? MAX_EXPIRES_IN : secs.longValueExact();
    }

    /** A string member, {@code null} when absent, null or empty; another type is an error. */
    private static String optionalString(Target target, JsonNode body, String name) throws TokenError {
        JsonNode n = body.get(name);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isString()) {
            throw unusable(target, 200, "has a " + name + " that is not a string");
        }
        String s = n.stringValue();
        if ("refresh_token".equals(name) && !s.isEmpty() && !visibleAscii(s)) {
            throw unusable(target, 200, "has a refresh_token with characters not allowed in a form");
        }
        return s.isEmpty() ? null : s;
    }

    private static boolean visibleAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }

    private static TokenError unusable(Target target, int status, String what) {
        return TokenError.answerRefused(status, "the token response of " + target.who() + " at "
                + AuthHttp.describe(target.endpoint()) + " " + what);
    }

    /** The {@code error} code of an error body, if it is a well-formed one (RFC 6749 section 5.2). */
    private static String errorCode(JsonNode body) {
        if (body == null || !body.isObject()) {
            return null;
        }
        JsonNode e = body.get("error");
        if (e == null || !e.isString()) {
            return null;
        }
        String s = e.stringValue();
        if (s.isEmpty() || s.length() > 100) {
            return null;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
                return null;
            }
        }
        return s;
    }

    /** A {@link TokenError} for a non-2xx answer, quoting the description only when it holds no secret. */
    private static TokenError refusal(Target target, String grant, int status, String error, JsonNode body,
                                      List<String> secrets) {
        StringBuilder m = new StringBuilder(target.who()).append(" at ").append(AuthHttp.describe(target.endpoint()))
                .append(" refused the ").append(grant == null ? "token" : SafeText.clean(grant))
                .append(" request: HTTP ").append(status);
        if (error == null) {
            m.append(status >= 300 && status < 400 ? " (a redirect; not followed)" : " without an OAuth error");
        } else {
            m.append(", ").append(error);
            JsonNode d = body.get("error_description");
            if (d != null && d.isString() && !d.stringValue().isBlank()) {
                String desc = d.stringValue();
                if (secrets.stream().anyMatch(s -> !s.isEmpty() && desc.contains(s))) {
                    m.append(" (its description is left out: it repeats a secret of the request)");
                } else {
                    m.append(": ").append(SafeText.quote(desc));
                }
            }
        }
        return new TokenError(status, error, m.toString());
    }
}
