package dev.loommcp.auth.internal;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import dev.loommcp.auth.DpopKey;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * DPoP proofs (RFC 9449) for one key, and the nonces servers gave, per origin (authorization server and resource
 * server alike): a proof is a JWS ({@code typ: dpop+jwt}, {@code alg: ES256}, the public {@code jwk} in the header)
 * with {@code jti} (fresh for every proof), {@code htm}, {@code htu} (scheme, host, port and path: no query, fragment
 * or user info), {@code iat} (seconds), {@code ath} (base64url SHA-256 of the access token, on resource requests) and
 * the origin's latest {@code nonce}.
 *
 * <p>Nonces are kept per origin ({@code scheme://host:port}), the latest one wins; a nonce that is not a valid
 * {@code DPoP-Nonce} value (RFC 9449 section 8.1: 1 to {@value #MAX_NONCE_LENGTH} visible ASCII characters other than
 * {@code "} and {@code \}) is ignored. At most {@value #MAX_ORIGINS} origins are remembered (then the memory starts
 * afresh). Thread-safe.
 */
public final class DpopProofs {

    /** The longest nonce kept, in characters. */
    public static final int MAX_NONCE_LENGTH = 1024;
    /** How many origins' nonces are kept at most. */
    public static final int MAX_ORIGINS = 256;
    /** The {@code typ} header of DPoP proofs. */
    public static final String TYP = "dpop+jwt";

    private static final System.Logger LOG = System.getLogger("dev.loommcp.auth");

    private final JWSSigner signer;
    private final JWSHeader header;
    private final ConcurrentHashMap<String, String> nonces = new ConcurrentHashMap<>();

    /**
     * @param key the key proofs are signed with
     * @throws NullPointerException if {@code key} is {@code null}
     */
    public DpopProofs(DpopKey key) {
        Objects.requireNonNull(key, "key");
        this.signer = Keys.signer(key.keyPair().getPrivate(), "ES256");
        this.header = new JWSHeader.Builder(JWSAlgorithm.ES256).type(new JOSEObjectType(TYP))
                .jwk(Keys.publicJwk(key.keyPair())).build();
    }

    /**
     * Makes one proof.
     *
     * @param method      the HTTP method, as sent ({@code POST}, {@code GET}, {@code DELETE})
     * @param uri         the request URI (absolute)
     * @param accessToken the access token the request carries (for {@code ath}), or {@code null} (token requests)
     * @return the compact JWS for the {@code DPoP} header
     * @throws NullPointerException     if {@code method} or {@code uri} is {@code null}
     * @throws IllegalArgumentException if {@code uri} is not absolute
     */
    public String proof(String method, URI uri, String accessToken) {
        Objects.requireNonNull(method, "method");
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                .jwtID(Keys.randomId())
                .claim("htm", method)
                .claim("htu", htu(uri))
                .issueTime(Date.from(Instant.ofEpochSecond(Instant.now().getEpochSecond())));
        if (accessToken != null) {
            claims.claim("ath", ath(accessToken));
        }
        String nonce = nonces.get(origin(uri));
        if (nonce != null) {
            claims.claim("nonce", nonce);
        }
        return Keys.sign(signer, header, claims.build());
    }

    /**
     * Remembers a nonce a server sent ({@code DPoP-Nonce} header) for its origin; an invalid one is ignored.
     *
     * @param uri   any URI of the server
     * @param nonce the nonce
     * @throws NullPointerException     if {@code uri} is {@code null}
     * @throws IllegalArgumentException if {@code uri} is not absolute
     */
    public void nonce(URI uri, String nonce) {
        String origin = origin(uri);
        if (!validNonce(nonce)) {
            LOG.log(System.Logger.Level.DEBUG, "ignoring an invalid DPoP-Nonce from {0}", origin);
            return;
        }
        if (nonces.size() >= MAX_ORIGINS && !nonces.containsKey(origin)) {
            nonces.clear();
        }
        nonces.put(origin, nonce);
    }

    /**
     * Remembers the {@code DPoP-Nonce} of a response, if it has one.
     *
     * @param uri     the request URI
     * @param headers the response headers
     * @return whether the response carried a valid nonce
     * @throws NullPointerException if an argument is {@code null}
     */
    public boolean noteNonce(URI uri, HttpHeaders headers) {
        String n = headers.firstValue("DPoP-Nonce").orElse(null);
        if (n == null) {
            return false;
        }
        nonce(uri, n);
        return validNonce(n);
    }

    /**
     * The latest nonce an origin gave.
     *
     * @param uri any URI of the server
     * @return the nonce, or {@code null} when it gave none
     */
    public String nonce(URI uri) {
        return nonces.get(origin(uri));
    }

    /**
     * The {@code htu} of a request: scheme and host in lower case, the port unless it is the scheme's default, the
     * path ({@code /} when empty); no user info, query or fragment (RFC 9449 section 4.2).
     */
    static String htu(URI uri) {
        requireAbsolute(uri);
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        int port = uri.getPort();
        boolean defaultPort = port < 0 || ("https".equals(scheme) && port == 443)
                || ("http".equals(scheme) && port == 80);
        String path = uri.getRawPath();
        return scheme + "://" + host(uri) + (defaultPort ? "" : ":" + port)
                + (path == null || path.isEmpty() ? "/" : path);
    }

    /** The origin a nonce belongs to: {@code scheme://host:port}, the port made explicit. */
    static String origin(URI uri) {
        requireAbsolute(uri);
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        int port = uri.getPort() >= 0 ? uri.getPort() : "https".equals(scheme) ? 443 : "http".equals(scheme) ? 80 : -1;
        return scheme + "://" + host(uri) + ":" + port;
    }

    /** @return base64url(SHA-256(ASCII(token))), the {@code ath} claim */
    static String ath(String accessToken) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(accessToken.getBytes(StandardCharsets.US_ASCII));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(h);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }

    /** Whether {@code s} is a {@code DPoP-Nonce} value: 1*NQCHAR (%x21 / %x23-5B / %x5D-7E), bounded. */
    static boolean validNonce(String s) {
        if (s == null || s.isEmpty() || s.length() > MAX_NONCE_LENGTH) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x21 || c > 0x7e || c == '"' || c == '\\') {
                return false;
            }
        }
        return true;
    }

    private static String host(URI uri) {
        String host = uri.getHost();
        if (host == null) {
            throw new IllegalArgumentException("the URI " + AuthHttp.describe(uri) + " has no host");
        }
        return host.toLowerCase(Locale.ROOT);
    }

    private static void requireAbsolute(URI uri) {
        Objects.requireNonNull(uri, "uri");
        if (!uri.isAbsolute() || uri.isOpaque()) {
            throw new IllegalArgumentException("a DPoP proof needs an absolute URI");
        }
    }

    @Override
    public String toString() {
        return "DpopProofs[jkt=" + nonThrowingThumbprint() + ", origins with a nonce=" + nonces.size() + "]";
    }

    private String nonThrowingThumbprint() {
        try {
            return header.getJWK().computeThumbprint().toString();
        } catch (com.nimbusds.jose.JOSEException e) {
            return "?";
        }
    }
}
