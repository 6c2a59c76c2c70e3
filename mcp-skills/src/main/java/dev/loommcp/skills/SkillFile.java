package dev.loommcp.skills;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One file of a loaded skill, fetched with {@code resources/read} and verified: for a listed file its byte length and
 * SHA-256 matched the entry's {@code size} and {@code digest}. Its content is untrusted model input all the same
 * (SEP-2640 "Security Implications": the server supplies both the file and the digest). Immutable: the bytes are
 * copied in and out.
 */
public final class SkillFile {

    private final String uri;
    private final String path;
    private final @Nullable String mimeType;
    private final byte[] bytes;
    private final boolean verified;

    SkillFile(String uri, String path, @Nullable String mimeType, byte[] bytes, boolean verified) {
        this.uri = Objects.requireNonNull(uri, "uri");
        this.path = Objects.requireNonNull(path, "path");
        this.mimeType = mimeType;
        this.bytes = bytes.clone();
        this.verified = verified;
    }

    /**
     * Returns the file's URI, as the entry (or the caller, for a dynamic skill) spelled it.
     *
     * @return the URI
     */
    public String uri() {
        return uri;
    }

    /**
     * Returns the file's path below the skill's root, segments percent-decoded and joined with {@code /}
     * ({@code SKILL.md}, {@code references/STYLE.md}); never empty, never with {@code .} or {@code ..} segments.
     *
     * @return the relative path
     */
    public String path() {
        return path;
    }

    /**
     * Returns the MIME type the server gave the content.
     *
     * @return the MIME type, or {@code null} when it gave none
     */
    public @Nullable String mimeType() {
        return mimeType;
    }

    /**
     * Returns a copy of the raw bytes (for a text content item its UTF-8 encoding, for a blob the decoded bytes).
     *
     * @return the bytes
     */
    public byte[] bytes() {
        return bytes.clone();
    }

    /**
     * Returns the length in bytes.
     *
     * @return the size
     */
    public long size() {
        return bytes.length;
    }

    /**
     * Returns the bytes decoded as UTF-8 (malformed sequences replaced).
     *
     * @return the text
     */
    public String text() {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * Returns whether the size and digest were checked: {@code true} for every file of a listed skill, {@code false}
     * for a {@code "dynamic"} one (whose files are not listed).
     *
     * @return whether verified against the entry
     */
    public boolean isVerified() {
        return verified;
    }

    @Override
    public String toString() {
        return "SkillFile[" + Printable.of(uri) + ", " + bytes.length + " bytes]";
    }
}
