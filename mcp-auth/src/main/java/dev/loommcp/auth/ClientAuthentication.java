package dev.loommcp.auth;

import java.security.PrivateKey;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * How the client authenticates at a token endpoint (OAuth 2.1 section 2.4, RFC 7523 section 2.2): as a public client
 * ({@code none}), with a client secret ({@code client_secret_basic}: HTTP Basic with the form-urlencoded id and
 * secret; {@code client_secret_post}: both in the body), or with a signed JWT ({@code private_key_jwt}: the
 * assertion's {@code iss} and {@code sub} are the client ID, {@code aud} the authorization server's issuer).
 *
 * <p>Immutable and thread-safe; {@code toString()} never shows a secret or key.
 */
public sealed interface ClientAuthentication {

    /**
     * Returns the value of {@code token_endpoint_auth_method} this authentication uses.
     *
     * @return the method's name, or empty for {@link Secret} (picked from the server's metadata)
     */
    Optional<String> method();

    /**
     * A public client: only {@code client_id} is sent.
     *
     * @return the authentication
     */
    static ClientAuthentication none() {
        return new None();
    }

    /**
     * A client secret, sent the way the authorization server prefers ({@code client_secret_basic} unless its
     * metadata lists only {@code client_secret_post}).
     *
     * @param secret the client secret
     * @return the authentication
     * @throws NullPointerException if {@code secret} is {@code null}
     */
    static ClientAuthentication clientSecret(String secret) {
        return new Secret(secret);
    }

    /**
     * A client secret sent with HTTP Basic ({@code client_secret_basic}; id and secret form-urlencoded first, RFC
     * 6749 section 2.3.1).
     *
     * @param secret the client secret
     * @return the authentication
     * @throws NullPointerException if {@code secret} is {@code null}
     */
    static ClientAuthentication clientSecretBasic(String secret) {
        return new SecretBasic(secret);
    }

    /**
     * A client secret sent in the request body ({@code client_secret_post}).
     *
     * @param secret the client secret
     * @return the authentication
     * @throws NullPointerException if {@code secret} is {@code null}
     */
    static ClientAuthentication clientSecretPost(String secret) {
        return new SecretPost(secret);
    }

    /**
     * A JWT signed with the client's private key ({@code private_key_jwt}, RFC 7523).
     *
     * @param key       the private key (EC for {@code ES256}/{@code ES384}/{@code ES512}, RSA for {@code RS256} ..
     *                  {@code PS512})
     * @param algorithm the JWS algorithm, for example {@code ES256}
     * @param keyId     the {@code kid} header, or {@code null} for none
     * @return the authentication
     * @throws NullPointerException     if {@code key} or {@code algorithm} is {@code null}
     * @throws IllegalArgumentException if the algorithm is unknown or does not fit the key
     */
    static ClientAuthentication privateKeyJwt(PrivateKey key, String algorithm, @Nullable String keyId) {
        return new PrivateKeyJwt(key, algorithm, keyId);
    }

    /**
     * A JWT signed with a private key read from PEM ({@code -----BEGIN PRIVATE KEY-----}, unencrypted PKCS#8, EC or
     * RSA).
     *
     * @param pkcs8Pem  the PEM text
     * @param algorithm the JWS algorithm, or {@code null} for the key's default ({@code ES256} for P-256,
     *                  {@code RS256} for RSA)
     * @return the authentication
     * @throws IllegalArgumentException if the PEM cannot be read (the message never quotes it) or the algorithm does
     *                                  not fit the key
     */
    static ClientAuthentication privateKeyJwt(String pkcs8Pem, @Nullable String algorithm) {
        return dev.loommcp.auth.internal.Keys.privateKeyJwt(pkcs8Pem, algorithm);
    }

    /** {@code none}. */
    record None() implements ClientAuthentication {
        @Override
        public Optional<String> method() {
            return Optional.of("none");
        }
    }

    /**
     * A client secret; the method is picked from the authorization server's metadata.
     *
     * @param secret the client secret (never shown by {@link #toString()})
     */
    record Secret(String secret) implements ClientAuthentication {
        /**
         * Checks the secret.
         *
         * @throws NullPointerException if {@code secret} is {@code null}
         */
        public Secret {
            Objects.requireNonNull(secret, "secret");
        }

        @Override
        public Optional<String> method() {
            return Optional.empty();
        }

        @Override
        public String toString() {
            return "Secret[<redacted>]";
        }
    }

    /**
     * {@code client_secret_basic}.
     *
     * @param secret the client secret (never shown by {@link #toString()})
     */
    record SecretBasic(String secret) implements ClientAuthentication {
        /**
         * Checks the secret.
         *
         * @throws NullPointerException if {@code secret} is {@code null}
         */
        public SecretBasic {
            Objects.requireNonNull(secret, "secret");
        }

        @Override
        public Optional<String> method() {
            return Optional.of("client_secret_basic");
        }

        @Override
        public String toString() {
            return "SecretBasic[<redacted>]";
        }
    }

    /**
     * {@code client_secret_post}.
     *
     * @param secret the client secret (never shown by {@link #toString()})
     */
    record SecretPost(String secret) implements ClientAuthentication {
        /**
         * Checks the secret.
         *
         * @throws NullPointerException if {@code secret} is {@code null}
         */
        public SecretPost {
            Objects.requireNonNull(secret, "secret");
        }

        @Override
        public Optional<String> method() {
            return Optional.of("client_secret_post");
        }

        @Override
        public String toString() {
            return "SecretPost[<redacted>]";
        }
    }

    /**
     * {@code private_key_jwt}: a JWT client assertion signed with the client's private key (RFC 7523).
     *
     * @param key       the signing key (never shown by {@link #toString()})
     * @param algorithm the JWS algorithm, such as {@code RS256} or {@code ES256}; it must fit the key
     * @param keyId     the {@code kid} header of the assertion, or {@code null} for none
     */
    record PrivateKeyJwt(PrivateKey key, String algorithm, @Nullable String keyId) implements ClientAuthentication {
        /**
         * Checks the key and the algorithm.
         *
         * @throws NullPointerException     if {@code key} or {@code algorithm} is {@code null}
         * @throws IllegalArgumentException if the algorithm is unknown or does not fit the key
         */
        public PrivateKeyJwt {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(algorithm, "algorithm");
            dev.loommcp.auth.internal.Keys.checkAlgorithm(key, algorithm);
        }

        @Override
        public Optional<String> method() {
            return Optional.of("private_key_jwt");
        }

        @Override
        public String toString() {
            return "PrivateKeyJwt[" + algorithm + (keyId == null ? "" : ", kid=" + keyId) + ", key=<redacted>]";
        }
    }
}
