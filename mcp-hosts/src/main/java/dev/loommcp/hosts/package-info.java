/**
 * Hosting many MCP servers: the registry {@link dev.loommcp.hosts.McpServers}, server configurations
 * ({@link dev.loommcp.hosts.ServerConfig}, read from an {@code mcpServers} file by
 * {@link dev.loommcp.hosts.McpServersFile}), typed states ({@link dev.loommcp.hosts.ServerState}) and namespaced
 * tools ({@link dev.loommcp.hosts.HostedTool}). Arguments are never {@code null} unless a method says so: a
 * {@code null} argument throws {@link java.lang.NullPointerException}.
 */
package dev.loommcp.hosts;
