package dev.loommcp;

import dev.loommcp.internal.concurrent.UserCode;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * A cancellation signal that a caller passes to one or more calls through {@link RequestOptions#token()}. When it
 * fires, every call that holds it stops waiting, removes its pending request, sends {@code notifications/cancelled}
 * where the protocol calls for it, and throws {@link McpCancelledException}.
 *
 * <p>A token fires once and stays fired. It is thread-safe: {@link #cancel()} may be called from any thread, any
 * number of times. Listeners registered with {@link #onCancel(Runnable)} run exactly once, on the thread that
 * cancels (or at once on the registering thread if the token has already fired); they should be short and must not
 * block.
 */
public final class CancellationToken {

    private static final System.Logger LOG = System.getLogger(CancellationToken.class.getName());

    private final AtomicReference<String> reason = new AtomicReference<>();
    private final ConcurrentHashMap<Long, Runnable> listeners = new ConcurrentHashMap<>();
    private final AtomicLong nextKey = new AtomicLong();

    private CancellationToken() {
    }

    /**
     * Returns a new token that has not fired.
     *
     * @return the token
     */
    public static CancellationToken create() {
        return new CancellationToken();
    }

    /**
     * Fires the token with the reason "cancelled". Does nothing if it has already fired.
     */
    public void cancel() {
        cancel("cancelled");
    }

    /**
     * Fires the token. Does nothing if it has already fired. The reason is sent to the server as the {@code reason}
     * of {@code notifications/cancelled} and appears in the exception message, so it must not hold secrets.
     *
     * <p>The listeners run on this thread before it returns; when several threads cancel at once, only the first
     * one runs them (the others return at once). A listener that throws does not stop the others, and its failure
     * is logged at {@code WARNING} (class and stack trace, not the message); the first {@link Error} is also
     * rethrown once all have run, to this caller only (loom-mcp itself never cancels a token it did not create).
     *
     * @param why a short reason; {@code null} means "cancelled"
     */
    public void cancel(@Nullable String why) {
        if (!reason.compareAndSet(null, why == null ? "cancelled" : why)) {
            return;
        }
        Error error = null;
        for (Long key : listeners.keySet()) {
            Runnable r = listeners.remove(key);
            if (r != null) {
                try {
                    runQuietly(r);
                } catch (Error e) {
                    if (error == null) {
                        error = e;
                    }
                }
            }
        }
        if (error != null) {
            throw error;
        }
    }

    /**
     * Returns whether the token has fired.
     *
     * @return {@code true} once {@link #cancel()} was called
     */
    public boolean isCancelled() {
        return reason.get() != null;
    }

    /**
     * Returns the reason given to {@link #cancel(String)}.
     *
     * @return the reason; empty if the token has not fired
     */
    public java.util.Optional<String> reason() {
        return java.util.Optional.ofNullable(reason.get());
    }

    /**
     * Registers an action to run when the token fires. If it has already fired, the action runs at once on this
     * thread. A {@link RuntimeException} thrown by the action is logged at {@code WARNING} (class and stack trace, not
     * the message) and otherwise ignored; an {@link Error} is logged and reaches the thread that runs the action
     * (see {@link #cancel(String)}).
     *
     * @param action the action, not {@code null}
     * @return a registration whose {@code close()} removes the action if it has not run yet
     * @throws NullPointerException if {@code action} is {@code null}
     */
    public Registration onCancel(Runnable action) {
        Objects.requireNonNull(action, "action");
        if (isCancelled()) {
            runQuietly(action);
            return () -> { };
        }
        long key = nextKey.incrementAndGet();
        listeners.put(key, action);
        if (isCancelled()) {
            Runnable r = listeners.remove(key);
            if (r != null) {
                runQuietly(r);
            }
        }
        return () -> listeners.remove(key);
    }

    private static void runQuietly(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException | Error e) {
            UserCode.failed(LOG, "a cancel action of a CancellationToken", e);
            if (e instanceof Error error) {
                throw error; // to the thread that fired or registered; cancel() runs the others first
            }
        }
    }

    /** The number of registered actions that have neither run nor been removed: for tests. */
    int registrationCount() {
        return listeners.size();
    }

    @Override
    public String toString() {
        String r = reason.get();
        return r == null ? "CancellationToken[active]" : "CancellationToken[cancelled: " + r + "]";
    }
}
