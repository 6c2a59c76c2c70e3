/**
 * Hosting many MCP servers: the registry {@link dev.loommcp.hosts.McpServers}, server configurations
 * ({@link dev.loommcp.hosts.ServerConfig}, read from an {@code mcpServers} file by
 * {@link dev.loommcp.hosts.McpServersFile}), typed states ({@link dev.loommcp.hosts.ServerState}) and namespaced
 * tools ({@link dev.loommcp.hosts.HostedTool}). Arguments are never {@code null} unless a method says so: a
 * {@code null} argument throws {@link java.lang.NullPointerException}.
 *
 * <h2>Nullness</h2>
 * This package is {@link org.jspecify.annotations.NullMarked @NullMarked}: a type in a signature excludes
 * {@code null} unless it is written {@link org.jspecify.annotations.Nullable @Nullable}. One rule for records and
 * accessors in every loom-mcp package: a record component that may be absent (a JSON member a peer may leave out, a
 * setting not given) is a {@code @Nullable} component, never an {@code Optional}; a method that looks something up,
 * or reads an option or a state that may be unset, returns {@link java.util.Optional}; a collection is empty, never
 * {@code null}, unless it mirrors a JSON member that may be absent; a map of free-form JSON is
 * {@code Map<String, @Nullable Object>}, since JSON {@code null} is a value. A parameter is {@code @Nullable} only
 * where {@code null} means "none" or "the default", as its documentation says.
 */
@NullMarked
package dev.loommcp.hosts;

import org.jspecify.annotations.NullMarked;
