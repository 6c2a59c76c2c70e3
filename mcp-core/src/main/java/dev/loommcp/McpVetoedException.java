package dev.loommcp;

import org.jspecify.annotations.Nullable;

import java.util.Objects;

/**
 * An interceptor refused a request ({@link dev.loommcp.intercept.McpInterceptor} for a request the client sends,
 * {@link dev.loommcp.intercept.ServerRequestInterceptor} for one the server asks of the client): a policy said no, for
 * example a tool that is not on a server's allow-list or a destructive tool whose approval was refused. An
 * interceptor throws it; the caller of the MCP call gets it unchanged. When it was thrown before
 * {@code proceed}, nothing of the request was sent. The client stays usable.
 *
 * <p>A veto has its own kind in the sealed {@link McpException} family, rather than reusing one: it is not the
 * server's answer ({@link McpRpcException}), not a cancel the caller asked for ({@link McpCancelledException}) and not
 * a broken peer ({@link McpProtocolException}); a caller that switches over the kinds can tell "refused by our own
 * policy" from every failure of the server or the wire, and a retry or a circuit breaker must not count it. A bug in
 * an interceptor (any other exception it throws) is {@link McpInterceptorException} instead.
 *
 * <p>The message names the method, the tool or prompt when there is one, and the reason the interceptor gave; never
 * arguments or other payloads. Immutable; thread-safe.
 */
public final class McpVetoedException extends McpException {

    private final String method;
    private final String reason;

    /**
     * Creates the veto of a request.
     *
     * @param method the method of the refused request, for example {@code tools/call}
     * @param reason why it was refused, for people (no payloads: it goes into logs)
     * @throws NullPointerException if {@code method} or {@code reason} is {@code null}
     */
    public McpVetoedException(String method, String reason) {
        this(method, reason, null);
    }

    /**
     * Creates the veto of a request with the failure that caused it (for example the approval service failing).
     *
     * @param method the method of the refused request
     * @param reason why it was refused, for people (no payloads)
     * @param cause  what caused the refusal, or {@code null}
     * @throws NullPointerException if {@code method} or {@code reason} is {@code null}
     */
    public McpVetoedException(String method, String reason, @Nullable Throwable cause) {
        super(Objects.requireNonNull(method, "method") + " refused by an interceptor: "
                + Objects.requireNonNull(reason, "reason"), cause);
        this.method = method;
        this.reason = reason;
    }

    /**
     * Returns the method of the refused request.
     *
     * @return the method
     */
    public String method() {
        return method;
    }

    /**
     * Returns the reason the interceptor gave.
     *
     * @return the reason
     */
    public String reason() {
        return reason;
    }
}
