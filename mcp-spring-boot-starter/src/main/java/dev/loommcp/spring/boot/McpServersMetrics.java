package dev.loommcp.spring.boot;

import dev.loommcp.hosts.McpServers;
import dev.loommcp.hosts.ServerState;
import dev.loommcp.hosts.ServerStatus;
import dev.loommcp.policy.CircuitState;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.function.ToDoubleFunction;

/**
 * Micrometer gauges from the servers' statuses, tagged {@code server}: {@code loom.mcp.server.ready} (1 when
 * {@code READY}, else 0), {@code loom.mcp.server.failed} (1 when {@code FAILED}), {@code loom.mcp.server.restarts},
 * {@code loom.mcp.server.tools} (tools listed) and {@code loom.mcp.server.circuit.open} (1 when the circuit breaker is
 * open). Reading a gauge reads the status only (no I/O). Bound for the servers the registry has when the meter
 * registry binds it; a server added later by a reload gets none, one removed reads 0.
 *
 * <p>Thread-safe.
 */
public final class McpServersMetrics implements MeterBinder {

    private final McpServers servers;

    /**
     * Creates the binder.
     *
     * @param servers the registry
     */
    public McpServersMetrics(McpServers servers) {
        this.servers = servers;
    }

    /**
     * Registers the gauges of every server.
     *
     * @param registry the meter registry
     */
    @Override
    public void bindTo(MeterRegistry registry) {
        for (String name : servers.names()) {
            gauge(registry, "loom.mcp.server.ready", "1 when the MCP server is READY", name,
                    s -> s.state() == ServerState.READY ? 1 : 0);
            gauge(registry, "loom.mcp.server.failed", "1 when the MCP server is FAILED", name,
                    s -> s.state() == ServerState.FAILED ? 1 : 0);
            gauge(registry, "loom.mcp.server.restarts", "restarts of the MCP server", name, ServerStatus::restarts);
            gauge(registry, "loom.mcp.server.tools", "tools the MCP server lists", name, ServerStatus::toolCount);
            gauge(registry, "loom.mcp.server.circuit.open", "1 when the MCP server's circuit breaker is open", name,
                    s -> s.circuit() == CircuitState.OPEN ? 1 : 0);
        }
    }

    private void gauge(MeterRegistry registry, String meter, String description, String server,
                       ToDoubleFunction<ServerStatus> value) {
        Gauge.builder(meter, servers, r -> r.statuses().stream().filter(s -> s.name().equals(server)).findFirst()
                        .map(value::applyAsDouble).orElse(0.0))
                .description(description).tag("server", server).register(registry);
    }
}
