package dev.loommcp.event;

import dev.loommcp.jsonrpc.RequestId;
import java.time.Duration;
import dev.loommcp.CancellationToken;
import dev.loommcp.McpCancelledException;
import dev.loommcp.McpClient;
import dev.loommcp.McpClosedException;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpRpcException;
import dev.loommcp.McpSessionExpiredException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpTransportException;
import org.jspecify.annotations.Nullable;

/**
 * Observes the client's requests and its transport for metrics: how many requests of each method, how long each
 * took, how many failed or were cancelled, when the transport closed. Set one with
 * {@link McpClient.Builder#eventListener(McpEventListener)}; every method has a default that does nothing.
 *
 * <p>Each request the client sends (the {@code initialize} of {@link McpClient#connect()} included) gets exactly one
 * {@link #requestStart} and then exactly one of {@link #requestEnd}, {@link #requestFailed} or
 * {@link #requestCancelled}, with the same method and id. A call refused before it was sent (not connected, closed,
 * token already cancelled, thread already interrupted, deadline already passed) gets none. Notifications the client
 * sends are not reported. Events are per request on the wire, not per call: when the server expired the session, the
 * request that learnt it ends with {@link #requestFailed} ({@link McpSessionExpiredException}), the renewal's
 * {@code initialize} is a request of its own, and a call sent again in the new session is a new request with a new
 * id, so a caller who saw one successful call may see two requests (count failures that reach callers from the
 * call's result, or skip {@code McpSessionExpiredException} here).
 *
 * <p>Methods are called synchronously on the thread of the call (the transport's or the closing thread for
 * {@link #transportClosed}), so they must be thread-safe and fast (count, record a histogram; never block or call the
 * client). Whatever a method throws, {@link Error}s included, is logged at {@code WARNING} (without its message) and
 * ignored: the call goes on as if there were no listener. Durations are measured with {@link System#nanoTime()} from
 * just before the request is sent.
 */
public interface McpEventListener {

    /**
     * Called when a request is about to be sent.
     *
     * @param method the JSON-RPC method, for example {@code tools/call}
     * @param id     the request's id
     */
    default void requestStart(String method, RequestId id) {
    }

    /**
     * Called when a request got a successful response (before the result is decoded or validated).
     *
     * @param method  the method
     * @param id      the request's id
     * @param elapsed the time since {@link #requestStart}
     */
    default void requestEnd(String method, RequestId id, Duration elapsed) {
    }

    /**
     * Called when a request failed: a JSON-RPC error from the server ({@link McpRpcException}), a timeout
     * ({@link McpTimeoutException}; the request is also cancelled on the wire), the client closing
     * ({@link McpClosedException}), the transport failing ({@link McpTransportException}), a malformed answer
     * ({@link McpProtocolException}), or params that are not plain JSON ({@link IllegalArgumentException}).
     *
     * @param method  the method
     * @param id      the request's id
     * @param elapsed the time since {@link #requestStart}
     * @param failure what the call throws
     */
    default void requestFailed(String method, RequestId id, Duration elapsed, Throwable failure) {
    }

    /**
     * Called when the caller gave up on a request: its {@link CancellationToken} fired (the call throws
     * {@link McpCancelledException}) or its thread was interrupted ({@link InterruptedException}). The request is
     * cancelled on the wire (never {@code initialize}).
     *
     * @param method  the method
     * @param id      the request's id
     * @param elapsed the time since {@link #requestStart}
     * @param reason  the token's reason, {@code "cancelled"} when it gave none, or {@code "interrupted"}
     */
    default void requestCancelled(String method, RequestId id, Duration elapsed, String reason) {
    }

    /**
     * Called once when the client's transport is closed, after it was closed.
     *
     * @param cause {@code null} when the application closed the client; otherwise why the client closed: the
     *              transport's failure (the server process exited, the connection was lost) or the failure of
     *              {@link McpClient#connect()}
     */
    default void transportClosed(@Nullable Throwable cause) {
    }
}
