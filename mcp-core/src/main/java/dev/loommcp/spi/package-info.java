/**
 * The transport SPI (DESIGN.md section 4): what a transport implements so that {@code McpClient} can talk over it.
 * Users only build a transport and pass it to the client; they never call these methods.
 *
 * <p>A transport (WebSocket, in-memory, unix socket...) is written against this package and the public API alone:
 * {@link dev.loommcp.spi.McpTransport} is the contract; {@link dev.loommcp.spi.TransportContext}, given to
 * {@code open}, brings the {@link dev.loommcp.spi.TransportSink} for inbound messages, the open
 * {@link dev.loommcp.Deadline}, the {@link dev.loommcp.spi.JsonRpcFraming} (encode and strict decode of
 * {@link dev.loommcp.jsonrpc.JsonRpcMessage}) and the {@link dev.loommcp.spi.TransportThreads}; each send gets a
 * {@link dev.loommcp.spi.SendContext} with its deadline, id and cancel hooks. A transport never re-initialises a
 * session: it reports {@link dev.loommcp.McpSessionExpiredException} and the core starts the new session.
 *
 * <p>Also the one hook for tasks: a {@link dev.loommcp.spi.TaskSupport} (the {@code mcp-tasks} module's) is asked
 * whether a {@code tools/call} asks for a task ({@link dev.loommcp.spi.TaskAugmentation}) and is handed an answer that
 * is not final ({@link dev.loommcp.spi.ToolCallAnswer.Pending}); it reaches the client through a
 * {@link dev.loommcp.spi.TaskChannel} ({@link dev.loommcp.spi.TaskServer} for the server's facts). The task rules
 * themselves are the support's.
 *
 * <h2>Nullness</h2>
 * This package is {@link org.jspecify.annotations.NullMarked @NullMarked}: a type in a signature excludes
 * {@code null} unless it is written {@link org.jspecify.annotations.Nullable @Nullable}. One rule for records and
 * accessors in every loom-mcp package: a record component that may be absent (a JSON member a peer may leave out, a
 * setting not given) is a {@code @Nullable} component, never an {@code Optional}; a method that looks something up,
 * or reads an option or a state that may be unset, returns {@link java.util.Optional}; a collection is empty, never
 * {@code null}, unless it mirrors a JSON member that may be absent; a map of free-form JSON is
 * {@code Map<String, @Nullable Object>}, since JSON {@code null} is a value. A parameter is {@code @Nullable} only
 * where {@code null} means "none" or "the default", as its documentation says. In this package the accessors on the
 * path every message takes ({@link dev.loommcp.spi.SendContext#requestId()},
 * {@link dev.loommcp.spi.JsonRpcFraming#malformedResponseId}) return {@code @Nullable} rather than allocate an
 * {@code Optional}.
 */
@NullMarked
package dev.loommcp.spi;

import org.jspecify.annotations.NullMarked;
