package dev.loommcp.auth;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The client's identity at one authorization server: from dynamic client registration (RFC 7591), a client-ID
 * metadata document (its URL is the {@code client_id}) or pre-registration. Kept per issuer by a {@link TokenStore},
 * so a server that moves to another authorization server is registered there afresh. Immutable and thread-safe;
 * {@code toString()} never shows the secret.
 *
 * @param issuer                  the authorization server's issuer identifier
 * @param clientId                the client ID
 * @param clientSecret            the client secret, or {@code null} for a public client
 * @param tokenEndpointAuthMethod the {@code token_endpoint_auth_method} to use ({@code none},
 *                                {@code client_secret_basic}, {@code client_secret_post}, {@code private_key_jwt})
 * @param secretExpiresAt         when the secret expires ({@code client_secret_expires_at}), or {@code null} for never
 */
public record ClientRegistration(String issuer, String clientId, @Nullable String clientSecret,
                                 String tokenEndpointAuthMethod, @Nullable Instant secretExpiresAt) {

    /**
     * Creates a registration.
     *
     * @throws NullPointerException if {@code issuer}, {@code clientId} or {@code tokenEndpointAuthMethod} is
     *                              {@code null}
     */
    public ClientRegistration {
        Objects.requireNonNull(issuer, "issuer");
        Objects.requireNonNull(clientId, "clientId");
        Objects.requireNonNull(tokenEndpointAuthMethod, "tokenEndpointAuthMethod");
    }

    @Override
    public String toString() {
        return "ClientRegistration[issuer=" + issuer + ", clientId=" + clientId + ", secret="
                + (clientSecret == null ? "none" : "<redacted>") + ", method=" + tokenEndpointAuthMethod
                + ", secretExpiresAt=" + secretExpiresAt + "]";
    }
}
