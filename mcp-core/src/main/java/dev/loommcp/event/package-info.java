/**
 * What a client tells the application while it runs, and the registrations that deliver it: the
 * {@link dev.loommcp.event.McpClientListener} of what the server sends unasked (set on
 * {@link dev.loommcp.McpClient.Builder#listener}), the {@link dev.loommcp.event.McpEventListener} that observes each
 * request for metrics, the per-call {@link dev.loommcp.event.ProgressListener}, and the modern era's server
 * subscriptions ({@link dev.loommcp.event.Subscription} from {@link dev.loommcp.McpClient#listen}, filtered by a
 * {@link dev.loommcp.event.SubscriptionFilter}, delivered to a {@link dev.loommcp.event.SubscriptionListener}).
 *
 * <p>Listener methods have empty defaults: implement the ones you need. A listener runs on the client's event thread
 * (a progress listener on the calling thread), one at a time and under no lock of the client; whatever it throws is
 * logged and ignored. See {@link dev.loommcp.McpClient} for the bounds of what may wait for a listener.
 */
package dev.loommcp.event;
