/**
 * loom-mcp tasks: long-running server work as tasks, in both eras (the tasks extension
 * {@code io.modelcontextprotocol/tasks} of MCP 2026-07-28 and the experimental tasks of MCP 2025-11-25). See
 * {@link dev.loommcp.tasks.McpTasks}. Uses only the core's public API and SPI (and Jackson for the file task store).
 */
module dev.loommcp.tasks {
    requires transitive dev.loommcp.core;
    requires tools.jackson.databind;

    exports dev.loommcp.tasks;
}
