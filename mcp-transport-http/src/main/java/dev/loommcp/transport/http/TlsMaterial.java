package dev.loommcp.transport.http;

import dev.loommcp.McpTransportException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * Builds the {@link SSLContext} of a transport from a client identity (PEM chain + PKCS#8 key, or PKCS#12) and
 * optional extra trusted certificates. Key material never appears in messages: errors name the file and what was
 * wrong with it, and causes from key parsing are dropped.
 */
final class TlsMaterial {

    private static final String KEY_BEGIN = "-----BEGIN PRIVATE KEY-----";
    private static final String KEY_END = "-----END PRIVATE KEY-----";
    private static final List<String> KEY_ALGORITHMS = List.of("RSA", "EC", "Ed25519", "Ed448", "RSASSA-PSS");

    private TlsMaterial() {
    }

    static SSLContext build(Path certChain, Path pkcs8Key, Path pkcs12, char[] pkcs12Password, Path trustedPem) {
        try {
            KeyManager[] keyManagers = null;
            if (certChain != null) {
                keyManagers = fromPem(certChain, pkcs8Key);
            } else if (pkcs12 != null) {
                keyManagers = fromPkcs12(pkcs12, pkcs12Password);
            }
            TrustManager[] trustManagers = null;
            if (trustedPem != null) {
                trustManagers = trust(trustedPem);
            }
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(keyManagers, trustManagers, new SecureRandom());
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new McpTransportException("cannot set up TLS: " + e.getClass().getSimpleName());
        }
    }

    private static KeyManager[] fromPem(Path certChain, Path keyFile) throws GeneralSecurityException {
        List<Certificate> chain = readCertificates(certChain, "client certificate chain");
        if (chain.isEmpty()) {
            throw new McpTransportException("no certificate in the client certificate chain file " + certChain);
        }
        PrivateKey key = readPkcs8(keyFile);
        if (!matches(key, chain.get(0))) {
            throw new McpTransportException("the private key in " + keyFile
                    + " does not belong to the first certificate in " + certChain);
        }
        char[] pw = randomPassword();
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            try {
                ks.load(null, null);
            } catch (IOException e) {
                throw new McpTransportException("cannot create an in-memory key store");
            }
            try {
                ks.setKeyEntry("client", key, pw, chain.toArray(Certificate[]::new));
            } catch (GeneralSecurityException e) {
                throw new McpTransportException("the private key in " + keyFile
                        + " does not fit the certificate chain in " + certChain);
            }
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, pw);
            return kmf.getKeyManagers();
        } finally {
            Arrays.fill(pw, '\0');
        }
    }

    private static KeyManager[] fromPkcs12(Path file, char[] password) throws GeneralSecurityException {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            ks.load(in, password);
        } catch (IOException e) {
            // wrong password and corrupt files both end here; the cause may quote internals, drop it
            throw new McpTransportException("cannot read the PKCS#12 key store " + file
                    + " (wrong password, unreadable or not PKCS#12)");
        } catch (GeneralSecurityException e) {
            throw new McpTransportException("cannot read the PKCS#12 key store " + file + ": "
                    + e.getClass().getSimpleName());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        try {
            kmf.init(ks, password);
        } catch (GeneralSecurityException e) {
            throw new McpTransportException("cannot use the key in the PKCS#12 key store " + file + ": "
                    + e.getClass().getSimpleName());
        }
        return kmf.getKeyManagers();
    }

    private static TrustManager[] trust(Path pem) throws GeneralSecurityException {
        List<Certificate> certs = readCertificates(pem, "trusted certificates");
        if (certs.isEmpty()) {
            throw new McpTransportException("no certificate in the trusted certificates file " + pem);
        }
        KeyStore ts = KeyStore.getInstance(KeyStore.getDefaultType());
        try {
            ts.load(null, null);
        } catch (IOException e) {
            throw new McpTransportException("cannot create an in-memory trust store");
        }
        int i = 0;
        for (Certificate c : certs) {
            ts.setCertificateEntry("trusted-" + i++, c);
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ts);
        return tmf.getTrustManagers();
    }

    private static List<Certificate> readCertificates(Path file, String what) {
        try (InputStream in = Files.newInputStream(file)) {
            CertificateFactory cf = CertificateFactory.getInstance("X.509");
            Collection<? extends Certificate> certs = cf.generateCertificates(in);
            List<Certificate> out = new ArrayList<>();
            for (Certificate c : certs) {
                if (c instanceof X509Certificate) {
                    out.add(c);
                }
            }
            return out;
        } catch (IOException e) {
            throw new McpTransportException("cannot read the " + what + " file " + file + ": "
                    + e.getClass().getSimpleName(), e);
        } catch (GeneralSecurityException e) {
            throw new McpTransportException("the " + what + " file " + file + " holds no valid PEM certificate");
        }
    }

    private static PrivateKey readPkcs8(Path file) {
        byte[] raw;
        try {
            raw = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new McpTransportException("cannot read the private key file " + file + ": "
                    + e.getClass().getSimpleName());
        }
        String text = new String(raw, StandardCharsets.US_ASCII);
        Arrays.fill(raw, (byte) 0);
        if (text.contains("ENCRYPTED PRIVATE KEY")) {
            throw new McpTransportException("the private key file " + file
                    + " holds an encrypted key; an unencrypted PKCS#8 key (BEGIN PRIVATE KEY) is needed");
        }
        int b = text.indexOf(KEY_BEGIN);
        int e = b < 0 ? -1 : text.indexOf(KEY_END, b);
        if (b < 0 || e < 0) {
            throw new McpTransportException("the private key file " + file
                    + " holds no PKCS#8 key (BEGIN PRIVATE KEY); convert PKCS#1 or SEC1 keys with"
                    + " 'openssl pkcs8 -topk8 -nocrypt'");
        }
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(text.substring(b + KEY_BEGIN.length(), e));
        } catch (IllegalArgumentException ex) {
            throw new McpTransportException("the private key file " + file + " is not valid base64 PEM");
        }
        try {
            PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
            for (String alg : KEY_ALGORITHMS) {
                try {
                    return KeyFactory.getInstance(alg).generatePrivate(spec);
                } catch (GeneralSecurityException | IllegalArgumentException ignored) {
                    // try the next algorithm; the message could describe the key, so it is not kept
                }
            }
        } finally {
            Arrays.fill(der, (byte) 0);
        }
        throw new McpTransportException("the private key file " + file
                + " holds a PKCS#8 key of an unsupported algorithm (RSA, EC, Ed25519, Ed448 are supported)");
    }

    /** Whether the key signs what the leaf certificate's public key verifies (when the algorithm is known). */
    private static boolean matches(PrivateKey key, Certificate leaf) {
        String alg = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "Ed25519", "Ed448", "EdDSA" -> key.getAlgorithm();
            default -> null;
        };
        if (alg == null) {
            return true; // no cheap check; the TLS handshake will tell
        }
        try {
            byte[] challenge = new byte[32];
            new SecureRandom().nextBytes(challenge);
            java.security.Signature signer = java.security.Signature.getInstance(alg);
            signer.initSign(key);
            signer.update(challenge);
            byte[] sig = signer.sign();
            java.security.Signature verifier = java.security.Signature.getInstance(alg);
            verifier.initVerify(leaf.getPublicKey());
            verifier.update(challenge);
            return verifier.verify(sig);
        } catch (GeneralSecurityException | RuntimeException e) {
            return false;
        }
    }

    private static char[] randomPassword() {
        SecureRandom r = new SecureRandom();
        char[] pw = new char[24];
        for (int i = 0; i < pw.length; i++) {
            pw[i] = (char) ('a' + r.nextInt(26));
        }
        return pw;
    }

}
