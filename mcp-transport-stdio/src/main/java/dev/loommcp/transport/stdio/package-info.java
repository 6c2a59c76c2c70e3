/**
 * The stdio transport (MCP "Transports: stdio", DESIGN.md section 4): {@link dev.loommcp.transport.stdio.StdioTransport}
 * launches an MCP server as a child process in its own process group, exchanges newline-delimited JSON-RPC messages
 * over the child's stdin and stdout, drains its stderr into a bounded ring buffer, reports the child's death with
 * {@link dev.loommcp.transport.stdio.McpProcessExitedException}, and reaps the whole process tree on close, on a
 * failed connect, at JVM exit and (as a safety net) when an unclosed transport becomes unreachable.
 *
 * <p>Users build a transport and hand it to {@code McpClient.newBuilder(transport)}; they do not call the SPI
 * methods themselves.
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
package dev.loommcp.transport.stdio;

import org.jspecify.annotations.NullMarked;
