package dev.loommcp.internal.scope;

/**
 * {@link Scope#join}'s failure: the cause is the failed subtask's exception (or the joiner's). Its message is the
 * cause's class name only (no payload text reaches a log through it).
 */
public final class ScopeFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ScopeFailedException(Throwable cause) {
        super(cause == null ? "no subtask succeeded" : cause.getClass().getName(), cause);
    }
}
