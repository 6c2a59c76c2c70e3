package dev.loommcp.internal.scope;

/**
 * An attachment told first when its scope is cancelled, without a registration of its own (a request's scope
 * opens per call: its cancel hook costs no allocation). Must not block.
 */
public interface CancelAware {
    /**
     * The scope this is attached to was cancelled.
     *
     * @param scope the scope
     */
    void scopeCancelled(Scope<?, ?> scope);
}
