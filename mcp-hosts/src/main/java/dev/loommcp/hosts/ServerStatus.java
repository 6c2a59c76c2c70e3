package dev.loommcp.hosts;

import dev.loommcp.config.Era;
import dev.loommcp.policy.CircuitState;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A snapshot of one server of a registry, for display ({@code mcp --config mcp.json servers}) and monitoring.
 *
 * @param name      the server's name
 * @param transport {@code "stdio"}, {@code "http"} or {@code "sse"}
 * @param state     its state
 * @param toolCount how many tools it offers now (its last listing), or -1 when it is not {@link ServerState#READY}
 *                  (a failed, restarting or closed server offers none; its old count is not shown)
 * @param era       the protocol era of its current or last connection, or {@code null} before it connected
 * @param restarts  how many restarts it has had
 * @param lastError the class and message of its last failure (never a payload), or {@code null}; for a process
 *                  that died, how it ended (exit code or signal, and its stderr tail, unless
 *                  {@link McpServers.Builder#stderrInStatus(boolean)} is off)
 * @param lastExit  how its process ended when its last failure was a stdio process's exit (exit code, signal,
 *                  stderr tail), else {@code null}
 * @param circuit   the state of the circuit breaker of its current connection
 *                  ({@link McpServers.Builder#resilience(dev.loommcp.policy.ResiliencePolicy)}) as the client
 *                  knows it when the status is read (a call just refused by the open breaker shows {@code OPEN}, an
 *                  open breaker whose open duration has passed shows {@code HALF_OPEN}); {@code null} when its policy
 *                  has no breaker or it is not {@link ServerState#READY}
 */
public record ServerStatus(String name, String transport, ServerState state, int toolCount, @Nullable Era era,
                           int restarts, @Nullable String lastError, @Nullable ProcessExit lastExit,
                           @Nullable CircuitState circuit) {

    /**
     * Checks the values.
     *
     * @throws NullPointerException if {@code name}, {@code transport} or {@code state} is {@code null}
     */
    public ServerStatus {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(state, "state");
    }
}
