package dev.loommcp.internal.session.base;

/** Completes a pending request when the caller's token fires. */
public final class CancelSignal extends RuntimeException {
    /** Why the token fired. */
    public final String reason;

    /** A signal carrying the token's reason. */
    public CancelSignal(String reason) {
        super(reason, null, false, false);
        this.reason = reason;
    }
}
