package dev.loommcp.cli.conformance;

import dev.loommcp.auth.AssertionSource;
import dev.loommcp.auth.AuthorizationCodeHandler;
import dev.loommcp.auth.ClientAuthentication;
import dev.loommcp.auth.DpopKey;
import dev.loommcp.auth.EnterpriseIdp;
import dev.loommcp.auth.McpOAuth;
import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * How the conformance client authorizes in the {@code auth/*} scenarios: one {@link McpOAuth} (the public API of
 * {@code dev.loommcp.auth}, nothing else) configured from what the suite hands over in {@code MCP_CONFORMANCE_CONTEXT}.
 * The grant follows from the context:
 * <table>
 *   <caption>context keys and the grant they select (first match wins)</caption>
 *   <tr><th>context</th><th>configuration</th></tr>
 *   <tr><td>{@code idp_token_endpoint}, {@code idp_client_id}, {@code idp_id_token} (+ {@code client_id},
 *       {@code client_secret})</td><td>enterprise-managed authorization: token exchange at the IdP as a public
 *       client, then the JWT-bearer grant with the client secret</td></tr>
 *   <tr><td>{@code valid_jwt} (+ {@code client_id})</td><td>JWT bearer (workload identity) with that assertion, a
 *       public pre-registered client (the negative-test tokens {@code wrong_audience_jwt} and
 *       {@code expired_jwt} are never used)</td></tr>
 *   <tr><td>{@code private_key_pem} (+ {@code client_id}, {@code signing_algorithm})</td><td>client credentials
 *       with {@code private_key_jwt}</td></tr>
 *   <tr><td>{@code client_id} + {@code client_secret}</td><td>both the authorization code and client credentials
 *       as that pre-registered client (the secret sent as the authorization server prefers): the authorization
 *       server's {@code grant_types_supported} chooses (client credentials where it lists {@code client_credentials}
 *       and not {@code authorization_code}, see {@link McpOAuth.Builder#clientCredentials()})</td></tr>
 *   <tr><td>{@code client_id}</td><td>authorization code as that pre-registered public client</td></tr>
 *   <tr><td>none</td><td>authorization code; the client identity per authorization server: the client-ID metadata
 *       document {@value #CLIENT_METADATA_DOCUMENT} where supported, else dynamic registration</td></tr>
 * </table>
 *
 * <p>The scenario's name is never read: what the context cannot say comes from the servers' metadata, through
 * features of the module. Every configuration has a fresh {@link DpopKey}, used only where the authorization server
 * offers DPoP ({@code dpop_signing_alg_values_supported} with {@code ES256}; see {@link McpOAuth.Builder#dpop}), so
 * the DPoP scenarios (which hand over no context) get DPoP-bound tokens and the others Bearer tokens. The
 * authorization code is obtained with
 * {@link AuthorizationCodeHandler#nonInteractive} (the suite's authorization servers approve at once), with a
 * loopback redirect URI nothing listens on.
 */
final class AuthScenario {

    /** The client-ID metadata document URL the suite expects ({@code auth/basic-cimd}). */
    static final String CLIENT_METADATA_DOCUMENT = "https://conformance-test.local/client-metadata.json";
    /** The redirect URI registered and sent; the non-interactive handler reads the redirect, nothing listens. */
    static final URI REDIRECT_URI = URI.create("http://127.0.0.1:3000/callback");
    /** Bounds each discovery, registration and token request. */
    static final Duration AUTH_REQUEST_TIMEOUT = Duration.ofSeconds(15);

    private AuthScenario() {
    }

    /**
     * Builds the provider for a scenario.
     *
     * @param context the scenario's context (empty when the suite gave none)
     * @return the provider; the caller closes it
     * @throws IllegalArgumentException when a context value has the wrong type, or the private key cannot be read
     *                                  (the message names the key, never its value)
     */
    static McpOAuth oauth(Map<String, Object> context) {
        McpOAuth.Builder b = McpOAuth.newBuilder()
                .clientMetadataDocument(URI.create(CLIENT_METADATA_DOCUMENT))
                .requestTimeout(AUTH_REQUEST_TIMEOUT)
                .dpop(DpopKey.generate());
        String clientId = string(context, "client_id");
        String secret = string(context, "client_secret");
        String pem = string(context, "private_key_pem");
        String idpTokenEndpoint = string(context, "idp_token_endpoint");
        String workloadToken = string(context, "valid_jwt");
        if (idpTokenEndpoint != null) {
            EnterpriseIdp idp = new EnterpriseIdp(uri(idpTokenEndpoint, "idp_token_endpoint"),
                    required(context, "idp_client_id"), ClientAuthentication.none(),
                    AssertionSource.of(required(context, "idp_id_token")));
            b.enterpriseManaged(idp);
            if (clientId != null) {
                b.client(clientId, secret == null ? ClientAuthentication.none()
                        : ClientAuthentication.clientSecret(secret));
            }
        } else if (workloadToken != null) {
            b.jwtBearer(AssertionSource.of(workloadToken));
            if (clientId != null) {
                b.client(clientId);
            }
        } else if (pem != null) {
            b.client(required(context, "client_id"),
                    ClientAuthentication.privateKeyJwt(pem, string(context, "signing_algorithm")));
            b.clientCredentials();
        } else {
            b.authorizationCode(AuthorizationCodeHandler.nonInteractive(REDIRECT_URI));
            if (clientId != null && secret != null) {
                b.client(clientId, ClientAuthentication.clientSecret(secret));
                b.clientCredentials();
            } else if (clientId != null) {
                b.client(clientId);
            }
        }
        return b.build();
    }

    private static String required(Map<String, Object> context, String key) {
        String value = string(context, key);
        if (value == null) {
            throw new IllegalArgumentException(ConformanceSettings.CONTEXT_ENV + " has no " + key);
        }
        return value;
    }

    private static String string(Map<String, Object> context, String key) {
        Object value = context.get(key);
        if (value == null) {
            return null;
        }
        if (!(value instanceof String s)) {
            throw new IllegalArgumentException(ConformanceSettings.CONTEXT_ENV + ": " + key + " must be a string");
        }
        return s.isBlank() ? null : s;
    }

    private static URI uri(String value, String key) {
        try {
            return URI.create(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(ConformanceSettings.CONTEXT_ENV + ": " + key + " is not a URI", e);
        }
    }
}
