/**
 * loom-mcp tasks: long-running server work as tasks, in both eras (the tasks extension
 * {@code io.modelcontextprotocol/tasks} of MCP 2026-07-28 and the experimental tasks of MCP 2025-11-25). See
 * {@link dev.loommcp.tasks.McpTasks}. Uses only the core's public API and SPI (and Jackson for the file task store),
 * plus one internal helper of the core by qualified export: {@code SerialDelivery}, which tells listeners and stores.
 */
module dev.loommcp.tasks {
    requires transitive dev.loommcp.core;
    requires static transitive org.jspecify;
    requires tools.jackson.databind;

    exports dev.loommcp.tasks;
}
