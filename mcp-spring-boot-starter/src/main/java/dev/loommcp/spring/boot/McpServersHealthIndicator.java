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
import org.springframework.boot.health.contributor.Status;

/**
 * Actuator health from the servers' statuses ({@link McpServers#statuses()}); reads state only, never connects or
 * starts a server. {@link #DEGRADED} when a server is {@link ServerState#FAILED} (its restarts used up, or its start
 * failed) or its circuit breaker is {@link CircuitState#OPEN}; otherwise {@code UP}, including servers not started
 * yet ({@code IDLE}: starts are lazy, so a server that cannot start shows only after the first tool listing or call
 * tried it); {@code OUT_OF_SERVICE} once the registry is closed. The details list each server: state, transport,
 * tool count, protocol era, restarts, circuit and last error (the message only, never headers or payloads; the last
 * failure stays after the server is {@code READY} again, as the reason of its last restart). Shown as
 * {@code loomMcp} in {@code /actuator/health}.
 *
 * <p>Why {@code DEGRADED} and not {@code DOWN}: an MCP server is an optional dependency (the others, and the chat
 * without tools, keep working), and Spring Boot's default status order leaves a status it does not list out of the
 * aggregate, so a failed server never turns the root {@code /actuator/health} into {@code DOWN} and HTTP 503 (which
 * a load balancer or a probe of the root would take for a dead application). To let it count somewhere, list it in
 * that group's order, for example {@code management.endpoint.health.group.readiness.status.order=down,degraded,
 * out-of-service,up,unknown} with {@code management.endpoint.health.group.readiness.status.http-mapping.degraded=503}
 * and {@code loomMcp} included in the group. Spring Boot's liveness and readiness groups do not include it unless you
 * add it.
 *
 * <p>Thread-safe.
 */
public final class McpServersHealthIndicator implements HealthIndicator {

    /**
     * The status of a registry with a server {@code FAILED} or a breaker open: code {@code DEGRADED}, not in Spring
     * Boot's default status order (so the root health stays {@code UP} with HTTP 200); see the class description.
     */
    public static final Status DEGRADED = new Status("DEGRADED",
            "an MCP server is FAILED or its circuit breaker is open; the others work");

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
     * @return {@code UP} or {@link #DEGRADED} with one detail per server; {@code OUT_OF_SERVICE} once the registry is
     *         closed
     */
    @Override
    public Health health() {
        if (servers.isClosed()) {
            return Health.outOfService().withDetail("reason", "the MCP servers registry is closed").build();
        }
        List<ServerStatus> statuses = servers.statuses();
        boolean degraded = false;
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
            degraded |= s.state() == ServerState.FAILED || s.circuit() == CircuitState.OPEN;
        }
        return (degraded ? Health.status(DEGRADED) : Health.up()).withDetails(details).build();
    }
}
