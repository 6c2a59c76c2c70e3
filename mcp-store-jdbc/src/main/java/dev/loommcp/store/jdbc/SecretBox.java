package dev.loommcp.store.jdbc;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

/**
 * Seals secrets at rest with AES-GCM under the application's key: a fresh random 96-bit nonce per seal, a 128-bit tag,
 * the row's key as associated data (a sealed value copied to another row does not open). Output: nonce then
 * ciphertext with tag. Values are always sealed under the current key; retired keys only open values sealed under
 * their id (key rotation). The keys and the plaintext never appear in a message or {@code toString()}. Thread-safe.
 */
final class SecretBox {

    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String keyId;
    private final SecretKey key;
    /** Retired keys by id: they open, never seal. */
    private final Map<String, SecretKey> retired;

    SecretBox(String keyId, SecretKey key) {
        this(keyId, key, Map.of());
    }

    /**
     * A box sealing under {@code key} and opening under it and the retired keys.
     *
     * @throws IllegalArgumentException if an id is blank or repeated, or a key is not an AES key of 128, 192 or 256
     *                                  bits (naming the id, never the key)
     */
    SecretBox(String keyId, SecretKey key, Map<String, SecretKey> retired) {
        check(keyId, key);
        Map<String, SecretKey> r = new LinkedHashMap<>();
        retired.forEach((id, k) -> {
            check(id, k);
            if (id.equals(keyId)) {
                throw new IllegalArgumentException("the retired key id " + SafeId.quote(id)
                        + " is the current key's id");
            }
            r.put(id, k);
        });
        this.keyId = keyId;
        this.key = key;
        this.retired = Collections.unmodifiableMap(r);
    }

    /** Checks one key and its id. */
    static void check(String keyId, SecretKey key) {
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(key, "key");
        if (keyId.isBlank()) {
            throw new IllegalArgumentException("the key id must not be blank");
        }
        byte[] raw = key.getEncoded();
        if (!"AES".equalsIgnoreCase(key.getAlgorithm()) || raw == null
                || (raw.length != 16 && raw.length != 24 && raw.length != 32)) {
            throw new IllegalArgumentException("the encryption key " + SafeId.quote(keyId)
                    + " must be an AES key of 128, 192 or 256 bits");
        }
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
        SecretKey key = keyId.equals(sealedKeyId) ? this.key : retired.get(sealedKeyId);
        if (key == null) {
            throw new IllegalStateException(what + " was sealed under the key id " + SafeId.quote(sealedKeyId)
                    + "; this store has the key " + SafeId.quote(keyId) + (retired.isEmpty() ? ""
                    : " and the retired keys " + String.join(", ", retired.keySet().stream().map(SafeId::quote)
                    .toList())));
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
            throw new IllegalStateException(what + " does not open with the key " + SafeId.quote(sealedKeyId)
                    + " (another key under that id, or the row was changed)");
        }
    }

    @Override
    public String toString() {
        return "SecretBox[keyId=" + SafeId.quote(keyId) + "]";
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
