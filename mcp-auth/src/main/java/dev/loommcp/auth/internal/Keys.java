package dev.loommcp.auth.internal;

import dev.loommcp.auth.ClientAuthentication;
import java.security.KeyPair;
import java.security.PrivateKey;

/** Key handling: PEM, algorithm checks, P-256 generation, RFC 7638 thumbprints. (Skeleton: to be built.) */
public final class Keys {

    private Keys() {
    }

    public static ClientAuthentication privateKeyJwt(String pkcs8Pem, String algorithm) {
        throw new UnsupportedOperationException("not built yet");
    }

    public static void checkAlgorithm(PrivateKey key, String algorithm) {
    }

    public static KeyPair generateP256() {
        throw new UnsupportedOperationException("not built yet");
    }

    public static void checkP256(KeyPair keyPair) {
    }

    public static String thumbprint(KeyPair keyPair) {
        throw new UnsupportedOperationException("not built yet");
    }
}
