package dev.loommcp.auth;

import java.security.KeyPair;
import java.util.Objects;

/**
 * The key pair DPoP proofs are signed with (RFC 9449): access tokens obtained with it are bound to it, so the same
 * key must sign every proof for them. Only EC P-256 ({@code ES256}) keys are supported.
 *
 * <p>Immutable and thread-safe; {@code toString()} shows the JWK thumbprint (RFC 7638), never the private key.
 */
public final class DpopKey {

    private final KeyPair keyPair;
    private final String thumbprint;

    private DpopKey(KeyPair keyPair) {
        this.keyPair = keyPair;
        this.thumbprint = dev.loommcp.auth.internal.Keys.thumbprint(keyPair);
    }

    /**
     * Generates a fresh P-256 key pair (the usual choice: one per client instance).
     *
     * @return the key
     */
    public static DpopKey generate() {
        return new DpopKey(dev.loommcp.auth.internal.Keys.generateP256());
    }

    /**
     * Uses an existing EC P-256 key pair.
     *
     * @param keyPair the key pair
     * @return the key
     * @throws NullPointerException     if {@code keyPair} is {@code null}
     * @throws IllegalArgumentException if it is not an EC P-256 key pair
     */
    public static DpopKey of(KeyPair keyPair) {
        Objects.requireNonNull(keyPair, "keyPair");
        dev.loommcp.auth.internal.Keys.checkP256(keyPair);
        return new DpopKey(keyPair);
    }

    /**
     * Returns the key pair that signs the DPoP proofs.
     *
     * @return the key pair
     */
    public KeyPair keyPair() {
        return keyPair;
    }

    /**
     * Returns the public key's thumbprint, the {@code jkt} that DPoP-bound tokens carry.
     *
     * @return the RFC 7638 JWK SHA-256 thumbprint of the public key, base64url
     */
    public String thumbprint() {
        return thumbprint;
    }

    @Override
    public String toString() {
        return "DpopKey[jkt=" + thumbprint + "]";
    }
}
