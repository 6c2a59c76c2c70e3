package dev.loommcp.auth;

import java.net.URI;
import java.util.Objects;

/**
 * The enterprise identity provider of enterprise-managed authorization (SEP-990, "Identity Assertion Authorization
 * Grant"): the client exchanges the user's ID token at the IdP's token endpoint for an ID-JAG (RFC 8693 token
 * exchange, {@code requested_token_type=urn:ietf:params:oauth:token-type:id-jag}, {@code audience} = the MCP
 * authorization server's issuer, {@code resource} = the MCP server), then presents it to the MCP authorization server
 * with the JWT-bearer grant (RFC 7523).
 *
 * <p>Immutable and thread-safe; {@code toString()} never shows a secret.
 *
 * @param tokenEndpoint  the IdP's token endpoint
 * @param clientId       the client's ID at the IdP
 * @param authentication how the client authenticates at the IdP
 * @param idToken        the user's ID token (issued by the IdP)
 */
public record EnterpriseIdp(URI tokenEndpoint, String clientId, ClientAuthentication authentication,
                            AssertionSource idToken) {

    /**
     * Creates the description.
     *
     * @throws NullPointerException     if an argument is {@code null}
     * @throws IllegalArgumentException if {@code tokenEndpoint} is not an absolute https URI (plain http is accepted
     *                                  on a loopback host only: localhost, 127.0.0.0/8, ::1)
     */
    public EnterpriseIdp {
        Objects.requireNonNull(tokenEndpoint, "tokenEndpoint");
        Objects.requireNonNull(clientId, "clientId");
        Objects.requireNonNull(authentication, "authentication");
        Objects.requireNonNull(idToken, "idToken");
        String scheme = tokenEndpoint.getScheme();
        if (!tokenEndpoint.isAbsolute() || !("https".equalsIgnoreCase(scheme) || "http".equalsIgnoreCase(scheme))) {
            throw new IllegalArgumentException("the IdP token endpoint must be an absolute http(s) URI");
        }
        dev.loommcp.auth.internal.Urls.requireSecure(tokenEndpoint, "the IdP token endpoint");
    }

    @Override
    public String toString() {
        return "EnterpriseIdp[" + tokenEndpoint + ", clientId=" + clientId + ", " + authentication + "]";
    }
}
