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
 *
 * <h2>Nullness</h2>
 * This package is {@link org.jspecify.annotations.NullMarked @NullMarked}: a type in a signature excludes
 * {@code null} unless it is written {@link org.jspecify.annotations.Nullable @Nullable}. One rule for records and
 * accessors in every loom-mcp package: a record component that may be absent (a JSON member a peer may leave out, a
 * setting not given) is a {@code @Nullable} component, never an {@code Optional}; a method that looks something up,
 * or reads an option or a state that may be unset, returns {@link java.util.Optional}; a collection is empty, never
 * {@code null}, unless it mirrors a JSON member that may be absent; a map of free-form JSON is
 * {@code Map<String, @Nullable Object>}, since JSON {@code null} is a value. A parameter is {@code @Nullable} only
 * where {@code null} means "none" or "the default", as its documentation says.
 */
@NullMarked
package dev.loommcp.event;

import org.jspecify.annotations.NullMarked;
