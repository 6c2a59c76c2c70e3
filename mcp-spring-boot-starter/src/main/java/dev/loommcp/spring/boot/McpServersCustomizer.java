package dev.loommcp.spring.boot;

import dev.loommcp.hosts.McpServers;

/**
 * Adjusts the {@link McpServers.Builder} of the auto-configured registry after the {@code loom.mcp.*} properties
 * were applied, e.g. to set a client customizer (handlers, task support), a listener or a resilience policy. Every
 * bean of this type is applied, in {@link org.springframework.core.annotation.Order} order, on the thread that creates
 * the registry bean. A customizer that replaces {@code clientCustomizer} replaces the one the properties set (their
 * per-server request timeouts): call the properties' own settings again in yours if you need both.
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
