package dev.loommcp.internal.session;

import dev.loommcp.CancellationToken;
import dev.loommcp.Deadline;
import dev.loommcp.internal.scope.Scope;
import java.util.Map;

/**
 * The seam between a logical request (one call of a caller with its retries and input rounds) and the wire: the wire
 * path of the era ({@code LegacyWire}, {@code ModernRequests}) hands each request, once its scope is open and a
 * cached answer ruled out, to the client's guard (a client without a policy has none: its requests go straight
 * on, no frame added), which asks its policies before each attempt goes out (and may make
 * the caller wait, or refuse), runs the attempt, tells the policies its outcome, and may run it again. A request that
 * is never sent (answered from the cache, or by an interceptor above the engine) never reaches it.
 *
 * <p>Implementations are thread-safe: every request of a client goes through the one guard.
 */
@FunctionalInterface
interface CallGuard {

    /**
     * Runs one logical request under the guard: the policies' checks and waits, the attempt, its outcome, and the
     * retries the policy allows, all within {@code request.deadline()}, on the calling thread.
     *
     * @param request what the request is and its bounds
     * @param attempt sends the request once (a retry calls it again)
     * @return the result of the attempt that succeeded
     * @throws InterruptedException if the calling thread is interrupted while it waits or in an attempt
     */
    Object call(Request request, Attempt attempt) throws InterruptedException;

    /**
     * One logical request as the guard sees it.
     *
     * @param method   the JSON-RPC method
     * @param params   its params as the caller built them, or {@code null}
     * @param deadline the call's deadline (what is left of it bounds every wait and attempt)
     * @param token    the call's token, or {@code null}
     * @param scope    the request's scope: its end (an outer scope that ended, the client's close) ends any wait
     */
    record Request(String method, Map<String, Object> params, Deadline deadline, CancellationToken token,
                   Scope<?, ?> scope) {
    }

    /** One attempt of a request. */
    @FunctionalInterface
    interface Attempt {
        /**
         * Sends the request once and returns its result.
         *
         * @param control lets the attempt say it must not be repeated
         * @throws InterruptedException if the calling thread is interrupted
         */
        Object send(Control control) throws InterruptedException;
    }

    /** What an attempt tells its guard while it runs. */
    interface Control {
        /** A control that ignores what it is told (the request runs once). */
        Control ONCE = () -> { };

        /**
         * Says that the attempt went past a point from which it must not be repeated (the modern era's input rounds:
         * the user's handlers were asked); a failure after this is not retried.
         */
        void noRetry();
    }
}
