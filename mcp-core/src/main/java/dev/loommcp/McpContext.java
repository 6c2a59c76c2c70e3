package dev.loommcp;

import dev.loommcp.internal.scope.RequestScope;
import dev.loommcp.internal.scope.Scope;
import dev.loommcp.jsonrpc.RequestId;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import dev.loommcp.event.ProgressListener;
import dev.loommcp.handler.SamplingHandler;

/**
 * The MCP request the calling code runs for: its method, its id on the wire, its server, its deadline and whether it
 * has ended. Code that a request runs reads it with {@link #current()}: an elicitation, sampling or roots handler
 * answering a server request that belongs to the request (in the 2026 era an {@code inputRequests} entry of the
 * request's {@code input_required} answer; in the 2025 era a server request that arrives on the request's own
 * Streamable HTTP response stream), and a {@link ProgressListener} of the request.
 *
 * <p><b>Nested calls inherit it.</b> Every MCP call made while a request's context is current, on this client or on
 * any other, runs inside that request: its deadline is never later than the request's (a shorter own timeout still
 * applies), and when the request ends without its answer (its deadline passed, its {@link CancellationToken} fired,
 * its caller was interrupted, its client closed) the nested call is cancelled too, on the wire
 * ({@code notifications/cancelled}, or the aborted exchange of the 2026 era over HTTP), and its caller gets
 * {@link McpCancelledException} (or {@link McpTimeoutException} when the inherited deadline passed first). For
 * example, server A's tool asks for sampling; the sampling handler calls a tool on server B to build its answer;
 * when the call to A times out, B's call is cancelled on B's wire, and B's call never had more time than A's:
 * <pre>{@code
 * SamplingHandler handler = request -> {
 *     // runs for A's tools/call: B's call inherits its deadline and ends with it
 *     CallToolResult facts = serverB.callTool("lookup", Map.of("topic", "weather"));
 *     return CreateMessageResult.ofText("my-model", summarize(facts));
 * };
 * }</pre>
 * The inheritance follows the thread: calls made on the thread the handler or listener runs on, or in forks of an
 * {@link McpScope} opened on it. Work handed to an executor of the application's own does not inherit it.
 *
 * <p>Implements the request-scoped concurrency of loom-mcp's design (one scope per request; deadlines and
 * cancellation propagate). An instance is a view of one request: immutable but for {@link #requestId()} (a corrective
 * retry or an input round of the 2026 era sends the request again with a new id) and {@link #isCancelled()}.
 * Thread-safe.
 */
public final class McpContext {

    private final Scope<?, ?> scope;
    private final RequestScope request;

    private McpContext(Scope<?, ?> scope, RequestScope request) {
        this.scope = scope;
        this.request = request;
    }

    /**
     * Returns the context of the innermost MCP request the calling thread runs for: the request whose handler,
     * progress listener or nested call this thread is running, or the request the thread is itself waiting for
     * (inside a call). Empty on a thread that runs for no request (an application thread outside any call, a client
     * listener of notifications).
     *
     * @return the context, or empty
     */
    public static Optional<McpContext> current() {
        Scope<?, ?> s = RequestScope.current();
        return s == null ? Optional.empty() : Optional.of(new McpContext(s, (RequestScope) s.attachment()));
    }

    /**
     * Returns the context of the request this one runs inside: the request whose handler, listener, interceptor or
     * nested call made this one (on this client or another), such as the {@code tools/call} whose sampling handler
     * made this request; empty for a request made outside any other. For telemetry: the parent of a request's
     * span.
     *
     * @return the enclosing request's context, or empty
     */
    public Optional<McpContext> parent() {
        for (Scope<?, ?> s = scope.parent(); s != null; s = s.parent()) {
            if (s.attachment() instanceof RequestScope r) {
                return Optional.of(new McpContext(s, r));
            }
        }
        return Optional.empty();
    }

    /**
     * Returns the request's JSON-RPC method (for example {@code tools/call}).
     *
     * @return the method
     */
    public String method() {
        return request.method();
    }

    /**
     * Returns the id the request has on the wire now; empty before it was first sent.
     *
     * @return the id, or empty
     */
    public Optional<RequestId> requestId() {
        return Optional.ofNullable(request.id());
    }

    /**
     * Returns the transport's description of the server the request went to (the command or URL, never secrets).
     *
     * @return the description
     */
    public String server() {
        return request.server();
    }

    /**
     * Returns how long the request has left before its deadline (the earliest of its own and of every request or
     * scope it runs in); empty when it has none. Zero once the deadline passed.
     *
     * @return the time left, or empty
     */
    public Optional<Duration> remaining() {
        return scope.deadline().isNone() ? Optional.empty() : Optional.of(scope.deadline().remaining());
    }

    /**
     * Returns the request's deadline as a wall-clock instant (now plus {@link #remaining()}); empty when it has none.
     *
     * @return the deadline, or empty
     */
    public Optional<Instant> deadline() {
        return remaining().map(left -> Instant.now().plus(left));
    }

    /**
     * Returns whether the request has ended without its answer reaching the code that runs for it: it was cancelled,
     * timed out or its client closed (the scope of the request was cancelled). Code running for a request that has
     * ended should stop; its MCP calls fail with {@link McpCancelledException} without being sent.
     *
     * @return {@code true} once the request has ended
     */
    public boolean isCancelled() {
        return scope.isCancelled();
    }

    @Override
    public String toString() {
        RequestId id = request.id();
        return "McpContext[" + request.method() + (id == null ? "" : " id " + id) + " to " + request.server()
                + (isCancelled() ? ", ended" : "") + "]";
    }
}
