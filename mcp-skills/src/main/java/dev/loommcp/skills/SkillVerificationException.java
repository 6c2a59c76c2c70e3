package dev.loommcp.skills;

import java.util.Objects;

/**
 * A skill was refused: a fetched file did not match the entry held for it, or the entry itself is not one a host may
 * load (SEP-2640 "Integrity and verification", "Resources", "Limits"). {@link #check()} says which rule failed,
 * {@link #skillUri()} and {@link #fileUri()} name the skill and the file. The skill must not be used: nothing of the
 * refused file is returned. A host should present {@link Check#UNLISTED}, {@link Check#SIZE}, {@link Check#DIGEST}
 * and {@link Check#FRONTMATTER} as "the skill changed on the server" (list or get it again and ask again), not as a
 * read error.
 *
 * <p>Not an {@link dev.loommcp.McpException}: the server answered, and the client decided not to use the answer.
 * Immutable.
 */
public final class SkillVerificationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The rule a skill or one of its files broke. */
    public enum Check {
        /** The file is not in the entry's {@code resources} (or does not resolve inside the skill's root). */
        UNLISTED,
        /** The file's byte length differs from the entry's {@code size}. */
        SIZE,
        /** The SHA-256 of the file's bytes differs from the entry's {@code digest}. */
        DIGEST,
        /**
         * The {@code SKILL.md} frontmatter differs from the entry's {@code frontmatter} in at least one field, or it
         * is missing or not valid YAML 1.2 mapping.
         */
        FRONTMATTER,
        /** The entry breaks a rule of SEP-2640 (its URI, name, description, resources, digest or size). */
        INVALID_ENTRY,
        /**
         * The entry lists more files or more bytes than this client accepts (512 and 16 MiB by default), or a file
         * too large for one message of the client's transport ({@link McpSkills.Builder#maxMessageBytes}).
         */
        LIMIT,
        /**
         * The {@code resources/read} answer has no usable content for the file: no content item for its URI, an item
         * with neither {@code text} nor {@code blob}, or a blob that is not base64.
         */
        CONTENT
    }

    private final Check check;
    private final String skillUri;
    private final String fileUri;

    /**
     * Creates the exception.
     *
     * @param check    the rule that failed
     * @param skillUri the skill's {@code SKILL.md} URI (as the server spelled it)
     * @param fileUri  the file the check failed on (the {@code SKILL.md} URI for entry-level checks)
     * @param message  what differed, naming the file (never the file's content)
     */
    public SkillVerificationException(Check check, String skillUri, String fileUri, String message) {
        super(Objects.requireNonNull(message, "message"));
        this.check = Objects.requireNonNull(check, "check");
        this.skillUri = Objects.requireNonNull(skillUri, "skillUri");
        this.fileUri = Objects.requireNonNull(fileUri, "fileUri");
    }

    /**
     * Returns the rule that failed.
     *
     * @return the check
     */
    public Check check() {
        return check;
    }

    /**
     * Returns the skill's {@code SKILL.md} URI.
     *
     * @return the URI
     */
    public String skillUri() {
        return skillUri;
    }

    /**
     * Returns the file the check failed on.
     *
     * @return its URI (the {@code SKILL.md} URI for {@link Check#INVALID_ENTRY} and for a {@link Check#LIMIT} of the
     *         whole skill)
     */
    public String fileUri() {
        return fileUri;
    }
}
