package dev.loommcp.internal.session;

import dev.loommcp.jsonrpc.JsonRpcMessage;
import java.util.concurrent.CompletableFuture;

/** One request waiting for its response. */
final class PendingCall {
    final long id;
    final String method;
    final long startNanos;
    final CompletableFuture<JsonRpcMessage> future = new CompletableFuture<>();
    volatile long lastProgressNanos;
    /** Set with the listener: carries the call's progress to the calling thread. */
    volatile ProgressRelay relay;
    /** Answered with an id such as {@code "7"}: the transport did not recognize the answer as this request's. */
    volatile boolean looselyMatched;

    PendingCall(long id, String method, long startNanos) {
        this.id = id;
        this.method = method;
        this.startNanos = startNanos;
        this.lastProgressNanos = startNanos;
    }

    /** Completes a pending request when the caller's token fires. */
    static final class CancelSignal extends RuntimeException {
        final String reason;

        CancelSignal(String reason) {
            super(reason, null, false, false);
            this.reason = reason;
        }
    }
}
