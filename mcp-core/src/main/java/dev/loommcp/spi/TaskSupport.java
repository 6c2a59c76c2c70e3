package dev.loommcp.spi;

import dev.loommcp.McpException;
import dev.loommcp.RequestOptions;
import dev.loommcp.schema.CallToolResult;
import org.jspecify.annotations.Nullable;

/**
 * The tasks hook of a client: a task driver installed with {@code McpClient.Builder.taskSupport} (the
 * {@code mcp-tasks} module's {@code McpTasks.support()} is the one the project ships). The core calls it at two
 * points of a plain {@code McpClient.callTool}, on the caller's thread:
 * <ul>
 *   <li>before the call is sent: {@link #augmentation} says whether the call asks for a task (the legacy era's
 *       {@code task: {ttl}}, MODERN-ERA.md C.6.3; the rule of when is the driver's);</li>
 *   <li>when the answer is not final (the server created a task: modern {@code resultType: "task"}, C.5.2, or the
 *       legacy {@code task} answering an augmented call): {@link #awaitResult} drives the task to its result.</li>
 * </ul>
 * With it installed every modern request also declares the tasks extension ({@link TaskChannel#EXTENSION}). Without
 * it the client never declares the extension, never augments a call, and refuses a task answer as a protocol error
 * naming the missing extension.
 *
 * <p>Implementations must be thread-safe; one instance serves one live client at a time.
 */
public interface TaskSupport {

    /**
     * Called once by {@code McpClient.Builder.build()} with the new client's channel.
     *
     * @param channel the channel
     * @throws IllegalStateException if this support is already bound to a client that is still open
     */
    void bind(TaskChannel channel);

    /**
     * Says whether a plain {@code callTool} of {@code toolName} asks for a task, before it is sent.
     *
     * @param toolName the tool to be called
     * @param options  the call's options, with a deadline that is what is left of the call's (for a lookup such as
     *                 {@link TaskChannel#toolTaskSupport})
     * @return the augmentation to send, or {@code null} for a plain call
     * @throws InterruptedException if the calling thread is interrupted
     * @throws McpException         if a lookup it needs fails (the call then fails with it)
     */
    @Nullable TaskAugmentation augmentation(String toolName, RequestOptions options) throws InterruptedException;

    /**
     * Drives a task that a plain {@code callTool} got back to its final result, on the caller's thread: polls at
     * the server's interval, answers input through the client's handlers, and cancels the task when the call's
     * deadline passes or its token fires (then throws as the call would).
     *
     * @param pending the answer that created the task
     * @param options the call's options, with a deadline that is what is left of the original call's, and without
     *                its progress listener
     * @return the final result, decoded and screened ({@link TaskChannel#toolResult})
     * @throws InterruptedException if the calling thread is interrupted (the task is cancelled first, best effort)
     * @throws McpException         the task's failure, cancellation ({@code McpCancelledException}), expiry,
     *                              deadline ({@code McpTimeoutException}), a malformed task
     *                              ({@code McpProtocolException}) or any request failure
     */
    CallToolResult awaitResult(ToolCallAnswer.Pending pending, RequestOptions options) throws InterruptedException;

    /**
     * Called when the client closes, after its close token fired: stop every poll and release every thread. Must not
     * throw.
     */
    default void clientClosed() {
    }
}
