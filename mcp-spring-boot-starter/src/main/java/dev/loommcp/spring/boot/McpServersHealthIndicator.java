package dev.loommcp.spring.boot;

import dev.loommcp.hosts.McpServers;
import dev.loommcp.hosts.ServerState;
import dev.loommcp.hosts.ServerStatus;
import dev.loommcp.policy.CircuitState;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Actuator health from the servers' statuses ({@link McpServers#statuses()}); reads state only, never connects or
 * starts a server. {@code DOWN} when a server is {@link ServerState#FAILED} (its restarts used up, or its start
 * failed) or its circuit breaker is {@link CircuitState#OPEN}; otherwise {@code UP}, including servers not started
 * yet ({@code IDLE}: starts are lazy). The details list each server: state, transport, tool count, protocol era,
 * restarts, circuit and last error (the message only, never headers or payloads). Shown as {@code loomMcp} in
 * {@code /actuator/health}; Spring Boot's liveness and readiness groups do not include it unless you add it.
 *
 * <p>Thread-safe.
 */
public final class McpServersHealthIndicator implements HealthIndicator {

    private final McpServers servers;

    /**
     * Creates the indicator.
     *
     * @param servers the registry
     */
    public McpServersHealthIndicator(McpServers servers) {
        this.servers = servers;
    }

    /**
     * Returns the health; see the class description.
     *
     * @return {@code UP} or {@code DOWN} with one detail per server
     */
    @Override
    public Health health() {
        if (servers.isClosed()) {
            return Health.outOfService().withDetail("reason", "the MCP servers registry is closed").build();
        }
        List<ServerStatus> statuses = servers.statuses();
        boolean down = false;
        Map<String, Object> details = new LinkedHashMap<>();
        for (ServerStatus s : statuses) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("state", s.state().name());
            d.put("transport", s.transport());
            d.put("tools", s.toolCount());
            d.put("restarts", s.restarts());
            if (s.era() != null) {
                d.put("era", s.era().name());
            }
            if (s.circuit() != null) {
                d.put("circuit", s.circuit().name());
            }
            if (s.lastError() != null) {
                d.put("lastError", s.lastError());
            }
            details.put(s.name(), d);
            down |= s.state() == ServerState.FAILED || s.circuit() == CircuitState.OPEN;
        }
        return (down ? Health.down() : Health.up()).withDetails(details).build();
    }
}
