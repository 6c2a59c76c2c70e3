package dev.loommcp;

import java.util.Objects;

/**
 * An interceptor failed: it threw an exception that is neither an {@link McpException} (which passes unchanged, a
 * {@link McpVetoedException} among them) nor an {@link InterruptedException}, for example a
 * {@link NullPointerException} of its own. The call it ran for fails with this exception, the interceptor's failure as
 * its {@linkplain #getCause() cause}; the client stays usable and later calls run the chain again.
 *
 * <p>For an interceptor of a request the client sends ({@link dev.loommcp.intercept.McpInterceptor}) the caller gets
 * it; for an interceptor of a request the server asks of the client
 * ({@link dev.loommcp.intercept.ServerRequestInterceptor}) the server gets a JSON-RPC internal error in the 2025 era,
 * and in the 2026 era the call whose {@code input_required} answer asked for it fails with it.
 *
 * <p>The message names the method and the interceptor's class, never payloads. Immutable; thread-safe.
 */
public final class McpInterceptorException extends McpException {

    private final String method;

    /**
     * Creates the exception.
     *
     * @param method      the method of the request the interceptor ran for
     * @param interceptor the failed interceptor (its class names it in the message)
     * @param cause       what it threw
     * @throws NullPointerException if an argument is {@code null}
     */
    public McpInterceptorException(String method, Object interceptor, Throwable cause) {
        super("the interceptor " + Objects.requireNonNull(interceptor, "interceptor").getClass().getName()
                + " failed on " + Objects.requireNonNull(method, "method") + ": "
                + Objects.requireNonNull(cause, "cause").getClass().getName(), cause);
        this.method = method;
    }

    /**
     * Returns the method of the request the interceptor ran for.
     *
     * @return the method
     */
    public String method() {
        return method;
    }
}
