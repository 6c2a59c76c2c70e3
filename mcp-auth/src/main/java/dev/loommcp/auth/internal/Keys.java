package dev.loommcp.auth.internal;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.loommcp.auth.ClientAuthentication;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Key handling for JOSE: reading unencrypted PKCS#8 PEM private keys (EC or RSA), checking that a JWS algorithm fits
 * a key, generating and checking EC P-256 key pairs (DPoP), RFC 7638 JWK thumbprints and signing JWTs. No message
 * ever quotes key material or PEM text. Stateless and thread-safe.
 */
public final class Keys {

    /** The JWS algorithms for EC keys, each with the curve it needs. */
    static final Map<String, Curve> EC_ALGORITHMS = Map.of("ES256", Curve.P_256, "ES384", Curve.P_384,
            "ES512", Curve.P_521);
    /** The JWS algorithms for RSA keys. */
    static final List<String> RSA_ALGORITHMS = List.of("RS256", "RS384", "RS512", "PS256", "PS384", "PS512");
    /** The smallest RSA modulus accepted, in bits (RFC 7518 section 3.3). */
    static final int MIN_RSA_BITS = 2048;

    private static final String BEGIN = "-----BEGIN PRIVATE KEY-----";
    private static final String END = "-----END PRIVATE KEY-----";
    private static final SecureRandom RANDOM = new SecureRandom();

    private Keys() {
    }

    /**
     * A {@code private_key_jwt} authentication with a key read from PEM.
     *
     * @param pkcs8Pem  the PEM text ({@code -----BEGIN PRIVATE KEY-----}, unencrypted PKCS#8, EC or RSA)
     * @param algorithm the JWS algorithm, or {@code null} for the key's default ({@code ES256}/{@code ES384}/
     *                  {@code ES512} by curve, {@code RS256} for RSA)
     * @return the authentication
     * @throws IllegalArgumentException if the PEM cannot be read (the message never quotes it) or the algorithm does
     *                                  not fit the key
     */
    public static ClientAuthentication privateKeyJwt(String pkcs8Pem, String algorithm) {
        PrivateKey key = readPkcs8(pkcs8Pem);
        return ClientAuthentication.privateKeyJwt(key, algorithm != null ? algorithm : defaultAlgorithm(key), null);
    }

    /**
     * Reads an unencrypted PKCS#8 private key (EC or RSA) from PEM.
     *
     * @param pem the PEM text; text around the one {@code PRIVATE KEY} block is ignored
     * @return the key
     * @throws IllegalArgumentException if there is no such block, it is encrypted or in a key-specific format
     *                                  (SEC 1, PKCS#1), its base64 is broken, or it holds no EC or RSA key; the
     *                                  message never quotes the PEM
     */
    static PrivateKey readPkcs8(String pem) {
        if (pem == null || pem.isBlank()) {
            throw new IllegalArgumentException("the private key PEM is empty");
        }
        if (pem.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----")) {
            throw new IllegalArgumentException("the private key PEM is encrypted; give an unencrypted PKCS#8 key "
                    + "(openssl pkcs8 -topk8 -nocrypt)");
        }
        if (pem.contains("-----BEGIN EC PRIVATE KEY-----") || pem.contains("-----BEGIN RSA PRIVATE KEY-----")) {
            throw new IllegalArgumentException("the private key PEM is in the SEC 1 or PKCS#1 format; convert it to "
                    + "PKCS#8 (-----BEGIN PRIVATE KEY-----) with openssl pkcs8 -topk8 -nocrypt");
        }
        int begin = pem.indexOf(BEGIN);
        int end = begin < 0 ? -1 : pem.indexOf(END, begin + BEGIN.length());
        if (begin < 0 || end < 0) {
            throw new IllegalArgumentException("the private key is not a PKCS#8 PEM (expected a " + BEGIN + " ... "
                    + END + " block)");
        }
        String body = pem.substring(begin + BEGIN.length(), end).replaceAll("\\s", "");
        byte[] der;
        try {
            der = Base64.getDecoder().decode(body);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the private key PEM's body is not valid base64");
        }
        if (der.length == 0) {
            throw new IllegalArgumentException("the private key PEM's body is empty");
        }
        try {
            PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
            String alg = spec.getAlgorithm();
            if (alg != null && !"EC".equals(alg) && !"RSA".equals(alg)) {
                throw new IllegalArgumentException("the private key PEM holds a key of type " + SafeText.clean(alg)
                        + "; EC or RSA keys only");
            }
            for (String type : alg != null ? List.of(alg) : List.of("EC", "RSA")) {
                try {
                    return KeyFactory.getInstance(type).generatePrivate(spec);
                } catch (GeneralSecurityException | RuntimeException e) {
                    // the cause's text is not kept: parser messages may describe the key's bytes
                }
            }
            throw new IllegalArgumentException("the private key PEM does not hold a readable PKCS#8 EC or RSA key");
        } finally {
            Arrays.fill(der, (byte) 0);
        }
    }

