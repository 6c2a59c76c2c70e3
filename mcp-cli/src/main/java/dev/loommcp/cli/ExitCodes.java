package dev.loommcp.cli;

/**
 * The exit codes of the {@code mcp} command, as documented in {@code --help} and {@code docs/cli.md}.
 */
final class ExitCodes {

    /** The command succeeded. */
    static final int OK = 0;
    /** {@code call}: the tool ran and returned a result with {@code isError: true}. */
    static final int TOOL_ERROR = 1;
    /**
     * Bad usage: an unknown option or command, an option given twice, a bad argument or option value, invalid JSON,
     * a {@code --stdio} program that is not found, a feature not in this build (picocli's code for usage errors).
     */
    static final int USAGE = 2;
    /** The connection failed: the server process failed or exited, an HTTP error, I/O. */
    static final int TRANSPORT = 3;
    /** The server answered with a JSON-RPC error. */
    static final int RPC_ERROR = 4;
    /**
     * A request did not finish within {@code --timeout}, or the start-up and handshake within
     * {@code --connect-timeout} (also a server that stays silent or writes no JSON-RPC).
     */
    static final int TIMEOUT = 5;
    /** The server broke the protocol (malformed or unexpected message, unsupported protocol version). */
    static final int PROTOCOL = 6;
    /**
     * {@code skill load}: the skill was refused: a file failed its size, digest or frontmatter check, was not listed,
     * or the entry is invalid or larger than the client accepts.
     */
    static final int SKILL_REFUSED = 7;
    /** A bug in mcp itself (the message and stack trace say where). */
    static final int INTERNAL = 70;
    /** Interrupted (Ctrl+C). */
    static final int INTERRUPTED = 130;
    /** Standard output or error is a pipe whose reader went away: ended quietly ({@link StandardStreams}). */
    static final int PIPE_CLOSED = 141;

    private ExitCodes() {
    }
}
