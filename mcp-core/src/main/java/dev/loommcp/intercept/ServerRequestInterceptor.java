package dev.loommcp.intercept;

import dev.loommcp.McpContext;
import dev.loommcp.McpInterceptorException;
import dev.loommcp.McpVetoedException;
import org.jspecify.annotations.Nullable;

import java.util.Map;
import java.util.Optional;

/**
 * Intercepts each request a server asks of the client ({@code sampling/createMessage}, {@code elicitation/create},
 * {@code roots/list}) before the client's handler answers it: observes it, times it, vetoes it, rewrites its params,
 * or answers it without the handler. Registered with {@link dev.loommcp.McpClient.Builder#addServerRequestInterceptor}
 * (and, for every hosted server, on {@code McpServers}); the first registered is the outermost. Only requests the
 * client has a handler for reach the chain (the others are refused as before, with {@code -32601} or, in the 2026 era,
 * {@link dev.loommcp.McpInputRequiredException}), and only after their params were parsed and checked.
 *
 * <p><b>Both eras.</b> In the 2025 era a server request runs on a handler thread of the client, inside the scope of
 * the call whose response stream carried it (then {@link McpContext#current()} is that call) or of the client. In the
 * 2026 era an {@code inputRequests} entry of an {@code input_required} answer runs on the caller's thread, inside the
 * call that got the answer ({@link McpContext#current()} is that call).
 *
 * <p><b>Errors.</b> A veto ({@link McpVetoedException}): in the 2025 era the server gets a JSON-RPC error
 * {@code -32600} (invalid request) whose message says the client refused it and why; in the 2026 era the call
 * that needed the input fails with the veto. Any other exception an interceptor throws that is not an
 * {@link dev.loommcp.McpException}: {@link McpInterceptorException} (2026 era: the call fails with it; 2025 era: the
 * server gets an internal error {@code -32603}, and it is logged at WARNING); the client stays usable. What the
 * handler itself throws passes out of {@code proceed} unchanged and is treated as the handler's failure.
 *
 * <p>Implementations must be thread-safe: server requests run concurrently.
 */
@FunctionalInterface
public interface ServerRequestInterceptor {

    /**
     * Intercepts one server request: typically returns {@link Chain#proceed} of {@link Chain#request()} or of a
     * rewritten request; may return an answer of its own without the handler.
     *
     * @param chain the request, its context and the rest of the chain
     * @return the answer as plain JSON (for example {@code Map.of("action", "decline")} for an elicitation); it is
     *         checked as a handler's answer would be before it is sent
     * @throws McpVetoedException to refuse the request
     * @throws Exception          what {@code proceed} threw (the handler's failure), or an interceptor's own failure
     */
    Map<String, @Nullable Object> intercept(Chain chain) throws Exception;

    /**
     * Returns {@code interceptor} with a name: the same interceptor whose {@code toString()} is {@code name}, so that
     * an {@link dev.loommcp.McpInterceptorException} of it names it (as {@link McpInterceptor#named} does).
     *
     * @param name        the name: not blank, no ISO control characters (it goes into messages and logs)
     * @param interceptor the interceptor
     * @return the named interceptor; thread-safe as {@code interceptor} is
     * @throws NullPointerException     if an argument is {@code null}
     * @throws IllegalArgumentException if {@code name} is blank or holds an ISO control character
     */
    static ServerRequestInterceptor named(String name, ServerRequestInterceptor interceptor) {
        String checked = NamedInterceptor.checkedName(name);
        java.util.Objects.requireNonNull(interceptor, "interceptor");
        return new ServerRequestInterceptor() {
            @Override
            public Map<String, @Nullable Object> intercept(Chain chain) throws Exception {
                return interceptor.intercept(chain);
            }

            @Override
            public String toString() {
                return checked;
            }
        };
    }

    /** The server request and the rest of the chain. Use it on the thread the interceptor was called on. */
    interface Chain {

        /**
         * Returns the request as the interceptors before this one left it.
         *
         * @return the request
         */
        ServerRequest request();

        /**
         * Returns the context of the client's request this server request belongs to: the call whose
         * {@code input_required} answer asked for it (2026 era) or whose response stream carried it (2025 era).
         *
         * @return the context; empty for a 2025-era server request that came on the connection
         */
        Optional<McpContext> context();

        /**
         * Returns what the client knows of its connection.
         *
         * @return the connection
         */
        McpConnection connection();

        /**
         * Passes the request to the next interceptor, or after the last one to the client's handler, and returns the
         * answer (checked as the handler's answer is).
         *
         * @param request the request: {@link #request()} or a rewritten one (its method must stay the same)
         * @return the answer as plain JSON
         * @throws IllegalArgumentException if {@code request} has another method than {@link #request()}
         * @throws Exception                what the handler threw ({@link InterruptedException} when cancelled)
         */
        Map<String, @Nullable Object> proceed(ServerRequest request) throws Exception;
    }
}
