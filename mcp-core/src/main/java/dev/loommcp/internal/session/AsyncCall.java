package dev.loommcp.internal.session;

import dev.loommcp.RequestOptions;

/**
 * A call that {@link Session#async} runs on a client thread of its own ({@link AsyncCalls#start}).
 *
 * @param <T> the result type
 */
@FunctionalInterface
public interface AsyncCall<T> {
    /**
     * Runs the call.
     *
     * @param options the caller's options with the future's token in place of the caller's
     * @return the result
     * @throws Exception whatever the call throws; it fails the future
     */
    T run(RequestOptions options) throws Exception;
}
