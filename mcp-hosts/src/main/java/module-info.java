/**
 * loom-mcp hosts: many MCP servers at once, the way agent hosts use them. {@link dev.loommcp.hosts.McpServers} is a
 * registry built from code or from an {@code mcpServers} JSON file ({@link dev.loommcp.hosts.McpServersFile}); it
 * starts servers lazily or eagerly, restarts the ones that crash, reports typed states, and exposes every server's
 * tools under collision-free names. Uses only the core's public API and SPI and the two transports (and Jackson to
 * read the file), plus one internal helper of the core by qualified export: {@code SerialDelivery}, which tells the
 * state listener.
 */
module dev.loommcp.hosts {
    // JSpecify nullness annotations in the API; static: not needed at run time, transitive: readers see them
    requires static transitive org.jspecify;
    requires transitive dev.loommcp.core;
    requires transitive dev.loommcp.transport.stdio;
    requires transitive dev.loommcp.transport.http;
    requires tools.jackson.databind;

    exports dev.loommcp.hosts;
}
