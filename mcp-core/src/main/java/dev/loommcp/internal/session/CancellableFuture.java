package dev.loommcp.internal.session;

import dev.loommcp.CancellationToken;
import java.util.concurrent.CompletableFuture;

/** A future whose {@code cancel} fires the call's token, which cancels the request on the wire. */
final class CancellableFuture<T> extends CompletableFuture<T> {
    private final CancellationToken token;

    CancellableFuture(CancellationToken token) {
        this.token = token;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean done = super.cancel(mayInterruptIfRunning);
        token.cancel("cancelled through its future");
        return done;
    }
}
