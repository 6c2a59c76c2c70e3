package dev.loommcp.tasks;

import dev.loommcp.Registration;
import dev.loommcp.config.Era;
import dev.loommcp.McpCancelledException;
import dev.loommcp.McpException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpUnsupportedInEraException;
import dev.loommcp.RequestOptions;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.Deadline;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import java.util.Optional;

/**
 * One task on one server: a handle to poll it, answer its input, cancel it and wait for its result (MODERN-ERA.md
 * C.5 and C.6; Rust seed {@code get_task}, {@code update_task}, {@code cancel_task}, {@code await_task}). Obtained
 * from {@link McpTasks#callToolAsTask}, {@link McpTasks#task} or {@link McpTasks#resumeTasks}. Thread-safe; a handle
 * stays valid after its task ended (its last snapshot is kept) and until its client closes.
 */
public interface McpTask {

    /**
     * Returns the task's id as the server issued it.
     *
     * @return the id
     */
    String id();

    /**
     * Returns the name of the tool whose call created the task, when known (a handle from {@link McpTasks#task}
     * without a stored record does not know it).
     *
     * @return the tool name, or empty when unknown
     */
    Optional<String> toolName();

    /**
     * Returns whether the server answered the creating call at once with a plain result instead of creating a task
     * (modern era: the server decides; legacy era: the tool or server does not take tasks). Such a handle is
     * {@code completed} from the start, its {@link #id()} is a client-side placeholder ({@code immediate-<uuid>}) the
     * server does not know, and {@link #await} returns the result without sending anything.
     *
     * @return {@code true} for a handle that stands for a plain result
     */
    boolean answeredAtOnce();

    /**
     * Returns the era of the task's wire shape.
     *
     * @return the era
     */
    Era era();

    /**
     * Returns the status the client last learned, without asking the server.
     *
     * @return the status
     */
    default TaskStatus status() {
        return snapshot().status();
    }

    /**
     * Returns what the client last learned of the task, without asking the server.
     *
     * @return the snapshot
     */
    TaskSnapshot snapshot();

    /**
     * Asks the server now ({@code tasks/get}).
     *
     * @param options deadline and token
     * @return the server's answer, also kept as {@link #snapshot()}
     * @throws InterruptedException     if the calling thread is interrupted
     * @throws McpTaskNotFoundException if the server no longer knows the task ({@code -32602})
     * @throws McpException             for any other failure of the request
     */
    TaskSnapshot get(RequestOptions options) throws InterruptedException;

    /**
     * Sends input for an {@code input_required} task ({@code tasks/update}, modern era; partial sets allowed). Keys
     * already answered by this client are not sent again. The server acknowledges at once and goes on: poll or
     * {@link #await} to see the effect.
     *
     * @param inputResponses responses by input request key, as plain JSON
     * @param options        deadline and token
     * @throws InterruptedException         if the calling thread is interrupted
     * @throws McpUnsupportedInEraException in the legacy era (input there arrives as server requests, answered by
     *                                      the client's handlers)
     * @throws McpTaskNotFoundException     if the server no longer knows the task
     * @throws McpException                 for any other failure of the request
     */
    void update(Map<String, @Nullable Object> inputResponses, RequestOptions options) throws InterruptedException;

    /**
     * Asks the server to cancel the task ({@code tasks/cancel}; never {@code notifications/cancelled}). Cooperative:
     * the task may still end completed or failed. Cancelling a task known to be terminal sends nothing; a 2025-11-25
     * server that refuses the cancel with {@code -32602} because the task already ended (MCP 2025-11-25 tasks
     * §Cancelling Tasks) is asked for the task's status, and the cancel then returns with that final snapshot.
     *
     * @param options deadline and token
     * @throws InterruptedException     if the calling thread is interrupted
     * @throws McpTaskNotFoundException if the server no longer knows the task
     * @throws McpException             for any other failure of the request
     */
    void cancel(RequestOptions options) throws InterruptedException;

    /**
     * Waits for the task's final result: polls at the server's latest interval (or hears pushed status), answers
     * {@code input_required} through the client's handlers (each input key exactly once), and returns the final
     * result. When the deadline passes or the options' token fires, sends {@code tasks/cancel} first; so does an
     * interrupt. No other failure cancels the task: when its input cannot be answered (no handler for it, or a
     * handler that throws) or the client closes, the exception propagates and the task stays as it is on the
     * server, its unanswered input can still be given with {@link #update} (or by awaiting again with a handler).
     *
     * @param options the wait's deadline (default: the client's request timeout does <em>not</em> apply; no
     *                deadline waits until the task ends or its TTL passes) and token
     * @return the tool's result (with {@code isError} as the server set it)
     * @throws InterruptedException     if the calling thread is interrupted (the task is cancelled first, best
     *                                  effort)
     * @throws McpTaskFailedException   if the task ended with a JSON-RPC error
     * @throws McpCancelledException    if the task ended cancelled, or the token fired
     * @throws McpTimeoutException      if the deadline passed, or the task's TTL passed with no terminal status
     * @throws McpTaskNotFoundException if the server no longer knows the task
     * @throws dev.loommcp.McpInputRequiredException if the task needs input that no handler of the client answers
     *                                  (the task is not cancelled)
     * @throws dev.loommcp.McpClosedException if the client closed meanwhile; when the connection failed, its message
     *                                  says the connection to the server was lost and its cause is that failure
     * @throws McpException             for any other failure
     */
    CallToolResult await(RequestOptions options) throws InterruptedException;

    /**
     * Same as {@link #await(RequestOptions)} with a deadline.
     *
     * @param deadline when to give up (and cancel the task)
     * @return the tool's result
     * @throws InterruptedException if the calling thread is interrupted
     * @throws McpException         as {@link #await(RequestOptions)}
     */
    CallToolResult await(Deadline deadline) throws InterruptedException;

    /**
     * Adds a listener for status changes from now on.
     *
     * @param listener the listener
     * @return the registration; closing it removes this listener (idempotent, never throws; another registration
     *         of the same listener stays)
     */
    Registration addListener(TaskListener listener);
}
