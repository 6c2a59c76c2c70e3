package dev.loommcp.spring.boot;

import dev.loommcp.McpClient;
import dev.loommcp.hosts.ServerConfig;

/**
 * Adjusts the client of each server of the auto-configured registry, after the properties' settings (the request
 * timeout) were applied: handlers (sampling, elicitation, roots), task support, a listener, a resilience policy. Every
 * bean of this type is applied, in {@link org.springframework.core.annotation.Order} order, each time a server's
 * client is made (its first start and every restart), on the thread that starts it; it must not block or connect.
 */
@FunctionalInterface
public interface McpClientCustomizer {
    /**
     * Customizes one server's client builder.
     *
     * @param server  the server's configuration (its name, transport)
     * @param builder the client's builder
     */
    void customize(ServerConfig server, McpClient.Builder builder);
}
