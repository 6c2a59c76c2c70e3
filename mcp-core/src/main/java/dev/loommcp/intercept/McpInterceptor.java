package dev.loommcp.intercept;

import dev.loommcp.McpContext;
import dev.loommcp.McpInterceptorException;
import dev.loommcp.McpVetoedException;
import dev.loommcp.schema.Tool;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Intercepts each request the client sends: observes it, times it, vetoes it, rewrites its params and {@code _meta},
 * or answers it without sending. Registered with {@link dev.loommcp.McpClient.Builder#addInterceptor} (and, for
 * every hosted server, on {@code McpServers}); the first registered is the outermost.
 *
 * <pre>{@code
 * McpInterceptor timing = chain -> {
 *     long start = System.nanoTime();
 *     try {
 *         return chain.proceed(chain.request());
 *     } finally {
 *         metrics.record(chain.request().method(), System.nanoTime() - start);
 *     }
 * };
 * }</pre>
 *
 * <p><b>Which requests.</b> Every request of a connected client that would go on the wire, once per call: the typed
 * calls ({@code tools/call}, {@code prompts/get}, {@code resources/read}, listings page by page, {@code ping},
 * {@code completion/complete}, {@code logging/setLevel}, subscriptions), the generic {@code request(...)}, and the
 * engine's own requests made for a call: the task polls, {@code tasks/result} and {@code tasks/cancel} a
 * {@code TaskSupport} makes for a task-augmented {@code tools/call} (each a pass of its own, on the caller's thread
 * after the call's own pass returned the task; they name the task in {@code params.taskId}, which the call's response
 * carried, so an interceptor links them to the call by it), and the {@code tools/list} a 2026-era HTTP client makes
 * to learn a tool's header routing. One call is one pass through the chain even when the engine sends it more than
 * once underneath (a {@code -32022} corrective retry, a legacy session renewed and the request sent again, the 2026
 * era's input rounds): {@link McpContext#requestId()} after {@code proceed} is the id the last of them had, and each
 * of them is told to the {@link dev.loommcp.event.McpEventListener} with its own id. <b>Not</b> intercepted: the
 * handshake ({@code initialize}, {@code notifications/initialized},
 * {@code server/discover}, the era probe and a legacy session's renewal), because it decides the era, the protocol
 * version and the server's identity that the chain reports, and a veto, rewrite or invented answer there would make
 * the client trust a server that never answered (observe connects with {@link dev.loommcp.event.McpEventListener});
 * notifications (one-way, nothing to answer); answers the client serves from its own cache of the 2026 era (cacheable
 * listings and reads), which are not sent.
 *
 * <p><b>Threads and scope.</b> An interceptor runs on the thread that made the call, inside the request's scope:
 * {@link McpContext#current()} (also {@link Chain#context()}) is the request, with its deadline; nested MCP calls it
 * makes run inside the request. The request's deadline and token apply to the whole chain: an interceptor that waits
 * should wait with {@link Chain#await}, which ends at the deadline, when the token fires or when the request's scope
 * ends. No lock of the client is held while an interceptor runs.
 *
 * <p><b>Errors.</b> A veto is {@link McpVetoedException}: the caller gets it unchanged. Any other {@link RuntimeException}
 * (or checked exception smuggled out) that is not an {@link dev.loommcp.McpException} fails the call with
 * {@link McpInterceptorException} (the failure as its cause); the client stays usable. An {@code McpException} thrown
 * by an interceptor or by {@code proceed} (a timeout, the server's error) passes unchanged, as do
 * {@link InterruptedException} and {@link Error}.
 *
 * <p>Implementations must be thread-safe: one instance serves every call of the client, concurrently.
 */
@FunctionalInterface
public interface McpInterceptor {

    /**
     * Intercepts one request: typically calls {@link Chain#proceed} once with {@link Chain#request()} or a rewritten
     * request, and returns its response (or another). It may also return a response without calling {@code proceed}
     * ({@link McpResponse#of}): nothing is sent and the inner interceptors do not run, and its answer is checked as
     * the method's result ({@link McpResponse#of(Record)}). Calling {@code proceed} more than once is allowed and
     * sends the request again (a retry of its own; for a {@code tools/call} it repeats the tool's effect, so check
     * {@link Chain#tool()}'s {@code idempotentHint} first). A call the interceptor makes on its own client passes
     * this chain again: let those through (their {@link McpContext#parent()} is present), or the client refuses the
     * eighth nested pass on one thread ({@code IllegalStateException}). Wait with {@link Chain#await}, not
     * {@link Thread#sleep}, which hears neither the deadline nor a cancel.
     *
     * @param chain the request, its context and the rest of the chain
     * @return the response the caller gets
     * @throws McpVetoedException   to refuse the request
     * @throws InterruptedException if the calling thread is interrupted while waiting
     */
    McpResponse intercept(Chain chain) throws InterruptedException;

    /**
     * Returns {@code interceptor} with a name: the same interceptor (each call goes to it unchanged) whose
     * {@code toString()} is {@code name}, so that an {@link McpInterceptorException} of it says
     * {@code "the interceptor #2 (audit) failed ..."} rather than the class of a lambda. A class of the application
     * names itself by overriding {@code toString()}.
     *
     * <pre>{@code
     * builder.addInterceptor(McpInterceptor.named("audit", chain -> chain.proceed(chain.request())));
     * }</pre>
     *
     * @param name        the name: not blank, no ISO control characters (it goes into messages and logs)
     * @param interceptor the interceptor
     * @return the named interceptor; thread-safe as {@code interceptor} is
     * @throws NullPointerException     if an argument is {@code null}
     * @throws IllegalArgumentException if {@code name} is blank or holds an ISO control character
     */
    static McpInterceptor named(String name, McpInterceptor interceptor) {
        return new NamedInterceptor(NamedInterceptor.checkedName(name), Objects.requireNonNull(interceptor,
                "interceptor"));
    }

    /**
     * The request and the rest of the chain, as one interceptor sees them. Not thread-safe: use it on the thread the
     * interceptor was called on. Read-only but for {@link #proceed}.
     */
    interface Chain {

        /**
         * Returns the request as the interceptors before this one left it.
         *
         * @return the request
         */
        OutgoingRequest request();

        /**
         * Returns the request's context: its method, deadline, whether it has ended and, once sent, its JSON-RPC id
         * ({@link McpContext#requestId()} is empty before {@code proceed} and the id on the wire after it); its
         * {@link McpContext#parent() parent} is the request this one runs inside, if any. The same as
         * {@link McpContext#current()} on this thread.
         *
         * @return the context
         */
        McpContext context();

        /**
         * Returns what the client knows of its connection: era, protocol version, session id, transport, server.
         *
         * @return the connection
         */
        McpConnection connection();

        /**
         * Returns the definition of the tool a {@code tools/call} calls, as the client's latest {@code tools/list}
         * gave it (annotations such as {@code destructiveHint} included; never fetched by this call).
         *
         * @return the tool; empty when the request is not a {@code tools/call} or no listing described that tool
         */
        Optional<Tool> tool();

        /**
         * Passes the request to the next interceptor, or after the last one to the wire, and returns its response.
         *
         * @param request the request to send: {@link #request()} or a rewritten one (its method must stay the same)
         * @return the response
         * @throws IllegalArgumentException if {@code request} has another method than {@link #request()}
         * @throws InterruptedException     if the calling thread is interrupted
         * @throws dev.loommcp.McpException as the call fails: the server's error, a timeout, a veto further in, ...
         */
        McpResponse proceed(OutgoingRequest request) throws InterruptedException;

        /**
         * Waits for {@code future} within the request: until it completes, the request's deadline passes, its
         * {@link dev.loommcp.CancellationToken} fires or its scope ends (the caller's outer request ended, the client
         * closed). No thread is started; the waiting thread parks (cheap on a virtual thread). For an interceptor
         * that waits for something outside, such as a person's approval.
         *
         * @param future what to wait for; it is not cancelled when the wait ends early
         * @param <T>    the value's type
         * @return the future's value
         * @throws dev.loommcp.McpTimeoutException   if the request's deadline passed first
         * @throws dev.loommcp.McpCancelledException if the token fired or the request's scope ended first
         * @throws java.util.concurrent.CompletionException if the future completed exceptionally (its failure as
         *                                                  the cause)
         * @throws InterruptedException              if the calling thread is interrupted
         */
        <T> T await(CompletableFuture<T> future) throws InterruptedException;
    }
}
