package dev.loommcp.auth.internal;

import dev.loommcp.auth.ClientAuthentication;
import dev.loommcp.auth.TokenSet;
import dev.loommcp.spi.Deadline;
import java.io.IOException;
import java.util.Map;

/**
 * Token requests (OAuth 2.1 section 3.2): adds the client authentication ({@code none}, {@code client_secret_basic}
 * with form-urlencoded parts, {@code client_secret_post}, {@code private_key_jwt}; {@link ClientAuthentication.Secret}
 * picks basic unless the server lists only post), the DPoP proof when a key is set (retrying once with the server's
 * nonce on {@code use_dpop_nonce}), posts the form and parses the token response into a {@link TokenSet}. Also the
 * grant-specific requests: client credentials, JWT bearer (workload identity), and the enterprise-managed
 * token exchange + JWT bearer. Thread-safe. (Skeleton: to be built.)
 */
public final class TokenEndpoint {

    /**
     * @param http the HTTP client
     * @param dpop the DPoP proof maker, or {@code null} for bearer tokens
     */
    public TokenEndpoint(AuthHttp http, DpopProofs dpop) {
    }

    /**
     * Posts one token request to {@code as.tokenEndpoint()}.
     *
     * @param as       the authorization server (its issuer is the {@code aud} of a {@code private_key_jwt} assertion
     *                 and the issuer of the returned set)
     * @param clientId the client ID
     * @param auth     how the client authenticates
     * @param params   the grant's parameters, in order ({@code grant_type} first; {@code null} values left out)
     * @param deadline the caller's deadline
     * @return the tokens
     * @throws TokenError           if the server answered with an OAuth error (or an unusable response)
     * @throws IOException          on a network failure
     * @throws InterruptedException if interrupted
     */
    public TokenSet request(AuthServerMetadata as, String clientId, ClientAuthentication auth,
                            Map<String, String> params, Deadline deadline)
            throws TokenError, IOException, InterruptedException {
        throw new UnsupportedOperationException("not built yet");
    }

    /**
     * The client-credentials grant ({@code grant_type=client_credentials}, {@code scope}, {@code resource}).
     *
     * @param scope    the scope, or {@code null} to omit it
     * @param resource the protected resource (RFC 8707)
     */
    public TokenSet clientCredentials(AuthServerMetadata as, String clientId, ClientAuthentication auth, String scope,
                                      String resource, Deadline deadline)
            throws TokenError, IOException, InterruptedException {
        throw new UnsupportedOperationException("not built yet");
    }

    /**
     * The JWT-bearer grant with a workload identity token (RFC 7523 section 2.1:
     * {@code grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer}, {@code assertion}).
     */
    public TokenSet jwtBearer(AuthServerMetadata as, String clientId, ClientAuthentication auth,
                              dev.loommcp.auth.AssertionSource assertion, String scope, String resource,
                              Deadline deadline) throws TokenError, IOException, InterruptedException {
        throw new UnsupportedOperationException("not built yet");
    }

    /**
     * Enterprise-managed authorization (SEP-990): RFC 8693 token exchange of the ID token at the IdP for an ID-JAG
     * ({@code audience} = {@code as.issuer()}, {@code resource}), then the JWT-bearer grant with it at {@code as}.
     */
    public TokenSet enterpriseManaged(AuthServerMetadata as, String clientId, ClientAuthentication auth,
                                      dev.loommcp.auth.EnterpriseIdp idp, String scope, String resource,
                                      Deadline deadline) throws TokenError, IOException, InterruptedException {
        throw new UnsupportedOperationException("not built yet");
    }
}
