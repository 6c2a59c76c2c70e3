/**
 * The stdio transport (MCP "Transports: stdio", DESIGN.md section 4): {@link dev.loommcp.transport.stdio.StdioTransport}
 * launches an MCP server as a child process in its own process group, exchanges newline-delimited JSON-RPC messages
 * over the child's stdin and stdout, drains its stderr into a bounded ring buffer, reports the child's death with
 * {@link dev.loommcp.transport.stdio.McpProcessExitedException}, and reaps the whole process tree on close, on a
 * failed connect, at JVM exit and (as a safety net) when an unclosed transport becomes unreachable.
 *
 * <p>Users build a transport and hand it to {@code McpClient.newBuilder(transport)}; they do not call the SPI
 * methods themselves.
 */
package dev.loommcp.transport.stdio;
