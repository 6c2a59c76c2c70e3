package dev.loommcp.skills;

import dev.loommcp.McpProtocolException;
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
     * @param result the result
     * @param uri    the file asked for
     * @param most   the most bytes that may be kept: a longer content is returned cut to {@code most + 1} bytes (so
     *               the size check fails on it without holding it whole)
     * @throws McpProtocolException if there is no item for {@code uri}, or its blob is not base64, or it has neither
     */
    static Contents contents(Map<String, @Nullable Object> result, String uri, long most) {
        if (!(result.get("contents") instanceof List<?> items)) {
            throw new McpProtocolException("the resources/read result for " + Printable.of(uri) + " has no contents");
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
                    if (blob.length() / 4 * 3 > most + 3) {
                        return new Contents(new byte[(int) Math.min(Integer.MAX_VALUE - 8, most + 1)], mime);
                    }
                    try {
                        return new Contents(Base64.getDecoder().decode(blob), mime);
                    } catch (IllegalArgumentException e) {
                        throw new McpProtocolException("the resources/read blob of " + Printable.of(uri)
                                + " is not base64");
                    }
                }
                throw new McpProtocolException("the resources/read content of " + Printable.of(uri)
                        + " has neither text nor blob");
            }
        }
        throw new McpProtocolException("the resources/read result has no content for " + Printable.of(uri));
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

    private static byte[] sha256(byte[] bytes) {
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
