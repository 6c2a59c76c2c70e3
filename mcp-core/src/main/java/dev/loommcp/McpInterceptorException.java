package dev.loommcp;

import java.util.Objects;

/**
 * An interceptor failed: it threw an exception that is neither an {@link McpException} (which passes unchanged, a
 * {@link McpVetoedException} among them) nor an {@link InterruptedException}, for example a
 * {@link NullPointerException} of its own; or it returned {@code null}; or the answer it made instead of the server
 * is not a valid result of the method (a {@code tools/call} answer without a {@code content} array, a
 * {@code prompts/get} answer without messages): then the cause is an {@link McpProtocolException} saying what is
 * wrong, and the message says it was the interceptor's answer, not the server's. The call it ran for fails with this
 * exception, the interceptor's failure as its {@linkplain #getCause() cause}; the client stays usable and later calls
 * run the chain again.
 *
 * <p>For an interceptor of a request the client sends ({@link dev.loommcp.intercept.McpInterceptor}) the caller gets
 * it; for an interceptor of a request the server asks of the client
 * ({@link dev.loommcp.intercept.ServerRequestInterceptor}) the server gets a JSON-RPC internal error in the 2025 era,
 * and in the 2026 era the call whose {@code input_required} answer asked for it fails with it.
 *
 * <p><b>Which interceptor.</b> The message names the interceptor by its {@linkplain #position() position} in its
 * chain and by {@linkplain #interceptor() a name}: its {@code toString()} when its class declares one (an interceptor
 * made with {@code McpInterceptor.named} or {@code ServerRequestInterceptor.named}, or a class of the application that
 * overrides it), else {@code "a lambda in <class>"} for a lambda or method reference, else its class name. The message
 * never holds payloads: of the cause it carries the class, and the message only when the cause is an
 * {@link McpException} of the client's own (whose messages are payload-free). Immutable; thread-safe.
 */
public final class McpInterceptorException extends McpException {

    /** The longest name taken from an interceptor's {@code toString()}: it goes into messages and logs. */
    private static final int MAX_NAME = 120;

    private final String method;
    private final int position;
    private final String interceptor;

    /**
     * Creates the exception.
     *
     * @param method      the method of the request the interceptor ran for
     * @param position    the interceptor's position in its chain: 1 for the outermost (the first added)
     * @param interceptor the failed interceptor (named in the message as the class documentation says)
     * @param cause       what it threw, or what is wrong with its answer
     * @throws NullPointerException     if an argument is {@code null}
     * @throws IllegalArgumentException if {@code position} is less than 1
     */
    public McpInterceptorException(String method, int position, Object interceptor, Throwable cause) {
        this(Objects.requireNonNull(method, "method"), checked(position), nameOf(interceptor),
                Objects.requireNonNull(cause, "cause"));
    }

    private McpInterceptorException(String method, int position, String name, Throwable cause) {
        super("the interceptor #" + position + " (" + name + ") " + (cause instanceof McpProtocolException
                ? "answered " + method + " itself with an invalid result: " + cause.getMessage()
                : "failed on " + method + ": " + cause.getClass().getName()
                + (cause instanceof McpException ? ": " + cause.getMessage() : "")), cause);
        this.method = method;
        this.position = position;
        this.interceptor = name;
    }

    private static int checked(int position) {
        if (position < 1) {
            throw new IllegalArgumentException("position must be at least 1: " + position);
        }
        return position;
    }

    /**
     * How an interceptor is named in messages: its own {@code toString()} when its class declares one, else
     * {@code "a lambda in <class>"} for a lambda or method reference, else its class name. A {@code toString()}
     * that fails or is blank falls back to the class name; control characters become {@code '?'}.
     */
    static String nameOf(Object interceptor) {
        Class<?> type = Objects.requireNonNull(interceptor, "interceptor").getClass();
        String className = type.getName();
        try {
            if (type.getMethod("toString").getDeclaringClass() != Object.class) {
                String own = interceptor.toString();
                if (own != null && !own.isBlank()) {
                    return printable(own);
                }
            }
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return className; // a toString that fails still leaves the class
        }
        int lambda = className.indexOf("$$Lambda");
        if (lambda > 0 && (type.isSynthetic() || type.isHidden())) {
            return "a lambda in " + className.substring(0, lambda);
        }
        return className;
    }

    private static String printable(String s) {
        StringBuilder b = new StringBuilder(Math.min(s.length(), MAX_NAME + 3));
        for (int i = 0; i < s.length() && i < MAX_NAME; i++) {
            char c = s.charAt(i);
            b.append(Character.isISOControl(c) ? '?' : c);
        }
        return s.length() > MAX_NAME ? b.append("...").toString() : b.toString();
    }

    /**
     * Returns the method of the request the interceptor ran for.
     *
     * @return the method
     */
    public String method() {
        return method;
    }

    /**
     * Returns the interceptor's position in its chain: 1 for the outermost, the first added (for a hosted server's
     * client, the registry's interceptors come first, then those its client customizer added).
     *
     * @return the position, at least 1
     */
    public int position() {
        return position;
    }

    /**
     * Returns the interceptor's name as the message gives it (see the class documentation).
     *
     * @return the name
     */
    public String interceptor() {
        return interceptor;
    }
}
