/**
 * loom-mcp stdio transport: runs an MCP server as a child process and talks JSON-RPC over its stdin and stdout
 * (MCP "Transports: stdio"). See {@link dev.loommcp.transport.stdio.StdioTransport}.
 */
module dev.loommcp.transport.stdio {
    requires transitive dev.loommcp.core;

    exports dev.loommcp.transport.stdio;
}
