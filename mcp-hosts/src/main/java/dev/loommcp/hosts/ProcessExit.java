package dev.loommcp.hosts;

import dev.loommcp.transport.stdio.McpProcessExitedException;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * How a stdio server's process ended: its exit code, the signal that most likely killed it, and the last lines it
 * wrote to stderr (from the stdio transport's {@link McpProcessExitedException}). A server's
 * {@link ServerStatus#lastExit()} and a {@link ServerStateChange#exit()} carry it, so that a host can show why a
 * server died instead of only that it closed its connection.
 *
 * @param exitCode   the exit code as the JDK reports it (on Unix {@code 128 + n} for signal {@code n}), or empty
 *                   when the process had only closed its stdout
 * @param signal     the signal that most likely killed it (Unix), or empty
 * @param stderrTail the last lines of its stderr, joined with {@code '\n'}; possibly empty (it may hold what the
 *                   server printed: show it to the user, do not log it above DEBUG)
 */
public record ProcessExit(OptionalInt exitCode, OptionalInt signal, String stderrTail) {

    /**
     * Checks the values.
     *
     * @throws NullPointerException if a value is {@code null}
     */
    public ProcessExit {
        Objects.requireNonNull(exitCode, "exitCode");
        Objects.requireNonNull(signal, "signal");
        Objects.requireNonNull(stderrTail, "stderrTail");
    }

    /**
     * Finds the process exit in a failure and its causes.
     *
     * @param failure a failure, or {@code null}
     * @return the exit, or {@code null} when the failure is not (caused by) a process exit
     */
    static ProcessExit of(Throwable failure) {
        McpProcessExitedException exited = find(failure);
        return exited == null ? null : new ProcessExit(exited.exitCode(), exited.signal(),
                HostedServer.WITHHELD.equals(exited.stderrTail()) ? "" : exited.stderrTail());
    }

    /** The process exit in a failure's cause chain (and suppressed causes of its links), or {@code null}. */
    static McpProcessExitedException find(Throwable failure) {
        for (Throwable t = failure, seen = null; t != null && t != seen; seen = t, t = t.getCause()) {
            if (t instanceof McpProcessExitedException e) {
                return e;
            }
            for (Throwable s : t.getSuppressed()) {
                if (s instanceof McpProcessExitedException e) {
                    return e;
                }
            }
        }
        return null;
    }
}
