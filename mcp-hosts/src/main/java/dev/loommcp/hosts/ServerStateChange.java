package dev.loommcp.hosts;

import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One state change of a server of a registry.
 *
 * @param server   the server's name
 * @param previous the state before
 * @param state    the state now
 * @param restarts how many restarts the server has had so far (in the registry's life)
 * @param cause    why: the failure that led to {@link ServerState#RESTARTING} or {@link ServerState#FAILED}
 *                 (for a stdio server whose process died, a {@code McpProcessExitedException} or a failure it
 *                 caused: see {@link #exit()}); {@code null} otherwise
 */
public record ServerStateChange(String server, ServerState previous, ServerState state, int restarts,
                                @Nullable Throwable cause) {

    /**
     * Checks the values.
     *
     * @throws NullPointerException if {@code server}, {@code previous} or {@code state} is {@code null}
     */
    public ServerStateChange {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(previous, "previous");
        Objects.requireNonNull(state, "state");
    }

    /**
     * Returns how the server's process ended, when the cause is (or was caused by) a stdio process's exit.
     *
     * @return the exit code, signal and stderr tail, or empty when the cause is something else or absent
     */
    public Optional<ProcessExit> exit() {
        return Optional.ofNullable(ProcessExit.of(cause));
    }
}
