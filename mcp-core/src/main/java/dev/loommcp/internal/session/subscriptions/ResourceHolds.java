package dev.loommcp.internal.session.subscriptions;

import dev.loommcp.CancellationToken;
import dev.loommcp.McpRpcException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.RequestOptions;
import dev.loommcp.internal.session.base.Deadlines;
import dev.loommcp.Deadline;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The legacy-era (2025) resource subscriptions of one session on the server, counted by URI: the first hold on a URI
 * sends {@code resources/subscribe}, the release of the last one sends {@code resources/unsubscribe}; after the
 * server started a new session the held URIs are subscribed again. Part of {@link Subscriptions}. Thread-safe: each
 * URI's requests run under that URI's lock.
 */
final class ResourceHolds {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");

    /** What the holds need of the session: its legacy requests, whether it closed, the server's name. */
    interface Host {
        /** One legacy request with {@code options.meta()} merged; returns the result object. */
        Map<String, Object> request(String method, Map<String, Object> params, RequestOptions options)
                throws InterruptedException;

        /** Whether the session is closed. */
        boolean isClosed();

        /** The server, for logs. */
        String describe();
    }

    private final Host host;
    /** The operation the holds serve, first in their messages ({@code subscriptions/listen}). */
    private final String listen;
    /** The bound of the unsubscribes at release. */
    private final Duration closeWait;
    /** Legacy resource subscriptions on the server, by URI, counted. */
    private final ConcurrentHashMap<String, UriEntry> uris = new ConcurrentHashMap<>();

    /**
     * @param listen    the operation the holds serve, first in their messages
     * @param closeWait the bound of the unsubscribes at release
     */
    ResourceHolds(Host host, String listen, Duration closeWait) {
        this.host = host;
        this.listen = listen;
        this.closeWait = closeWait;
    }

    /** One URI subscribed on a legacy server, shared by the subscriptions that hold it. */
    private static final class UriEntry {
        final ReentrantLock lock = new ReentrantLock();
        int holders;
        boolean subscribed;
        boolean removed;
    }

    /**
     * Takes a hold on {@code uri}, subscribing it on the server when nobody holds it yet. Returns {@code false} when
     * the server refused it with a JSON-RPC error; throws when opening must stop (deadline, token, interrupt, a lost
     * transport).
     */
    boolean acquire(String uri, RequestOptions options, Deadline deadline, CancellationToken token)
            throws InterruptedException {
        while (true) {
            UriEntry e = uris.computeIfAbsent(uri, u -> new UriEntry());
            long left = deadline.remainingNanos();
            if (left <= 0 || !e.lock.tryLock(left, TimeUnit.NANOSECONDS)) {
                throw new McpTimeoutException(listen
                        + ": resources/subscribe for a resource did not complete in time");
            }
            try {
                if (e.removed) {
                    continue; // the last holder released it meanwhile: take a fresh entry
                }
                if (!e.subscribed) {
                    try {
                        host.request("resources/subscribe", Map.of("uri", uri), within(options, deadline, token));
                    } catch (McpRpcException refused) {
                        LOG.log(System.Logger.Level.DEBUG, () -> "server " + host.describe()
                                + " refused resources/subscribe: " + refused.getMessage());
                        if (e.holders == 0) {
                            e.removed = true;
                            uris.remove(uri, e);
                        }
                        return false;
                    }
                    e.subscribed = true;
                }
                e.holders++;
                return true;
            } finally {
                e.lock.unlock();
            }
        }
    }

    /** Drops holds; a URI nobody holds any more is unsubscribed (bounded; failures logged). */
    void release(List<String> held) {
        if (held.isEmpty()) {
            return;
        }
        Deadline deadline = Deadline.after(closeWait);
        for (String uri : held) {
            UriEntry e = uris.get(uri);
            if (e == null) {
                continue;
            }
            e.lock.lock();
            try {
                if (--e.holders > 0) {
                    continue;
                }
                e.removed = true;
                uris.remove(uri, e);
                if (!e.subscribed || host.isClosed() || deadline.isExpired()) {
                    continue;
                }
                try {
                    host.request("resources/unsubscribe", Map.of("uri", uri),
                            RequestOptions.ofTimeout(deadline.remaining()));
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (RuntimeException failure) {
                    LOG.log(System.Logger.Level.DEBUG, () -> "resources/unsubscribe failed: " + failure);
                }
            } finally {
                e.lock.unlock();
            }
        }
    }

    private RequestOptions within(RequestOptions options, Deadline deadline, CancellationToken token) {
        Duration left = deadline.remaining();
        if (left.isZero()) {
            throw new McpTimeoutException(listen + ": no time left to subscribe the resources");
        }
        RequestOptions.Builder b = RequestOptions.newBuilder()
                .timeout(deadline.isNone() ? Deadlines.NO_TIMEOUT : left).meta(options.meta());
        return (token == null ? b : b.token(token)).build();
    }

    /** Whether {@code uri} is held and subscribed on the server now. */
    boolean isSubscribed(String uri) {
        UriEntry e = uris.get(uri);
        return e != null && e.subscribed;
    }

    /**
     * Subscribes every held URI again in the server's new session (its old one expired), one at a time within
     * {@code deadline}; a URI that cannot be subscribed is left unsubscribed (failures logged).
     *
     * @param canSubscribe whether the new session's capabilities declare {@code resources.subscribe}
     * @param deadline     the bound of all the requests
     */
    void resubscribeAll(boolean canSubscribe, Deadline deadline) {
        for (Map.Entry<String, UriEntry> entry : uris.entrySet()) {
            resubscribe(entry.getKey(), entry.getValue(), canSubscribe, deadline);
        }
    }

    private void resubscribe(String uri, UriEntry e, boolean canSubscribe, Deadline deadline) {
        e.lock.lock();
        try {
            if (e.removed || e.holders == 0) {
                return;
            }
            e.subscribed = false;
            if (!canSubscribe || host.isClosed() || deadline.isExpired()) {
                return;
            }
            host.request("resources/subscribe", Map.of("uri", uri), RequestOptions.ofTimeout(deadline.remaining()));
            e.subscribed = true;
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException failure) {
            LOG.log(System.Logger.Level.DEBUG, () -> "resources/subscribe in the new session failed: " + failure);
        } finally {
            e.lock.unlock();
        }
    }

    /** Forgets every hold (the client closed: nothing is sent). */
    void clear() {
        uris.clear();
    }
}
