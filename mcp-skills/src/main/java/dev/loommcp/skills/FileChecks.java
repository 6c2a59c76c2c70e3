package dev.loommcp.skills;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The checks of a fetched file (SEP-2640 "Integrity and verification"): its bytes taken from the
 * {@code resources/read} result (the content item for the file's URI; a text item's UTF-8 encoding, a blob's decoded
 * bytes), held only up to the most bytes the entry allows, then size, then digest. Stateless.
 */
final class FileChecks {

    private FileChecks() {
    }

    /**
     * The content of one file.
     *
     * @param bytes    the raw bytes
     * @param mimeType the content item's MIME type, or {@code null}
     */
    record Contents(byte[] bytes, @Nullable String mimeType) {
    }

    /**
     * Takes the content item for {@code uri} out of a {@code resources/read} result.
     *
     * @param result   the result
     * @param skillUri the skill's {@code SKILL.md} URI (for the refusal)
     * @param uri      the file asked for
     * @param most     the most bytes that may be kept: a longer content is returned cut to {@code most + 1} bytes (so
     *                 the size check fails on it without holding it whole)
     * @throws SkillVerificationException {@link SkillVerificationException.Check#CONTENT} if there is no item for
     *                                    {@code uri}, or it has neither text nor blob, or its blob is not base64
     */
    static Contents contents(Map<String, @Nullable Object> result, String skillUri, String uri, long most) {
        if (!(result.get("contents") instanceof List<?> items)) {
            throw noContent(skillUri, uri, "the resources/read result has no contents array");
        }
        String key = keyOrSelf(uri);
        for (Object o : items) {
            if (o instanceof Map<?, ?> m && m.get("uri") instanceof String u && keyOrSelf(u).equals(key)) {
                String mime = m.get("mimeType") instanceof String t ? t : null;
                if (m.get("text") instanceof String text) {
                    // every char is at least one UTF-8 byte: a text longer than allowed is cut before encoding
                    String t = text.length() > most + 1 ? text.substring(0, (int) Math.min(Integer.MAX_VALUE - 8,
                            most + 1)) : text;
                    return new Contents(t.getBytes(StandardCharsets.UTF_8), mime);
                }
                if (m.get("blob") instanceof String blob) {
                    // the alphabet first (a blob that is not base64 is that, whatever its length), then the size
                    String bad = notBase64(blob);
                    if (bad != null) {
                        throw noContent(skillUri, uri, "its resources/read blob is not base64: " + bad);
                    }
                    if (blob.length() / 4 * 3 > most + 3) {
                        return new Contents(new byte[(int) Math.min(Integer.MAX_VALUE - 8, most + 1)], mime);
                    }
                    return new Contents(Base64.getDecoder().decode(blob), mime);
                }
                throw noContent(skillUri, uri, "its resources/read content has neither text nor blob");
            }
        }
        throw noContent(skillUri, uri, "the resources/read result has no content item for it");
    }

    private static SkillVerificationException noContent(String skillUri, String uri, String why) {
        return new SkillVerificationException(SkillVerificationException.Check.CONTENT, skillUri, uri,
                Printable.of(uri) + " failed the content check: " + why);
    }

    /**
     * Says why a blob is not base64 (RFC 4648 section 4, padded, without line breaks), or {@code null} when it is.
     */
    static @Nullable String notBase64(String blob) {
        int n = blob.length();
        int pad = n > 0 && blob.charAt(n - 1) == '=' ? (n > 1 && blob.charAt(n - 2) == '=' ? 2 : 1) : 0;
        for (int i = 0; i < n - pad; i++) {
            char c = blob.charAt(i);
            boolean ok = c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/';
            if (!ok) {
                return c == '\n' || c == '\r' || c == ' ' || c == '\t'
                        ? "it has line breaks or spaces (MIME-style base64 is not accepted)"
                        : "character " + i + " is outside the base64 alphabet";
            }
        }
        return n % 4 == 0 ? null : "its length " + n + " is not a multiple of 4 (base64 is padded with '=')";
    }

    private static String keyOrSelf(String uri) {
        try {
            return SkillUris.parse(uri).key();
        } catch (IllegalArgumentException e) {
            return uri;
        }
    }

    /**
     * Checks a listed file: the byte length first (a mismatch fails without hashing), then the SHA-256.
     *
     * @throws SkillVerificationException {@code SIZE} or {@code DIGEST}
     */
    static void verify(SkillEntry entry, SkillFileEntry listed, byte[] bytes) {
        if (bytes.length != listed.size()) {
            throw new SkillVerificationException(SkillVerificationException.Check.SIZE, entry.uri(), listed.uri(),
                    Printable.of(listed.uri()) + " failed the size check: " + (bytes.length > listed.size()
                            ? "more than " + listed.size() : bytes.length) + " bytes; the entry lists "
                            + listed.size());
        }
        String digest = "sha256:" + HexFormat.of().formatHex(sha256(bytes));
        if (!digest.equals(listed.digest())) {
            throw new SkillVerificationException(SkillVerificationException.Check.DIGEST, entry.uri(), listed.uri(),
                    Printable.of(listed.uri()) + " failed the digest check: it has " + digest + "; the entry lists "
                            + listed.digest());
        }
    }

    static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e); // every Java SE platform has it
        }
    }

    /**
     * Decodes UTF-8 strictly.
     *
     * @throws IllegalArgumentException if the bytes are not UTF-8
     */
    static String strictUtf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("it is not UTF-8 text");
        }
    }
}
