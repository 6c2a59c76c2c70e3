package dev.loommcp.internal.session;

import dev.loommcp.CancellationToken;
import dev.loommcp.McpClosedException;
import dev.loommcp.RequestOptions;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import dev.loommcp.Registration;

/** The asynchronous form of a client's call: the call on a client thread, behind a cancellable future. */
final class AsyncCalls {

    private AsyncCalls() {
    }

    /**
     * Runs a call on a new virtual thread of the session; the future's {@code cancel} fires the call's token (so the
     * request is cancelled on the wire), and the caller's own token, if any, is linked to it for as long as the call
     * runs.
     *
     * @param life    the client's life: its threads, whether it closed
     * @param options the caller's options
     * @param call    the call
     * @param <T>     the result type
     * @return the future
     */
    static <T> CompletableFuture<T> start(ClientLife life, RequestOptions options, AsyncCall<T> call) {
        Objects.requireNonNull(options, "options (use RequestOptions.DEFAULT)");
        CancellationToken token = CancellationToken.create();
        CancellationToken outer = options.token().orElse(null);
        Registration link = outer == null ? null
                : outer.onCancel(() -> token.cancel(outer.reason().orElse("cancelled")));
        CancellableFuture<T> future = new CancellableFuture<>(token);
        if (link != null) {
            // however the future ends (result, failure, cancel, a closed client that never ran the task), the
            // caller's token keeps nothing of this call
            future.whenComplete((r, e) -> link.close());
        }
        try {
            RequestOptions withToken = options.toBuilder().token(token).build();
            life.startBackground("async", () -> {
                try {
                    future.complete(call.run(withToken));
                } catch (InterruptedException e) {
                    // close() or a lost transport interrupts the async threads: the caller learns that, not an
                    // interrupt of a thread it never owned
                    future.completeExceptionally(life.isClosed() ? new McpClosedException("the client was closed "
                            + "during the call", life.closeCause()) : e);
                } catch (Throwable e) {
                    future.completeExceptionally(e);
                }
            });
        } catch (RuntimeException | Error e) {
            future.completeExceptionally(e); // the thread could not be started
        }
        if (life.isClosed() && !future.isDone()) {
            future.completeExceptionally(life.closedException("async call"));
        }
        return future;
    }
}
