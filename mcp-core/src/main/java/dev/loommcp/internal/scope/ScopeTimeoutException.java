package dev.loommcp.internal.scope;

/** {@link Scope#join} waited past the scope's deadline; the scope was cancelled. */
public final class ScopeTimeoutException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ScopeTimeoutException(String message) {
        super(message);
    }
}
