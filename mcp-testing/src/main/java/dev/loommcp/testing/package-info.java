/**
 * Test fixtures for code that uses {@code McpClient}, and for transports; loom-mcp's own tests use the same ones.
 *
 * <ul>
 *   <li>{@link dev.loommcp.testing.ScriptedTransport}: an in-memory transport with a scriptable fake server;
 *       hand it to {@code McpClient.newBuilder(...)} and the client talks to it as to a real server, with no process
 *       and no socket.</li>
 *   <li>{@link dev.loommcp.testing.RecordingTransport}: wraps a real transport and records what went over it.</li>
 *   <li>{@link dev.loommcp.testing.RecordingSink}: a {@code TransportSink} that records what a transport delivers,
 *       for tests of a transport itself.</li>
 *   <li>{@link dev.loommcp.testing.TestSendContext}: a cancellable {@code SendContext} for tests of a transport.</li>
 *   <li>{@link dev.loommcp.testing.LeakCheck}: a JUnit 5+ extension that fails a test leaving loom-mcp threads or
 *       child processes behind.</li>
 *   <li>{@link dev.loommcp.testing.OwnedProcesses}: a JUnit 5+ extension that owns the processes a test starts and
 *       kills the trees left after it, failing the test.</li>
 * </ul>
 */
package dev.loommcp.testing;
