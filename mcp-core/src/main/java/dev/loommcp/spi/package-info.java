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
 */
package dev.loommcp.spi;
