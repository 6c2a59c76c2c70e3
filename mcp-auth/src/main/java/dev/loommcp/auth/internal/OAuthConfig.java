package dev.loommcp.auth.internal;

import dev.loommcp.auth.AssertionSource;
import dev.loommcp.auth.AuthorizationCodeHandler;
import dev.loommcp.auth.ClientAuthentication;
import dev.loommcp.auth.DpopKey;
import dev.loommcp.auth.EnterpriseIdp;
import dev.loommcp.auth.TokenStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * The settings of one {@code McpOAuth}, as its builder left them. Immutable.
 *
 * @param grant                  {@code authorization_code}, {@code client_credentials}, {@code jwt_bearer} or
 *                               {@code enterprise_managed}; {@code authorization_code} when both it and client
 *                               credentials are configured
 * @param clientCredentials      whether client credentials is configured beside the authorization code (then the
 *                               authorization server's {@code grant_types_supported} chooses), or alone
 * @param codeHandler            the authorization-code handler (authorization_code only), else {@code null}
 * @param assertion              the workload identity token source (jwt_bearer only), else {@code null}
 * @param idp                    the enterprise IdP (enterprise_managed only), else {@code null}
 * @param clientId               the pre-registered client ID, or {@code null}
 * @param clientAuthentication   its authentication, or {@code null}
 * @param clientMetadataDocument the CIMD URL, or {@code null}
 * @param clientName             the DCR client_name
 * @param applicationType        the DCR application_type
 * @param scope                  the fallback scope, or {@code null}
 * @param offlineAccess          whether to ask for refresh tokens
 * @param dpopKey                the DPoP key, or {@code null}
 * @param tokenStore             the store
 * @param httpClient             the caller's HTTP client, or {@code null} to create (and close) one
 * @param requestTimeout         per AS request
 * @param authorizationTimeout   per interactive authorization
 * @param maxAuthorizations      per MCP request
 * @param allowedDestinations    where authorization requests may go, or {@code null} for anywhere (after the https
 *                               rule)
 */
public record OAuthConfig(String grant, boolean clientCredentials, AuthorizationCodeHandler codeHandler, AssertionSource assertion,
                          EnterpriseIdp idp, String clientId, ClientAuthentication clientAuthentication,
                          URI clientMetadataDocument, String clientName, String applicationType, String scope,
                          boolean offlineAccess, DpopKey dpopKey, TokenStore tokenStore, HttpClient httpClient,
                          Duration requestTimeout, Duration authorizationTimeout, int maxAuthorizations,
                          Predicate<URI> allowedDestinations) {

    /**
     * The grant to run at an authorization server: with both the authorization code and client credentials
     * configured, client credentials when the server's {@code grant_types_supported} lists {@code client_credentials}
     * and not {@code authorization_code}, else the authorization code; otherwise {@link #grant()}.
     *
     * @param as the server's metadata
     * @return the grant
     */
    public String grantAt(AuthServerMetadata as) {
        if ("authorization_code".equals(grant) && clientCredentials
                && as.grantTypesSupported().contains("client_credentials")
                && !as.grantTypesSupported().contains("authorization_code")) {
            return "client_credentials";
        }
        return grant;
    }
}
