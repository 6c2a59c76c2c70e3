package dev.loommcp.testing;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A blocking call run on its own (test) virtual thread, so that the test thread can act while it waits: interrupt
 * it, close the client under it, answer its request. The thread is not an {@code mcp-} thread.
 *
 * @param <T> the call's result type
 */
public final class BackgroundCall<T> {

    private final CompletableFuture<T> outcome = new CompletableFuture<>();
    private final Thread thread;

    private BackgroundCall(String name, Callable<T> call) {
        this.thread = Thread.ofVirtual().name("test-" + name).unstarted(() -> {
            try {
                outcome.complete(call.call());
            } catch (Throwable t) {
                outcome.completeExceptionally(t);
            }
        });
    }

    /**
     * Starts the call.
     *
     * @param name a name for the thread ({@code test-<name>})
     * @param call the call
     * @param <T>  the result type
     * @return the running call
     */
    public static <T> BackgroundCall<T> start(String name, Callable<T> call) {
        BackgroundCall<T> c = new BackgroundCall<>(name, call);
        c.thread.start();
        return c;
    }

    /**
     * Returns the thread running the call.
     *
     * @return the thread
     */
    public Thread thread() {
        return thread;
    }

    /**
     * Returns whether the call has ended.
     *
     * @return whether it returned or threw
     */
    public boolean isDone() {
        return outcome.isDone();
    }

    /**
     * Waits (at most {@link Await#DEFAULT}) for the call to return and returns its value.
     *
     * @return the value
     * @throws AssertionError if it threw (with the exception as cause) or did not end in time
     */
    public T result() {
        try {
            return outcome.get(Await.DEFAULT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("the call threw " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("the call did not end within " + Await.DEFAULT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /**
     * Waits (at most {@link Await#DEFAULT}) for the call to throw and returns what it threw.
     *
     * @return the exception
     * @throws AssertionError if it returned normally or did not end in time
     */
    public Throwable failure() {
        try {
            T value = outcome.get(Await.DEFAULT.toMillis(), TimeUnit.MILLISECONDS);
            throw new AssertionError("the call returned " + value + " instead of throwing");
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (TimeoutException e) {
            throw new AssertionError("the call did not end within " + Await.DEFAULT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
