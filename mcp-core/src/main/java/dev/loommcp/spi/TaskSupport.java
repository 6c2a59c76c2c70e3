package dev.loommcp.spi;

import dev.loommcp.McpException;
import dev.loommcp.RequestOptions;
import java.time.Duration;
import java.util.Map;
import dev.loommcp.McpClient;

/**
 * A task driver installed on a client with {@code McpClient.Builder.taskSupport} (the {@code mcp-tasks} module's
 * {@code McpTasks.support()} is the one the project ships). With it installed:
 * <ul>
 *   <li>modern era: every request declares the tasks extension ({@link TaskChannel#EXTENSION}), and a
 *       {@code tools/call} answered with a task is handed to {@link #awaitToolResult} on the caller's thread;</li>
 *   <li>legacy era (2025-11-25 or later; earlier versions have no tasks): a plain {@code callTool} of a tool whose
 *       {@code execution.taskSupport} is
 *       {@code "required"}, on a server whose {@code capabilities.tasks.requests.tools.call} is present, is augmented
 *       with {@code task: {ttl}} ({@link #legacyTtl()}), and its task is handed to {@link #awaitToolResult}.</li>
 * </ul>
 * Without it the client never declares the extension and refuses a task result as a protocol error.
 *
 * <p>Implementations must be thread-safe; one instance serves exactly one client.
 */
public interface TaskSupport {

    /**
     * Called once by {@code McpClient.Builder.build()} with the new client's channel.
     *
     * @param channel the channel
     * @throws IllegalStateException if this support is already bound to a client
     */
    void bind(TaskChannel channel);

    /**
     * Returns the {@code ttl} to ask for when the core augments a legacy {@code tools/call} (C.6.3); the server may
     * override it.
     *
     * @return the ttl, or {@code null} to let the server choose (sends {@code task: {}})
     */
    default Duration legacyTtl() {
        return null;
    }

    /**
     * Drives a task that a plain {@code callTool} got back to its final result, on the caller's thread: polls at
     * the server's interval, answers input through the client's handlers, and sends {@code tasks/cancel} when the
     * call's deadline passes or its token fires (then throws as the call would).
     *
     * @param toolName the tool that was called
     * @param created  the task's creation result as plain JSON (modern flat {@code CreateTaskResult}; legacy
     *                 {@code {"task": {...}}})
     * @param options  the call's options, with a deadline that is what is left of the original call's, and without
     *                 its progress listener
     * @return the final {@code CallToolResult} as plain JSON, which the core then decodes and screens
     * @throws InterruptedException if the calling thread is interrupted (the task is cancelled first, best effort)
     * @throws McpException         the task's failure ({@code McpTaskFailedException}), cancellation
     *                              ({@code McpCancelledException}), expiry ({@code McpTaskNotFoundException}),
     *                              deadline ({@code McpTimeoutException}) or any request failure
     */
    Map<String, Object> awaitToolResult(String toolName, Map<String, Object> created, RequestOptions options)
            throws InterruptedException;

    /** Called when the client closes: stop every poll and release every thread. Must not throw. */
    default void clientClosed() {
    }
}
