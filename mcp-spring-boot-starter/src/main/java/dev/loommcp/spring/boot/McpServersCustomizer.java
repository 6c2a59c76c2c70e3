package dev.loommcp.spring.boot;

import dev.loommcp.hosts.McpServers;

/**
 * Adjusts the {@link McpServers.Builder} of the auto-configured registry after the {@code loom.mcp.*} properties
 * were applied, e.g. to set a listener or a resilience policy. Every bean of this type is applied, in
 * {@link org.springframework.core.annotation.Order} order, on the thread that creates the registry bean. For the
 * clients of the servers use {@link McpClientCustomizer} beans: a {@code clientCustomizer} or {@code httpCustomizer}
 * set here replaces the starter's (the properties' request timeouts and the {@code McpClientCustomizer}s, or the
 * OAuth providers).
 */
@FunctionalInterface
public interface McpServersCustomizer {
    /**
     * Customizes the builder; must not start anything.
     *
     * @param builder the registry's builder
     */
    void customize(McpServers.Builder builder);
}
