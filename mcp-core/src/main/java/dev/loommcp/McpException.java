package dev.loommcp;

import org.jspecify.annotations.Nullable;

/**
 * The root of every exception loom-mcp throws for a failed MCP operation. It is unchecked and sealed: a caller can
 * switch over the kinds exhaustively.
 *
 * <ul>
 *   <li>{@link McpRpcException}: the server answered with a JSON-RPC error (its {@code code()} tells which; a
 *       missing client capability, {@code -32021}, and an unsupported protocol version, {@code -32022}, have their
 *       data read by it).</li>
 *   <li>{@link McpTimeoutException}: the call's deadline passed first.</li>
 *   <li>{@link McpCancelledException}: the call's {@link CancellationToken} fired.</li>
 *   <li>{@link McpClosedException}: the client was closed, before or during the call.</li>
 *   <li>{@link McpProtocolException}: the peer broke the protocol (a malformed or unexpected message).</li>
 *   <li>{@link McpTransportException}: the transport failed (process exit, HTTP status, I/O); transports subclass it.</li>
 *   <li>{@link McpUnsupportedInEraException}: the operation does not exist in the connection's protocol era; nothing
 *       was sent.</li>
 *   <li>{@link McpInputRequiredException}: a multi round-trip request could not get the input the server asked
 *       for.</li>
 *   <li>{@link McpPolicyException}: the client's own resilience policy stopped the call: the circuit breaker is open
 *       ({@link McpCircuitOpenException}) or a budget is spent ({@link McpBudgetExceededException}).</li>
 *   <li>{@link McpVetoedException}: an interceptor refused the request (a policy of the client's own).</li>
 *   <li>{@link McpInterceptorException}: an interceptor failed (threw something else); its failure is the cause.</li>
 * </ul>
 *
 * <p>A thread interrupt is never wrapped: blocking calls throw {@link InterruptedException}. Messages name the
 * method and the request id, never payloads or header values.
 */
public abstract sealed class McpException extends RuntimeException
        permits McpRpcException, McpTimeoutException, McpCancelledException, McpClosedException,
                McpProtocolException, McpTransportException, McpUnsupportedInEraException,
                McpInputRequiredException, McpPolicyException, McpVetoedException, McpInterceptorException {

    /**
     * Creates the exception.
     *
     * @param message the message
     * @param cause   the cause, or {@code null}
     */
    protected McpException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
