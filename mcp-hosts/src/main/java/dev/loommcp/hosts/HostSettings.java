package dev.loommcp.hosts;

import dev.loommcp.McpClient;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.spi.TransportThreads;
import dev.loommcp.transport.http.HttpTransport;
import dev.loommcp.policy.ResiliencePolicy;
import java.time.Duration;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * What every server of one registry shares (from {@link McpServers.Builder}). Immutable.
 *
 * @param startupTimeout bound of one start: transport, handshake and the first tool listing
 * @param readyTimeout   how long a call without a deadline waits for a starting or restarting server
 * @param restartPolicy  when a failed connection is restarted
 * @param listener       state changes and completed tool re-lists, never {@code null}
 * @param customizer     applied to each client builder, never {@code null}
 * @param httpCustomizer applied to each HTTP server's transport builder, never {@code null}
 * @param threads        where the registry's threads come from
 * @param transports     builds a server's transport (the configuration's own by default; tests give scripted ones)
 * @param stderrInStatus whether a failed server's stderr tail shows in statuses, changes, logs and exceptions
 * @param resilience     the resilience policy of every server without one of its own
 * @param resilienceOf   the servers' own resilience policies, by name (immutable)
 */
record HostSettings(Duration startupTimeout, Duration readyTimeout, RestartPolicy restartPolicy,
                    McpServersListener listener,
                    BiConsumer<ServerConfig, McpClient.Builder> customizer,
                    BiConsumer<HttpServerConfig, HttpTransport.Builder> httpCustomizer, TransportThreads threads,
                    Function<ServerConfig, McpTransport> transports, boolean stderrInStatus,
                    ResiliencePolicy resilience, Map<String, ResiliencePolicy> resilienceOf) {

    /** The resilience policy of the server named {@code name}: its own, else the registry's. */
    ResiliencePolicy resilienceFor(String name) {
        return resilienceOf().getOrDefault(name, resilience());
    }

    /**
     * Builds a server's transport for one start: the test factory's when there is one; a stdio server's with a
     * startup timeout 2 s past the registry's (so that the registry's own deadline speaks first); an HTTP server's
     * after {@link #httpCustomizer()} saw its builder; any other configuration's own.
     */
    McpTransport newTransport(ServerConfig config) {
        if (transports() != null) {
            return transports().apply(config);
        }
        if (config instanceof StdioServerConfig stdio) {
            return stdio.newTransportBuilder().startupTimeout(startupTimeout().plusSeconds(2)).build();
        }
        if (config instanceof HttpServerConfig http) {
            HttpTransport.Builder b = http.newTransportBuilder();
            httpCustomizer().accept(http, b);
            return b.build();
        }
        return config.newTransport();
    }
}
