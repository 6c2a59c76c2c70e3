package dev.loommcp.auth.internal;

import dev.loommcp.auth.McpAuthorizationException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The pieces of the authorization-code grant (OAuth 2.1 section 4.1): PKCE S256 (RFC 7636), {@code state}, the
 * authorization request URL (with the RFC 8707 {@code resource}), and the check of the redirect the user agent came
 * back with ({@code error}, {@code state}, and the RFC 9207 {@code iss} rules, compared exactly). Stateless.
 */
final class CodeFlow {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder B64URL = Base64.getUrlEncoder().withoutPadding();

    private CodeFlow() {
    }

    /**
     * A PKCE pair: a 43-character verifier (32 random bytes, base64url) and its S256 challenge.
     *
     * @param verifier  the {@code code_verifier} (secret until the token request)
     * @param challenge the {@code code_challenge}
     */
    record Pkce(String verifier, String challenge) {

        static Pkce create() {
            String verifier = random(32);
            return new Pkce(verifier, s256(verifier));
        }

        @Override
        public String toString() {
            return "Pkce[challenge=" + challenge + ", verifier=<redacted>]";
        }
    }

    /** The S256 transform: base64url(SHA-256(ASCII(verifier))). */
    static String s256(String verifier) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
            return B64URL.encodeToString(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing", e);
        }
    }

    /** {@code n} random bytes, base64url without padding. */
    static String random(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return B64URL.encodeToString(b);
    }

    /** A fresh {@code state} value (128 random bits). */
    static String newState() {
        return random(16);
    }

    /**
     * Builds the authorization request URL.
     *
     * @param as          the authorization server (its {@code authorization_endpoint})
     * @param clientId    the client ID
     * @param redirectUri the redirect URI
     * @param state       the state
     * @param pkce        the PKCE pair (only the challenge goes into the URL)
     * @param resource    the {@code resource} parameter, or {@code null}
     * @param scope       the scope, or {@code null} to omit it
     * @return the URL
     * @throws McpAuthorizationException if the server has no authorization endpoint, or lists PKCE methods without
     *                                   {@code S256}
     */
    static URI authorizationUrl(AuthServerMetadata as, String clientId, URI redirectUri, String state, Pkce pkce,
                                String resource, String scope) {
        if (as.authorizationEndpoint() == null) {
            throw new McpAuthorizationException("the authorization server " + SafeText.quote(as.issuer())
                    + " has no authorization_endpoint; the authorization-code grant cannot run there");
        }
        if (!as.codeChallengeMethodsSupported().isEmpty() && !as.codeChallengeMethodsSupported().contains("S256")) {
            throw new McpAuthorizationException("the authorization server " + SafeText.quote(as.issuer())
                    + " does not support PKCE with S256 (code_challenge_methods_supported); refused");
        }
        Map<String, String> q = new LinkedHashMap<>();
        q.put("response_type", "code");
        q.put("client_id", clientId);
        q.put("redirect_uri", redirectUri.toString());
        q.put("state", state);
        q.put("code_challenge", pkce.challenge());
        q.put("code_challenge_method", "S256");
        q.put("resource", resource);
        q.put("scope", scope);
        return Urls.withQuery(as.authorizationEndpoint(), q);
    }

    /**
     * Checks the redirect the authorization ended with and returns its code. Rules: an {@code error} parameter
     * fails; {@code state} must equal the one sent; RFC 9207: when the server advertises
     * {@code authorization_response_iss_parameter_supported}, {@code iss} must be present and equal its issuer;
     * when it does not, an {@code iss} that is present must still equal it; strings compare exactly (no
     * normalisation).
     *
     * @param redirect the redirect URI received
     * @param state    the state sent
     * @param as       the authorization server
     * @return the authorization code
     * @throws McpAuthorizationException naming what was wrong (never the code)
     */
    static String checkRedirect(URI redirect, String state, AuthServerMetadata as) {
        Map<String, String> p = Urls.queryParameters(redirect);
        String error = p.get("error");
        if (error != null) {
            String desc = p.get("error_description");
            throw new McpAuthorizationException("the authorization server " + SafeText.quote(as.issuer())
                    + " refused the authorization: " + SafeText.quote(error)
                    + (desc == null ? "" : " (" + SafeText.quote(desc) + ")"));
        }
        String gotState = p.get("state");
        if (gotState == null) {
            throw new McpAuthorizationException("the authorization response carries no state; refused");
        }
        if (!MessageDigest.isEqual(gotState.getBytes(StandardCharsets.UTF_8), state.getBytes(StandardCharsets.UTF_8))) {
            throw new McpAuthorizationException("the authorization response carries another state than the request "
                    + "sent; refused");
        }
        String iss = p.get("iss");
        if (as.issParameterSupported() && iss == null) {
            throw new McpAuthorizationException("the authorization response carries no iss although the "
                    + "authorization server " + SafeText.quote(as.issuer()) + " advertises it (RFC 9207); refused");
        }
        if (iss != null && !iss.equals(as.issuer())) {
            throw new McpAuthorizationException("the authorization response names the issuer " + SafeText.quote(iss)
                    + ", not " + SafeText.quote(as.issuer()) + " (RFC 9207); refused");
        }
        String code = p.get("code");
        if (code == null || code.isEmpty()) {
            throw new McpAuthorizationException("the authorization response carries no code");
        }
        return code;
    }
}
