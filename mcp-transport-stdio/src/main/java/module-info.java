/**
 * loom-mcp stdio transport: runs an MCP server as a child process and talks JSON-RPC over its stdin and stdout
 * (MCP "Transports: stdio"). See {@link dev.loommcp.transport.stdio.StdioTransport}.
 */
module dev.loommcp.transport.stdio {
    // JSpecify nullness annotations in the API; static: not needed at run time, transitive: readers see them
    requires static transitive org.jspecify;
    requires transitive dev.loommcp.core;

    exports dev.loommcp.transport.stdio;
}
