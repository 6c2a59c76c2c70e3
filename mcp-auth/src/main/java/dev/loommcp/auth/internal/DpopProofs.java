package dev.loommcp.auth.internal;

import dev.loommcp.auth.DpopKey;
import java.net.URI;

/**
 * DPoP proofs (RFC 9449) for one key, and the nonces servers gave, per origin (authorization server and resource
 * server alike): a proof is a JWS ({@code typ: dpop+jwt}, {@code alg: ES256}, the public {@code jwk} in the header)
 * with {@code jti}, {@code htm}, {@code htu} (no query or fragment), {@code iat}, {@code ath} (base64url SHA-256 of
 * the access token, on resource requests) and the origin's latest {@code nonce}. Thread-safe. (Skeleton: to be
 * built.)
 */
public final class DpopProofs {

    /** @param key the key proofs are signed with */
    public DpopProofs(DpopKey key) {
    }

    /**
     * Makes one proof.
     *
     * @param method      the HTTP method
     * @param uri         the request URI
     * @param accessToken the access token the request carries (for {@code ath}), or {@code null} (token requests)
     * @return the compact JWS for the {@code DPoP} header
     */
    public String proof(String method, URI uri, String accessToken) {
        throw new UnsupportedOperationException("not built yet");
    }

    /**
     * Remembers a nonce a server sent ({@code DPoP-Nonce} header) for its origin.
     *
     * @param uri   any URI of the server
     * @param nonce the nonce
     */
    public void nonce(URI uri, String nonce) {
        throw new UnsupportedOperationException("not built yet");
    }
}
