package dev.loommcp.store.jdbc;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Objects;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

/**
 * Seals secrets at rest with AES-GCM under the application's key: a fresh random 96-bit nonce per seal, a 128-bit tag,
 * the row's key as associated data (a sealed value copied to another row does not open). Output: nonce then
 * ciphertext with tag. The key and the plaintext never appear in a message or {@code toString()}. Thread-safe.
 */
final class SecretBox {

    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String keyId;
    private final SecretKey key;

    SecretBox(String keyId, SecretKey key) {
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(key, "key");
        if (keyId.isBlank()) {
            throw new IllegalArgumentException("the key id must not be blank");
        }
        byte[] raw = key.getEncoded();
        if (!"AES".equalsIgnoreCase(key.getAlgorithm()) || raw == null
                || (raw.length != 16 && raw.length != 24 && raw.length != 32)) {
            throw new IllegalArgumentException("the encryption key must be an AES key of 128, 192 or 256 bits");
        }
        this.keyId = keyId;
        this.key = key;
    }

    String keyId() {
        return keyId;
    }

    byte[] seal(byte[] plain, String aad) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            c.updateAAD(aad.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = c.doFinal(plain);
            return ByteBuffer.allocate(NONCE_BYTES + sealed.length).put(nonce).put(sealed).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available: " + e.getClass().getSimpleName());
        }
    }

    /**
     * Opens a sealed value.
     *
     * @throws IllegalStateException naming the key ids, if it was sealed under another key or does not open
     */
    byte[] open(String sealedKeyId, byte[] sealed, String aad, String what) {
        if (!keyId.equals(sealedKeyId)) {
            throw new IllegalStateException(what + " was sealed under the key id " + SafeId.quote(sealedKeyId)
                    + "; this store has the key " + SafeId.quote(keyId));
        }
        if (sealed.length <= NONCE_BYTES) {
            throw new IllegalStateException(what + " is not a sealed value (too short)");
        }
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, sealed, 0, NONCE_BYTES));
            c.updateAAD(aad.getBytes(StandardCharsets.UTF_8));
            return c.doFinal(sealed, NONCE_BYTES, sealed.length - NONCE_BYTES);
        } catch (GeneralSecurityException e) {
            // AEADBadTagException: another key under the same id, or changed bytes; never the key or the content
            throw new IllegalStateException(what + " does not open with the key " + SafeId.quote(keyId)
                    + " (another key under that id, or the row was changed)");
        }
    }

    @Override
    public String toString() {
        return "SecretBox[keyId=" + keyId + "]";
    }

    /** Quoting of ids in messages: bounded, control characters escaped. */
    static final class SafeId {
        private SafeId() {
        }

        static String quote(String s) {
            StringBuilder b = new StringBuilder("\"");
            s.codePoints().limit(80).forEach(cp -> {
                if (cp < 0x20 || cp == 0x7f || cp == '"' || cp == '\\') {
                    b.append(String.format("\\u%04x", cp));
                } else {
                    b.appendCodePoint(cp);
                }
            });
            return b.append(s.length() > 80 ? "...\"" : "\"").toString();
        }
    }
}