    /**
     * The default JWS algorithm of a key: {@code ES256}, {@code ES384} or {@code ES512} by the EC curve, {@code RS256}
     * for RSA.
     *
     * @throws IllegalArgumentException for another key type or EC curve
     */
    static String defaultAlgorithm(PrivateKey key) {
        if (key instanceof ECPrivateKey ec) {
            Curve curve = Curve.forECParameterSpec(ec.getParams());
            for (Map.Entry<String, Curve> e : EC_ALGORITHMS.entrySet()) {
                if (e.getValue().equals(curve)) {
                    return e.getKey();
                }
            }
            throw new IllegalArgumentException("EC keys must be on P-256, P-384 or P-521, not " + curveName(curve));
        }
        if (key instanceof RSAKey) {
            return "RS256";
        }
        throw new IllegalArgumentException("unsupported key type " + key.getAlgorithm() + " (EC or RSA only)");
    }

    /**
     * Checks that a JWS algorithm is supported and fits the key: {@code ES256}/{@code ES384}/{@code ES512} an EC key
     * on P-256/P-384/P-521, {@code RS*}/{@code PS*} an RSA key of at least {@value #MIN_RSA_BITS} bits.
     *
     * @param key       the private key
     * @param algorithm the JWS algorithm
     * @throws IllegalArgumentException if the algorithm is unknown or does not fit the key
     */
    public static void checkAlgorithm(PrivateKey key, String algorithm) {
        Curve needed = EC_ALGORITHMS.get(algorithm);
        if (needed != null) {
            Curve curve = key instanceof ECPrivateKey ec ? Curve.forECParameterSpec(ec.getParams()) : null;
            if (!needed.equals(curve)) {
                throw new IllegalArgumentException(algorithm + " needs an EC " + needed.getName() + " key, not "
                        + (key instanceof ECPrivateKey ? "one on " + curveName(curve) : describe(key)));
            }
        } else if (RSA_ALGORITHMS.contains(algorithm)) {
            if (!(key instanceof RSAKey rsa)) {
                throw new IllegalArgumentException(algorithm + " needs an RSA key, not " + describe(key));
            }
            int bits = rsa.getModulus().bitLength();
            if (bits < MIN_RSA_BITS) {
                throw new IllegalArgumentException(algorithm + " needs an RSA key of at least " + MIN_RSA_BITS
                        + " bits, not " + bits);
            }
        } else {
            throw new IllegalArgumentException("unsupported JWS algorithm " + SafeText.quote(algorithm)
                    + " (supported: ES256, ES384, ES512, RS256, RS384, RS512, PS256, PS384, PS512)");
        }
    }

