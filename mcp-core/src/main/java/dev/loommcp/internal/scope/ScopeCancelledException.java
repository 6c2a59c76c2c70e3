package dev.loommcp.internal.scope;

/**
 * {@link Scope#join} ended because the scope was cancelled by something other than its joiner ({@link Scope#cancel},
 * its parent, a close out of order), before every fork had ended.
 */
public final class ScopeCancelledException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ScopeCancelledException(String message) {
        super(message);
    }
}
