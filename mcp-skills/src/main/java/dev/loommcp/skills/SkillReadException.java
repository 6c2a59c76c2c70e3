package dev.loommcp.skills;

import java.util.Objects;

/**
 * The server answered the {@code resources/read} of a skill's file with a JSON-RPC error: a
 * {@link dev.loommcp.McpRpcException} (code, message and data as the server sent them) that names the skill and the
 * file, so that a host can tell which file of which skill failed (for example {@code -32002}, "resource not found",
 * for a file the entry lists: the skill changed on the server, or the server is broken). The client stays usable.
 * Immutable.
 */
public final class SkillReadException extends dev.loommcp.McpRpcException {

    private static final long serialVersionUID = 1L;

    private final String skillUri;
    private final String fileUri;

    /**
     * Creates the exception from the core's.
     *
     * @param skillUri the skill's {@code SKILL.md} URI
     * @param fileUri  the file that was read
     * @param error    the core's exception for the error answer
     */
    public SkillReadException(String skillUri, String fileUri, dev.loommcp.McpRpcException error) {
        super("reading " + Printable.of(Objects.requireNonNull(fileUri, "fileUri")) + " of the skill "
                        + Printable.of(Objects.requireNonNull(skillUri, "skillUri")) + ": " + error.method()
                        + " failed with JSON-RPC error " + error.code() + ": " + shortened(error.errorMessage()),
                error.method(), error.requestId().orElse(null), error.error());
        this.skillUri = skillUri;
        this.fileUri = fileUri;
        addSuppressed(error);
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
     * Returns the file whose read failed.
     *
     * @return its URI
     */
    public String fileUri() {
        return fileUri;
    }
}
