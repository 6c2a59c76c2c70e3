/**
 * Spring Boot auto-configuration for loom-mcp: an {@link dev.loommcp.hosts.McpServers} bean from an
 * {@code mcpServers} file and {@code loom.mcp.*} properties ({@link dev.loommcp.spring.boot.LoomMcpProperties}) whose
 * servers start lazily (the context never connects and never fails because a server is down), closed by a
 * {@link org.springframework.context.SmartLifecycle} when the context stops; a
 * {@link dev.loommcp.spring.ai.LoomToolCallbacks} bean for Spring AI's {@code ChatClient}; an Actuator health
 * indicator and Micrometer gauges from the servers' statuses. See docs/frameworks.md.
 *
 * <p>Nulls: as in {@code dev.loommcp}, nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.loommcp.spring.boot;

import org.jspecify.annotations.NullMarked;
