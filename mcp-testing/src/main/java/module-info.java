/**
 * loom-mcp test fixtures: {@link dev.loommcp.testing.ScriptedTransport}, an in-memory MCP server for unit tests of code
 * that holds an {@code McpClient}; {@link dev.loommcp.testing.RecordingTransport},
 * {@link dev.loommcp.testing.RecordingSink} and {@link dev.loommcp.testing.TestSendContext} for tests of transports;
 * and two JUnit extensions, {@link dev.loommcp.testing.LeakCheck}, which fails a test that leaves loom-mcp threads or
 * child processes behind, and {@link dev.loommcp.testing.OwnedProcesses}, which owns the processes a test starts. JUnit
 * is needed only for the extensions.
 */
module dev.loommcp.testing {
    requires transitive dev.loommcp.core;
    requires static transitive org.jspecify;
    requires static org.junit.jupiter.api;

    exports dev.loommcp.testing;
}
