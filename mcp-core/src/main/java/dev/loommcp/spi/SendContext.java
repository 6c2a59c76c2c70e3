package dev.loommcp.spi;

import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.Deadline;
import org.jspecify.annotations.Nullable;

/**
 * What a transport knows about one {@link McpTransport#send} call.
 *
 * <p>Implemented by the core. Thread-safe.
 */
public interface SendContext {

    /**
     * Returns the request's deadline.
     *
     * @return the deadline; {@link Deadline#NONE} means none
     */
    Deadline deadline();

    /**
     * Returns the id of the request this send belongs to: the request's own id, the id a response answers, or the
     * id a {@code notifications/cancelled} refers to.
     *
     * @return the id, or {@code null} for a notification that belongs to no request
     */
    @Nullable RequestId requestId();

    /**
     * Registers an action that aborts the in-flight exchange (closes a response stream, a socket) when the request
     * is cancelled, times out or the client closes. If that already happened the action runs at once.
     *
     * @param action the action; it must not block
     */
    void onCancel(Runnable action);

    /**
     * Returns whether the request was cancelled, timed out or the client closed.
     *
     * @return {@code true} once cancelled
     */
    boolean isCancelled();

    /**
     * Returns whether {@link McpTransport#send} must return only once the message was delivered (and throw when it
     * was not), instead of queuing it and returning. The core asks for it for notifications it sends on a caller's
     * behalf ({@code notifications/initialized}, which must reach the server before the next request, and
     * {@code notify}, whose caller learns a refused delivery). Default {@code false}.
     *
     * @return {@code true} when the send must wait for the delivery
     */
    default boolean awaitDelivery() {
        return false;
    }

    /**
     * Returns whether the sending thread blocks for the answer right after {@link McpTransport#send} returns, doing
     * nothing else meanwhile (no progress listener runs on it, no timeout is reset by progress). The transport then
     * MAY run a request's exchange on the calling thread and return only once the answer was delivered to the sink
     * or the failure reported through {@link TransportSink#onSendFailed}, instead of queuing it: that saves a thread
     * hand-off per request. Such an inline exchange must still end promptly at the deadline, when the request is
     * cancelled ({@link #onCancel} actions), when the transport closes, and when the calling thread is interrupted
     * (it then returns with the interrupt flag set). For such a request with a deadline the core cancels the
     * context when the deadline passes (its {@link #onCancel} actions run then, from the core's deadline thread), so
     * a transport may leave to that cancel a wait it cannot bound itself (the HTTP transport: a fixed-length answer
     * body read inside the HTTP client's {@code send}). Transports that do not care ignore it. Default
     * {@code false}; the core sets it only for requests.
     *
     * @return {@code true} when the caller waits for the answer anyway
     */
    default boolean callerWaits() {
        return false;
    }

    /**
     * Records that the server has the request and may still be working on it, so that giving up on its answer has to
     * be said: over Streamable HTTP a broken or idle response stream is not a cancellation (MCP 2025-11-25,
     * "Transports", Streamable HTTP: disconnection "SHOULD NOT be interpreted as the client cancelling its request";
     * to cancel, the client sends {@code notifications/cancelled}). When the call later fails with a
     * {@link dev.loommcp.McpTransportException} of this request (reported through
     * {@link TransportSink#onSendFailed}; not a {@link dev.loommcp.McpSessionExpiredException}) while the session
     * goes on, the core sends {@code notifications/cancelled} for it, in an era that cancels in-band (not the modern
     * era over an exchange-per-request transport, where aborting the exchange cancels). The HTTP transport calls it
     * once a request's POST was answered 2xx with an event stream, and when the wait for the POST's response headers
     * timed out (the server had the request). A transport whose failures end the connection (stdio) need not call it.
     * Idempotent; callable from any thread. Default: nothing.
     */
    default void markAccepted() {
    }

    /**
     * Says what the transport is waiting for on this request's behalf, for the timeout's message: when the call
     * times out while a note is set, the core's {@link dev.loommcp.McpTimeoutException} says so (for example
     * "waiting 30000 ms to resume the response stream, as the server's SSE retry asked"). The HTTP transport sets it
     * while it waits to resume a response stream. Payload-free text only. Callable from any thread. Default:
     * nothing.
     *
     * @param doing what the transport is waiting for, or {@code null} when it waits for nothing in particular
     */
    default void waitingFor(@Nullable String doing) {
    }

    /**
     * Returns the modern-era routing facts of the message, which a transport with headers sends as headers.
     * Present for every message of the modern era (including the {@code server/discover} probe), absent in the
     * legacy era: a transport may key its era behaviour on it (HTTP: no session header, a JSON-RPC error in the body
     * of a non-2xx answer delivered as that request's response). Default empty.
     *
     * @return the routing, or empty in the legacy era
     */
    default java.util.Optional<RequestRouting> routing() {
        return java.util.Optional.empty();
    }

    /**
     * Starts a virtual thread named {@code mcp-<purpose>-<n>} for work of this send (an HTTP exchange queued
     * instead of run inline, the resumption of its response stream, a one-way send), owned by the request's scope
     * in the client's scope tree: when the request ends (answer, deadline, cancellation, interrupt of the caller, the
     * client's close) the thread is interrupted, after the {@link #onCancel} actions ran, and the request's end
     * returns only once the thread has ended. The thread must therefore end promptly on an interrupt or a cancel
     * action; it must not outlive the work of this one send (a connection-wide thread comes from
     * {@link TransportContext#threads()}). The client's leak checks and the JDK's thread dumps see it under the
     * request. Callable from any thread, also from a thread started this way.
     *
     * <p>The default (a context the core did not make, as in a transport's own tests) starts a plain thread from
     * {@link TransportThreads#standard()} that no scope owns.
     *
     * @param purpose what the thread does, for its name
     * @param task    the work
     * @return the started thread
     * @throws IllegalStateException if the request has already ended (its scope is closed): nothing is started
     * @throws NullPointerException  if an argument is {@code null}
     */
    default Thread fork(String purpose, Runnable task) {
        return TransportThreads.standard().start(purpose, task);
    }

    /**
     * A context for messages that belong to no request (for example {@code notifications/initialized}).
     *
     * @param deadline the deadline of the send
     * @return the context
     * @throws NullPointerException if {@code deadline} is {@code null}
     */
    static SendContext detached(Deadline deadline) {
        java.util.Objects.requireNonNull(deadline, "deadline");
        return new SendContext() {
            @Override
            public Deadline deadline() {
                return deadline;
            }

            @Override
            public @Nullable RequestId requestId() {
                return null;
            }

            @Override
            public void onCancel(Runnable action) {
            }

            @Override
            public boolean isCancelled() {
                return false;
            }
        };
    }
}
