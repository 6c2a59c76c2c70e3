package dev.loommcp.event;

import dev.loommcp.McpClient;
import dev.loommcp.Registration;

/**
 * A running subscription opened by {@code McpClient.listen} (MCP 2026-07-28 "Subscriptions"; in the legacy era
 * {@code resources/subscribe} and the session's list-change notifications). Close it to end it: in the modern era
 * over HTTP that closes the {@code subscriptions/listen} response stream, over stdio it sends
 * {@code notifications/cancelled} for the listen request; in the legacy era it unsubscribes the resources.
 *
 * <p>Thread-safe. A subscription is a {@link Registration}: its {@link #close()} is idempotent and throws nothing.
 */
public interface Subscription extends Registration {

    /**
     * Returns what was asked for.
     *
     * @return the requested filter
     */
    SubscriptionFilter requested();

    /**
     * Returns what the server acknowledged (modern: {@code notifications/subscriptions/acknowledged}; legacy: what
     * its capabilities allow). It is a subset of {@link #requested()} and may change when the stream is
     * re-established.
     *
     * @return the acknowledged filter
     */
    SubscriptionFilter acknowledged();

    /**
     * Returns what was asked for and not acknowledged, for example prompt list changes from a server without
     * prompts.
     *
     * @return {@code requested().minus(acknowledged())}
     */
    default SubscriptionFilter refused() {
        return requested().minus(acknowledged());
    }

    /**
     * Returns whether the subscription still runs (it may be re-establishing a broken stream).
     *
     * @return {@code false} once it ended
     */
    boolean isActive();

    /**
     * Ends the subscription; the listener then hears {@link SubscriptionListener#onEnded} with {@code null} (unless
     * it ended before). Modern era: cancels the listen request and waits up to 5 seconds for it to end. Legacy era:
     * {@code resources/unsubscribe} for each URI no other subscription holds, within 5 seconds in all (failures are
     * logged at {@code DEBUG}, not thrown). Idempotent; safe from any thread, a listener included; never throws.
     */
    @Override
    void close();
}
