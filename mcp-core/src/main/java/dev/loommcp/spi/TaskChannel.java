package dev.loommcp.spi;

import dev.loommcp.Registration;
import dev.loommcp.CancellationToken;
import dev.loommcp.McpClosedException;
import dev.loommcp.McpException;
import dev.loommcp.RequestOptions;
import dev.loommcp.event.Subscription;
import dev.loommcp.schema.CallToolResult;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * What a client gives its installed {@link TaskSupport}: the wire access a task driver needs, in both eras, without
 * the core knowing how tasks are driven or what a task looks like on the wire. Implemented by the core; obtained in
 * {@link TaskSupport#bind}. Thread-safe: every method may be called from any thread, many at once.
 *
 * <p>Modern era (MCP 2026-07-28 with the tasks extension {@code io.modelcontextprotocol/tasks}, MODERN-ERA.md C.5):
 * a client with task support declares {@code clientCapabilities.extensions["io.modelcontextprotocol/tasks"] = {}}
 * in the {@code _meta} of every request it sends, so any {@code tools/call} may be answered with a task and every
 * {@code tasks/*} request and task listen is allowed. Legacy era (MCP 2025-11-25 experimental tasks, C.6): the
 * client never declares a client-side {@code tasks} capability; a {@code tools/call} becomes a task only when it
 * carries a {@link TaskAugmentation}. The task rules themselves (when to augment, the task shapes, what
 * {@code -32602} means on {@code tasks/*}, the task exceptions) are the task support's.
 *
 * <p>Every blocking method honours the options' deadline and cancellation token like any client call and throws
 * what {@code McpClient.request} throws ({@link McpException} kinds, {@link InterruptedException}); once the client
 * has closed, {@link McpClosedException}.
 */
public interface TaskChannel {

    /** The extension's identifier in {@code capabilities.extensions} (MCP tasks extension, §Capability Negotiation). */
    String EXTENSION = "io.modelcontextprotocol/tasks";

    /**
     * Returns what the client knows of its server: era, protocol version, identity and capabilities.
     *
     * @return the server's facts as of the last handshake
     * @throws IllegalStateException if the client has not connected (yet); once closed, it still answers what it was
     */
    TaskServer server();

    /**
     * Returns a tool's {@code execution.taskSupport} (MCP 2025-11-25 §Tool-Level Negotiation) as the client's tool
     * catalog knows it; a tool no listing described yet is looked up with one {@code tools/list} first (within the
     * options' deadline), and a tool that listing does not describe either is not listed again for it.
     *
     * @param toolName the tool's name
     * @param options  deadline and token of the listing, when one is needed
     * @return {@code "required"}, {@code "optional"} or {@code "forbidden"} (also for a tool that does not say or is
     *         not listed)
     * @throws InterruptedException if the calling thread is interrupted
     * @throws McpException         if the listing fails
     */
    String toolTaskSupport(String toolName, RequestOptions options) throws InterruptedException;

    /**
     * Sends {@code tools/call} and returns its answer: the final result (decoded and screened as
     * {@code McpClient.callTool} does) or the task the server created. Multi round-trip input asked before the task
     * exists (modern {@code resultType: "input_required"}) is answered by the client's handlers first. The tool's
     * {@code Mcp-Param-*} routing is as for {@code callTool}.
     *
     * @param name         the tool's name
     * @param arguments    its arguments, or {@code null}
     * @param augmentation the {@code task} member to send (legacy era), or {@code null} for a plain call; sent as
     *                     given: the task support decides when a call may ask for a task
     * @param options      deadline, token and {@code _meta}
     * @return the answer
     * @throws InterruptedException if the calling thread is interrupted
     * @throws McpException         as {@code McpClient.callTool} does ({@code McpProtocolException} for a final
     *                              result that is malformed or fails the screening)
     */
    ToolCallAnswer callTool(String name, @Nullable Map<String, @Nullable Object> arguments,
                            @Nullable TaskAugmentation augmentation, RequestOptions options) throws InterruptedException;

    /**
     * Sends one request and returns its result as plain JSON (the {@code tasks/*} requests, whose shapes are the task
     * support's). Modern era: the envelope declares the tasks extension, the routing headers name
     * {@code params.taskId} as {@code Mcp-Name} for {@code tasks/get|update|cancel}, and a {@code resultType} of
     * {@code "complete"} or {@code "task"} is accepted on {@code tasks/*} (the status decides, C.5.4). Legacy era:
     * sent as is.
     *
     * @param method  the method, for example {@code tasks/get}
     * @param params  the params (without {@code _meta} envelope fields, which the core adds); may be {@code null}
     * @param options deadline, token and {@code _meta} of this request
     * @return the result object as plain JSON
     * @throws InterruptedException if the calling thread is interrupted
     * @throws McpException         as {@code McpClient.request} does (a JSON-RPC error is {@code McpRpcException},
     *                              {@code -32021} included, whose {@code requiredCapabilities()} names what the
     *                              server needs)
     */
    Map<String, @Nullable Object> request(String method, @Nullable Map<String, @Nullable Object> params,
                                          RequestOptions options)
            throws InterruptedException;

    /**
     * Decodes a complete {@code CallToolResult} (a task's {@code result}, or what {@code tasks/result} returned) and
     * screens it as {@code callTool} does (output schema validation per the client's setting).
     *
     * @param name   the tool that was called
     * @param result the result JSON
     * @return the result
     * @throws dev.loommcp.McpProtocolException if the JSON is missing, not a valid {@code CallToolResult} or fails
     *                                          the screening
     */
    CallToolResult toolResult(String name, Map<String, @Nullable Object> result);

    /**
     * Answers a task's {@code inputRequests} (modern {@code input_required}, C.5.7) through the client's registered
     * elicitation, sampling and roots handlers, exactly as multi round-trip input is answered.
     *
     * @param inputRequests the requests by key, as plain JSON ({@code {key: {method, params}}})
     * @param options       deadline and token for the handlers
     * @return the responses by key ({@code inputResponses}), in the server's order; empty for no requests. A key
     *         whose method has no handler is treated as in a multi round-trip request: the whole call fails with
     *         {@code McpInputRequiredException} before any handler runs
     * @throws InterruptedException if the calling thread is interrupted
     * @throws McpException         if a request is malformed ({@code McpProtocolException}, naming its key), a
     *                              method has no handler or a handler refused, failed or answered invalidly
     *                              ({@code McpInputRequiredException}), the deadline passes
     *                              ({@code McpTimeoutException}) or the token fires ({@code McpCancelledException})
     */
    Map<String, @Nullable Object> answerInputRequests(Map<String, @Nullable Object> inputRequests,
                                                      RequestOptions options)
            throws InterruptedException;

    /**
     * Modern era: opens {@code subscriptions/listen} with {@code notifications.taskIds} (C.5.9), declaring the
     * extension. Each {@code notifications/tasks} (a full {@code DetailedTask}, plain JSON) goes to {@code onTask}
     * on the client's listener thread; keep it short.
     *
     * @param taskIds the tasks to hear about, at least one
     * @param onTask  receives each task status notification's params
     * @param options deadline and token of the acknowledgement
     * @return the subscription; close it to stop
     * @throws InterruptedException                 if the calling thread is interrupted
     * @throws dev.loommcp.McpUnsupportedInEraException in the legacy era
     * @throws McpException                         if the server refuses the listen
     */
    Subscription listenTasks(List<String> taskIds, Consumer<Map<String, @Nullable Object>> onTask,
                             RequestOptions options)
            throws InterruptedException;

    /**
     * Registers a listener for one server notification method (legacy {@code notifications/tasks/status}, C.6.7),
     * called with its params on the client's listener thread.
     *
     * @param method   the notification method
     * @param listener receives each notification's params (plain JSON, empty when it had none)
     * @return the registration; closing it stops this listener (idempotent, never throws; other registrations of
     *         the same listener stay)
     */
    Registration onNotification(String method, Consumer<Map<String, @Nullable Object>> listener);

    /**
     * Returns where the task driver gets its threads (named and tracked like the client's own, cancelled and awaited
     * when the client closes).
     *
     * @return the thread source
     */
    TransportThreads threads();

    /**
     * A token that fires when the client closes (before the client's requests fail with
     * {@link McpClosedException}), so that waits of the driver end with the client; {@code isCancelled()} is the
     * client's closed state as the driver should see it.
     *
     * @return the token
     */
    CancellationToken closeToken();

    /**
     * Returns what ended the client when it was not closed by its owner: the transport's failure (for example the
     * server process exited), to be the cause of the {@link McpClosedException} a driver's waiter gets.
     *
     * @return the failure, or empty while the client is open or after {@code close()}
     */
    java.util.Optional<Throwable> closeCause();
}
