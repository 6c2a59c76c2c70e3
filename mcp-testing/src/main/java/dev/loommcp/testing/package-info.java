/**
 * Test fixtures for code that uses {@code McpClient}.
 *
 * <ul>
 *   <li>{@link dev.loommcp.testing.ScriptedServerTransport}: an in-memory transport with a scriptable fake server;
 *       hand it to {@code McpClient.newBuilder(...)} and the client talks to it as to a real server, with no process
 *       and no socket.</li>
 *   <li>{@link dev.loommcp.testing.RecordingTransport}: wraps a real transport and records what went over it.</li>
 *   <li>{@link dev.loommcp.testing.RecordingSink}: a {@code TransportSink} that records what a transport delivers,
 *       for tests of a transport itself.</li>
 *   <li>{@link dev.loommcp.testing.LeakCheck}: a JUnit 5+ extension that fails a test leaving threads or processes
 *       behind.</li>
 * </ul>
 */
package dev.loommcp.testing;
