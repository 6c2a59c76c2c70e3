package dev.loommcp.transport.stdio;

import dev.loommcp.McpTransportException;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * The MCP server's process exited (or was killed) while the transport was open: every pending call fails at once
 * with this exception (issue 3 "failure reporting", the C++ seed's hardened local launch).
 *
 * <p>It carries the exit code as the JDK reports it ({@link Process#exitValue()}), the signal that killed the process
 * when that can be told, the last lines the process wrote to stderr, and the program name ({@code argv[0]} as given
 * to the builder; never arguments or environment values, which may hold secrets).
 *
 * <p><b>Exit codes and signals.</b> On Unix the JDK reports a process killed by signal {@code n} with the exit code
 * {@code 128 + n} (for example 137 for {@code SIGKILL}, 143 for {@code SIGTERM}). {@link #signal()} decodes such
 * codes (129..192) into the signal number. A process that calls {@code exit(137)} itself is indistinguishable
 * from one killed by {@code SIGKILL}, so read {@code signal()} as "most likely killed by". On Windows
 * {@code signal()} is always empty.
 *
 * <p>Immutable and thread-safe.
 */
public final class McpProcessExitedException extends McpTransportException {

    private static final int MESSAGE_TAIL_CHARS = 500;

    /** The program name ({@code argv[0]} as given). */
    private final String command;
    /** The exit code, or {@code null} when the process had not exited. */
    private final Integer exitCode;
    /** The signal that most likely ended the process, or {@code null}. */
    private final Integer signal;
    /** The last lines of stderr. */
    private final String stderrTail;

    /**
     * Creates the exception; the message is built from the parts, for example
     * {@code "npx exited with code 1 (stderr tail: npm ERR! 404 Not Found)"}.
     *
     * @param command    the program name ({@code argv[0]} as given), not {@code null}
     * @param exitCode   the exit code, or empty when the process had not exited yet (it closed its stdout)
     * @param signal     the signal that most likely killed the process, or empty
     * @param stderrTail the last lines of stderr joined with {@code '\n'}, possibly empty, not {@code null}
     * @throws NullPointerException if an argument is {@code null}
     */
    public McpProcessExitedException(String command, OptionalInt exitCode, OptionalInt signal, String stderrTail) {
        super(buildMessage(Objects.requireNonNull(command, "command"), Objects.requireNonNull(exitCode, "exitCode"),
                Objects.requireNonNull(signal, "signal"), Objects.requireNonNull(stderrTail, "stderrTail")));
        this.command = command;
        this.exitCode = exitCode.isPresent() ? exitCode.getAsInt() : null;
        this.signal = signal.isPresent() ? signal.getAsInt() : null;
        this.stderrTail = stderrTail;
    }

    /**
     * Returns the exit code as {@link Process#exitValue()} reported it (on Unix {@code 128 + n} for a process
     * killed by signal {@code n}).
     *
     * @return the exit code, or empty if the process had not exited when the transport failed
     */
    public OptionalInt exitCode() {
        return exitCode == null ? OptionalInt.empty() : OptionalInt.of(exitCode);
    }

    /**
     * Returns the signal that most likely killed the process: on Unix, {@code exitCode - 128} for exit codes
     * 129..192. See the class documentation for the ambiguity with processes that exit with such a code themselves.
     *
     * @return the signal number (9 for {@code SIGKILL}, 15 for {@code SIGTERM}), or empty
     */
    public OptionalInt signal() {
        return signal == null ? OptionalInt.empty() : OptionalInt.of(signal);
    }

    /**
     * Returns the last lines the process wrote to stderr before it exited (the content of the transport's stderr
     * ring buffer, bounded by {@link StdioTransport.Builder#stderrBufferBytes(int)}), joined with {@code '\n'}.
     *
     * @return the tail, empty if the process wrote nothing to stderr
     */
    public String stderrTail() {
        return stderrTail;
    }

    /**
     * Returns the program name: {@code argv[0]} exactly as given to {@link StdioTransport#newBuilder}. It never
     * contains arguments or environment values.
     *
     * @return the program name
     */
    public String command() {
        return command;
    }

    /**
     * Decodes a JDK exit code into the signal that most likely caused it, on Unix.
     *
     * @param exitCode the exit code
     * @param windows  whether the process ran on Windows (no signals there)
     * @return the signal number, or empty
     */
    static OptionalInt signalOf(int exitCode, boolean windows) {
        if (!windows && exitCode > 128 && exitCode <= 128 + 64) {
            return OptionalInt.of(exitCode - 128);
        }
        return OptionalInt.empty();
    }

    static String signalName(int signal) {
        return switch (signal) {
            case 1 -> "SIGHUP";
            case 2 -> "SIGINT";
            case 3 -> "SIGQUIT";
            case 4 -> "SIGILL";
            case 6 -> "SIGABRT";
            case 7 -> "SIGBUS";
            case 8 -> "SIGFPE";
            case 9 -> "SIGKILL";
            case 11 -> "SIGSEGV";
            case 13 -> "SIGPIPE";
            case 14 -> "SIGALRM";
            case 15 -> "SIGTERM";
            default -> "signal " + signal;
        };
    }

    private static String buildMessage(String command, OptionalInt exitCode, OptionalInt signal, String tail) {
        StringBuilder sb = new StringBuilder(command);
        if (signal.isPresent()) {
            sb.append(" was killed by signal ").append(signal.getAsInt()).append(" (")
                    .append(signalName(signal.getAsInt())).append(", exit code ").append(exitCode.orElse(-1))
                    .append(')');
        } else if (exitCode.isPresent()) {
            sb.append(" exited with code ").append(exitCode.getAsInt());
        } else {
            sb.append(" closed its stdout");
        }
        if (tail.isEmpty()) {
            sb.append(" (no stderr output)");
        } else {
            String oneLine = tail.strip().replace("\r", "").replace("\n", " | ");
            if (oneLine.length() > MESSAGE_TAIL_CHARS) {
                oneLine = "..." + oneLine.substring(oneLine.length() - MESSAGE_TAIL_CHARS);
            }
            sb.append(" (stderr tail: ").append(oneLine).append(')');
        }
        return sb.toString();
    }
}
