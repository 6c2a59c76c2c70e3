/**
 * loom-mcp test fixtures: {@link dev.loommcp.testing.ScriptedServerTransport}, an in-memory MCP server for unit tests
 * of code that holds an {@code McpClient}, and {@link dev.loommcp.testing.LeakCheck}, a JUnit extension that fails a
 * test which leaves loom-mcp threads or child processes behind. JUnit is needed only for {@code LeakCheck}.
 */
module dev.loommcp.testing {
    requires transitive dev.loommcp.core;
    requires static org.junit.jupiter.api;

    exports dev.loommcp.testing;
}