    /**
     * Generates an EC P-256 key pair.
     *
     * @return the key pair
     * @throws IllegalStateException if the JDK has no P-256 support
     */
    public static KeyPair generateP256() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK cannot generate EC P-256 keys", e);
        }
    }

    /**
     * Checks that a key pair is an EC P-256 pair whose halves belong together.
     *
     * @param keyPair the key pair
     * @throws IllegalArgumentException if a half is missing, is not EC P-256, or the two do not match
     */
    public static void checkP256(KeyPair keyPair) {
        if (!(keyPair.getPublic() instanceof ECPublicKey pub)
                || !Curve.P_256.equals(Curve.forECParameterSpec(pub.getParams()))) {
            throw new IllegalArgumentException("the DPoP public key must be an EC P-256 key, not "
                    + describe(keyPair.getPublic()));
        }
        if (!(keyPair.getPrivate() instanceof ECPrivateKey priv)
                || !Curve.P_256.equals(Curve.forECParameterSpec(priv.getParams()))) {
            throw new IllegalArgumentException("the DPoP private key must be an EC P-256 key, not "
                    + describe(keyPair.getPrivate()));
        }
        try {
            byte[] probe = "loom-mcp key pair check".getBytes(StandardCharsets.US_ASCII);
            Signature s = Signature.getInstance("SHA256withECDSA");
            s.initSign(priv);
            s.update(probe);
            byte[] sig = s.sign();
            Signature v = Signature.getInstance("SHA256withECDSA");
            v.initVerify(pub);
            v.update(probe);
            if (!v.verify(sig)) {
                throw new IllegalArgumentException("the DPoP public and private keys do not belong together");
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("the DPoP key pair cannot sign (" + e.getClass().getSimpleName()
                    + ")");
        }
    }

    /**
     * The RFC 7638 JWK SHA-256 thumbprint of an EC P-256 key pair's public key, base64url.
     *
     * @param keyPair the key pair
     * @return the thumbprint
     * @throws IllegalArgumentException if the public key is not EC P-256
     */
    public static String thumbprint(KeyPair keyPair) {
        try {
            return publicJwk(keyPair).computeThumbprint().toString();
        } catch (JOSEException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }

    /**
     * The public JWK of an EC P-256 key pair (no private part).
     *
     * @throws IllegalArgumentException if the public key is not EC P-256
     */
    static ECKey publicJwk(KeyPair keyPair) {
        if (!(keyPair.getPublic() instanceof ECPublicKey pub)) {
            throw new IllegalArgumentException("the public key must be an EC P-256 key, not "
                    + describe(keyPair.getPublic()));
        }
        return new ECKey.Builder(Curve.P_256, pub).build();
    }

    /**
     * A signer for a key and algorithm (already {@linkplain #checkAlgorithm checked}).
     *
     * @throws IllegalArgumentException if the key does not fit
     */
    static JWSSigner signer(PrivateKey key, String algorithm) {
        try {
            if (EC_ALGORITHMS.containsKey(algorithm)) {
                return new ECDSASigner((ECPrivateKey) key);
            }
            return new RSASSASigner(key);
        } catch (JOSEException | ClassCastException e) {
            throw new IllegalArgumentException(algorithm + " does not fit " + describe(key));
        }
    }

    /**
     * Signs a JWT.
     *
     * @return the compact serialization
     * @throws IllegalStateException if signing fails (the message names the algorithm only)
     */
    static String sign(JWSSigner signer, JWSHeader header, JWTClaimsSet claims) {
        SignedJWT jwt = new SignedJWT(header, claims);
        try {
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException("signing a " + header.getAlgorithm() + " JWT failed ("
                    + e.getClass().getSimpleName() + ")");
        }
        return jwt.serialize();
    }

    /** @return a JWS algorithm by name (checked before) */
    static JWSAlgorithm algorithm(String name) {
        return JWSAlgorithm.parse(name);
    }

    /** @return a fresh random identifier (128 bits, base64url), for {@code jti} claims */
    static String randomId() {
        byte[] b = new byte[16];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    private static String describe(java.security.Key key) {
        if (key == null) {
            return "none";
        }
        if (key instanceof java.security.interfaces.ECKey ec) {
            return "an EC key on " + curveName(Curve.forECParameterSpec(ec.getParams()));
        }
        if (key instanceof RSAKey rsa) {
            return "an RSA key of " + rsa.getModulus().bitLength() + " bits";
        }
        return "a " + key.getAlgorithm() + " key";
    }

    private static String curveName(Curve curve) {
        return curve == null ? "an unsupported curve" : curve.getName();
    }
}
