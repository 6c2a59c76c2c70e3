package dev.loommcp.internal.session;

import dev.loommcp.CancellationToken;
import dev.loommcp.McpInputRequiredException;
import dev.loommcp.spi.Deadline;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Placeholder of the era branch for the mrtr helper's multi round-trip loop (MCP 2026-07-28 "Multi Round-Trip
 * Requests"), with exactly the contract's signature: it completes nothing and fails every {@code input_required}
 * result. The mrtr branch's class replaces this file at merge.
 */
final class InputRounds {

    /** Sends one new request of a multi round-trip exchange and returns its result object. */
    @FunctionalInterface
    interface Resend {
        /**
         * @param params the retry's params (the original ones plus {@code inputResponses} / {@code requestState})
         * @return the result object, {@code resultType} not yet interpreted
         * @throws InterruptedException if the calling thread is interrupted
         */
        Map<String, Object> send(Map<String, Object> params) throws InterruptedException;
    }

    private final Supplier<String> describe;

    InputRounds(ClientHandlers handlers, int maxRounds, Supplier<String> describe) {
        this.describe = describe;
    }

    /**
     * Completes an {@code input_required} result; the placeholder always fails.
     *
     * @throws McpInputRequiredException always
     */
    Map<String, Object> complete(String method, Map<String, Object> originalParams, Map<String, Object> inputRequired,
                                 Resend resend, Deadline deadline, CancellationToken token)
            throws InterruptedException {
        throw new McpInputRequiredException("server " + describe.get() + " asked for input on " + method
                + ", which this build cannot provide yet", null);
    }
}
