package dev.loommcp.auth;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The tokens one authorization server ({@code issuer}) issued for one protected resource: what a {@link TokenStore}
 * keeps. Immutable and thread-safe; {@code toString()} never shows a token. Two sets are equal when every component
 * is (the store's compare-and-delete relies on it).
 *
 * @param issuer       the authorization server's issuer identifier, exactly as in its metadata (or the
 *                     2025-03-26 fallback origin)
 * @param accessToken  the access token
 * @param tokenType    {@code Bearer} or {@code DPoP}, as the token response said
 * @param refreshToken the refresh token, or {@code null}
 * @param expiresAt    when the access token expires, or {@code null} when the server did not say
 * @param scope        the granted scope (space-separated), or {@code null} when the server did not say
 */
public record TokenSet(String issuer, String accessToken, String tokenType, @Nullable String refreshToken,
                       @Nullable Instant expiresAt, @Nullable String scope) {

    /**
     * Creates a token set.
     *
     * @throws NullPointerException if {@code issuer}, {@code accessToken} or {@code tokenType} is {@code null}
     */
    public TokenSet {
        Objects.requireNonNull(issuer, "issuer");
        Objects.requireNonNull(accessToken, "accessToken");
        Objects.requireNonNull(tokenType, "tokenType");
    }

    /**
     * Whether the access token has expired or expires within {@code skewSeconds}.
     *
     * @param now         the current time
     * @param skewSeconds the margin, in seconds
     * @return {@code false} when the expiry is unknown
     */
    public boolean expiresWithin(Instant now, long skewSeconds) {
        return expiresAt != null && !now.plusSeconds(skewSeconds).isBefore(expiresAt);
    }

    @Override
    public String toString() {
        return "TokenSet[issuer=" + issuer + ", type=" + tokenType + ", accessToken=<redacted>, refreshToken="
                + (refreshToken == null ? "none" : "<redacted>") + ", expiresAt=" + expiresAt + ", scope=" + scope
                + "]";
    }
}
