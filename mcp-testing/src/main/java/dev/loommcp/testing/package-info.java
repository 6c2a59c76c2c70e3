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
 *
 * <h2>Nullness</h2>
 * This package is {@link org.jspecify.annotations.NullMarked @NullMarked}: a type in a signature excludes
 * {@code null} unless it is written {@link org.jspecify.annotations.Nullable @Nullable}. One rule for records and
 * accessors in every loom-mcp package: a record component that may be absent (a JSON member a peer may leave out, a
 * setting not given) is a {@code @Nullable} component, never an {@code Optional}; a method that looks something up,
 * or reads an option or a state that may be unset, returns {@link java.util.Optional}; a collection is empty, never
 * {@code null}, unless it mirrors a JSON member that may be absent; a map of free-form JSON is
 * {@code Map<String, @Nullable Object>}, since JSON {@code null} is a value. A parameter is {@code @Nullable} only
 * where {@code null} means "none" or "the default", as its documentation says.
 */
@NullMarked
package dev.loommcp.testing;

import org.jspecify.annotations.NullMarked;
