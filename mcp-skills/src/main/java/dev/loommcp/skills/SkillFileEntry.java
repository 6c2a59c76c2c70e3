package dev.loommcp.skills;

import java.util.Objects;

/**
 * One file of a skill as its entry lists it (SEP-2640 "Resources"): the file's URI, the SHA-256 digest of its raw
 * bytes ({@code sha256:} and 64 lowercase hex digits) and its size in bytes. A file fetched for the skill is used only
 * when it has exactly this size and digest. Immutable.
 *
 * @param uri    the file's URI, as the server spelled it
 * @param digest {@code sha256:} followed by 64 lowercase hex digits
 * @param size   the file's length in bytes, at least 0
 */
public record SkillFileEntry(String uri, String digest, long size) {

    /**
     * Checks the components.
     *
     * @throws NullPointerException     if {@code uri} or {@code digest} is {@code null}
     * @throws IllegalArgumentException if {@code size} is negative
     */
    public SkillFileEntry {
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(digest, "digest");
        if (size < 0) {
            throw new IllegalArgumentException("size must not be negative: " + size);
        }
    }
}
