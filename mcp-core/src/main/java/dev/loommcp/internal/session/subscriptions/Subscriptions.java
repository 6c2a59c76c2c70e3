package dev.loommcp.internal.session.subscriptions;

import dev.loommcp.CancellationToken;
import dev.loommcp.config.Era;
import dev.loommcp.McpCancelledException;
import dev.loommcp.McpClosedException;
import dev.loommcp.McpException;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpTransportException;
import dev.loommcp.McpUnsupportedInEraException;
import dev.loommcp.RequestOptions;
import dev.loommcp.event.Subscription;
import dev.loommcp.event.SubscriptionFilter;
import dev.loommcp.event.SubscriptionListener;
import dev.loommcp.internal.concurrent.UserCode;
import dev.loommcp.internal.json.Ids;
import dev.loommcp.internal.json.JsonSize;
import dev.loommcp.internal.session.base.Deadlines;
import dev.loommcp.internal.session.base.EventLoop;
import dev.loommcp.internal.session.base.Params;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.ServerCapabilities;
import dev.loommcp.Deadline;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import dev.loommcp.Registration;

/**
 * The subscriptions of one session ({@code McpClient.listen}), in both eras.
 *
 * <p><b>Modern era</b> (MCP 2026-07-28 "Subscriptions"): each subscription runs its {@code subscriptions/listen}
 * request on a tracked background thread, with no deadline (its result comes only when the server ends it). The
 * server's {@code notifications/subscriptions/acknowledged} and every notification of the subscription carry
 * {@code _meta["io.modelcontextprotocol/subscriptionId"]} = the listen request's JSON-RPC id, compared as a JSON value
 * ({@link RequestId}); {@link #onNotification} routes them to the subscription's listener through the session's event
 * loop. Closing cancels the listen call's token (the modern call path then aborts the HTTP exchange, or sends
 * {@code notifications/cancelled} on stdio). A result for the listen id, or a server-sent
 * {@code notifications/cancelled} naming it, ends the subscription normally; a transport failure of the call (stream
 * ended, send failed, process restarted) interrupts it: it is re-opened with a new id, with {@link Backoff}.
 *
 * <p><b>Legacy era</b> (2025): each resource URI is subscribed with {@code resources/subscribe} when the server
 * declares {@code resources.subscribe} (shared URIs are counted: {@code resources/unsubscribe} goes out when the last
 * subscription holding it closes); list changes come from the session's notifications, filtered per subscription.
 *
 * <p>Listener calls never run on the transport's thread: they go through the session's event loop (one at a time, in
 * arrival order, bounded), except {@link SubscriptionListener#onEnded} at client close, which runs on the closing
 * thread once every other client thread ended. Whatever a listener throws is logged and the subscription goes on.
 * Thread-safe.
 */
public final class Subscriptions {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");

    /** The {@code _meta} key naming the subscription a notification belongs to. */
    static final String SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
    static final String LISTEN = "subscriptions/listen";
    static final String ACKNOWLEDGED = "notifications/subscriptions/acknowledged";
    /** How long closing waits for a subscription's thread, and the bound of the legacy unsubscribes. */
    static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    /**
     * How a broken modern subscription is re-opened: the first attempt after {@code initial}, each next one after
     * twice the previous delay up to {@code max}, at most {@code attempts} attempts in a row without an
     * acknowledgment; then the subscription ends with the last failure.
     *
     * @param initial  the delay before the first re-open, not negative
     * @param max      the longest delay
     * @param attempts how many re-opens in a row may fail, at least 1
     */
    record Backoff(Duration initial, Duration max, int attempts) {
        /** 0.5 s doubling to 10 s, 5 attempts. */
        static final Backoff DEFAULT = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(10), 5);

        Backoff {
            Objects.requireNonNull(initial, "initial");
            Objects.requireNonNull(max, "max");
            if (initial.isNegative() || max.compareTo(initial) < 0 || attempts < 1) {
                throw new IllegalArgumentException("bad backoff: " + initial + ", " + max + ", " + attempts);
            }
        }

        /** The delay before re-open number {@code n} (0-based). */
        Duration delay(int n) {
            Duration d = initial;
            for (int i = 0; i < n && d.compareTo(max) < 0; i++) {
                d = d.multipliedBy(2);
            }
            return d.compareTo(max) > 0 ? max : d;
        }
    }

    /** What the subscriptions need of the session that owns them (and what their {@link ResourceHolds} need). */
    public interface Host extends ResourceHolds.Host {
        /** The era of the connection, {@code null} before connect. */
        Era era();

        /** Throws {@link IllegalStateException} before connect, {@link McpClosedException} once closed. */
        void ensureConnected(String method);

        /** The server's capabilities (either era), or {@code null} when unknown. */
        ServerCapabilities serverCapabilities();

        /**
         * One request the way the era wants it ({@code Session.call}); {@code onSent} is told its id before it is
         * sent.
         */
        Object call(String method, Map<String, Object> params, RequestOptions options, Consumer<RequestId> onSent)
                throws InterruptedException;

        /** Queues a listener call for the session's event loop. */
        void dispatch(Runnable listenerCall, long bytes);

        /** Runs a task on a tracked background thread, joined on close (not run at all once closed). */
        void startBackground(String purpose, Runnable task);

        /** The client's default request timeout. */
        Duration requestTimeout();
    }

    private final Host host;
    private volatile Backoff backoff = Backoff.DEFAULT;
    /** Every subscription whose {@code onEnded} has not run yet. */
    private final Set<Base> all = ConcurrentHashMap.newKeySet();
    /** The modern listen calls in flight, by id. */
    private final ConcurrentHashMap<RequestId, Attempt> listens = new ConcurrentHashMap<>();
    /** The running legacy subscriptions. */
    private final Set<Legacy> legacy = ConcurrentHashMap.newKeySet();
    /** Legacy resource subscriptions on the server, by URI, counted. */
    private final ResourceHolds holds;

    /** The subscriptions of one session, which they reach through {@code host}. */
    public Subscriptions(Host host) {
        this.host = host;
        this.holds = new ResourceHolds(host, LISTEN, CLOSE_WAIT);
    }

    /** Replaces the re-open policy (tests). */
    void backoff(Backoff backoff) {
        this.backoff = Objects.requireNonNull(backoff, "backoff");
    }

    /** How many subscriptions have not ended yet (tests, diagnostics). */
    int activeCount() {
        return (int) all.stream().filter(Base::isActive).count();
    }

    // ------------------------------------------------------------------------------------------------ open

    /**
     * Opens a subscription: see {@code McpClient.listen}.
     *
     * @param filter   not empty
     * @param listener the listener
     * @param options  deadline and token of opening it
     * @return the running subscription
     * @throws InterruptedException if the calling thread is interrupted
     */
    public Subscription open(SubscriptionFilter filter, SubscriptionListener listener, RequestOptions options)
            throws InterruptedException {
        Objects.requireNonNull(filter, "filter");
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(options, "options");
        host.ensureConnected(LISTEN);
        Deadline deadline = Deadlines.of(options, Deadline.ofNanoTime(System.nanoTime()), host.requestTimeout());
        CancellationToken token = options.token().orElse(null);
        refuseDead(deadline, token);
        return host.era() == Era.MODERN ? openModern(filter, Map.of(), listener, options, deadline, token)
                : openLegacy(filter, listener, options, deadline, token);
    }

    /**
     * Opens a modern subscription to task status notifications (MODERN-ERA.md C.5.9): {@code subscriptions/listen}
     * with {@code notifications.taskIds}; each {@code notifications/tasks} goes to the listener's
     * {@code onNotification}. Otherwise as {@link #open} in the modern era (acknowledgment within the options'
     * deadline, re-opened when the transport breaks).
     *
     * @param taskIds  the tasks, at least one
     * @param listener the listener
     * @param options  deadline and token of opening it
     * @return the running subscription
     * @throws McpUnsupportedInEraException in the legacy era
     * @throws InterruptedException         if the calling thread is interrupted
     */
    public Subscription openTasks(List<String> taskIds, SubscriptionListener listener, RequestOptions options)
            throws InterruptedException {
        Objects.requireNonNull(taskIds, "taskIds");
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(options, "options");
        if (taskIds.isEmpty()) {
            throw new IllegalArgumentException("listenTasks needs at least one task id");
        }
        taskIds.forEach(id -> Objects.requireNonNull(id, "taskIds holds null"));
        host.ensureConnected(LISTEN);
        if (host.era() != Era.MODERN) {
            throw new McpUnsupportedInEraException(LISTEN + " with taskIds", host.era(), "poll the task with "
                    + "tasks/get; a 2025-11-25 server may send notifications/tasks/status on its own");
        }
        Deadline deadline = Deadlines.of(options, Deadline.ofNanoTime(System.nanoTime()), host.requestTimeout());
        CancellationToken token = options.token().orElse(null);
        refuseDead(deadline, token);
        return openModern(SubscriptionFilter.NONE, Map.of("taskIds", List.copyOf(taskIds)), listener, options,
                deadline, token);
    }

    /** Fails an open whose token already fired or whose deadline already passed: nothing is sent. */
    private static void refuseDead(Deadline deadline, CancellationToken token) {
        if (token != null && token.isCancelled()) {
            throw new McpCancelledException(LISTEN + " not sent: the token was already cancelled ("
                    + token.reason().orElse("cancelled") + ")");
        }
        if (deadline.isExpired()) {
            throw new McpTimeoutException(LISTEN + " not sent: its deadline had passed");
        }
    }

    private Subscription openModern(SubscriptionFilter filter, Map<String, Object> extra,
                                    SubscriptionListener listener, RequestOptions options, Deadline deadline,
                                    CancellationToken token) throws InterruptedException {
        Modern sub = new Modern(filter, extra, listener, options.meta());
        all.add(sub);
        if (host.isClosed()) {
            all.remove(sub);
            host.ensureConnected(LISTEN); // throws the closed exception
        }
        host.startBackground("listen", sub::run);
        Registration registration = token == null ? null
                : token.onCancel(() -> sub.firstAck.completeExceptionally(new McpCancelledException(LISTEN
                + " cancelled before it was acknowledged: " + token.reason().orElse("cancelled"))));
        try {
            long left = deadline.remainingNanos();
            SubscriptionFilter ack = left == Long.MAX_VALUE ? sub.firstAck.get()
                    : sub.firstAck.get(left, TimeUnit.NANOSECONDS);
            sub.acknowledged = ack;
            return sub;
        } catch (TimeoutException e) {
            sub.abandon("timeout");
            throw new McpTimeoutException(LISTEN + " was not acknowledged within "
                    + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sub.startNanos) + " ms");
        } catch (InterruptedException e) {
            sub.abandon("interrupted");
            throw e;
        } catch (ExecutionException e) {
            sub.abandon(e.getCause() instanceof McpCancelledException ? "cancelled" : "failed");
            throw rethrow(e.getCause());
        } finally {
            if (registration != null) {
                registration.close();
            }
        }
    }

    private static RuntimeException rethrow(Throwable cause) {
        if (cause instanceof McpClosedException c) {
            return new McpClosedException(LISTEN + " failed: the client was closed", c.getCause());
        }
        if (cause instanceof RuntimeException r) {
            return r;
        }
        if (cause instanceof Error err) {
            throw err;
        }
        return new McpTransportException(LISTEN + " failed: " + cause, cause);
    }

    private Subscription openLegacy(SubscriptionFilter filter, SubscriptionListener listener, RequestOptions options,
                                    Deadline deadline, CancellationToken token) throws InterruptedException {
        ServerCapabilities caps = host.serverCapabilities();
        boolean canSubscribe = caps != null && caps.resources() != null
                && Boolean.TRUE.equals(caps.resources().subscribe());
        List<String> held = new ArrayList<>();
        boolean done = false;
        try {
            if (canSubscribe) {
                for (String uri : filter.resourceSubscriptions()) {
                    if (holds.acquire(uri, options, deadline, token)) {
                        held.add(uri);
                    }
                }
            }
            SubscriptionFilter ack = listChanges(filter, caps, held);
            Legacy sub = new Legacy(filter, listener, ack, held);
            all.add(sub);
            legacy.add(sub);
            if (host.isClosed()) {
                all.remove(sub);
                legacy.remove(sub);
                host.ensureConnected(LISTEN);
            }
            done = true;
            return sub;
        } finally {
            if (!done) {
                holds.release(held);
            }
        }
    }

    private static boolean listChanged(dev.loommcp.schema.ListChangedCapability c) {
        return c != null && Boolean.TRUE.equals(c.listChanged());
    }

    /** The list-change part of a legacy acknowledgment: what the capabilities declare, of what was asked. */
    private static SubscriptionFilter listChanges(SubscriptionFilter filter, ServerCapabilities caps,
                                                  List<String> uris) {
        return new SubscriptionFilter(
                filter.toolsListChanged() && caps != null && listChanged(caps.tools()),
                filter.promptsListChanged() && caps != null && listChanged(caps.prompts()),
                filter.resourcesListChanged() && caps != null && caps.resources() != null
                        && Boolean.TRUE.equals(caps.resources().listChanged()),
                uris);
    }

    /**
     * The legacy server started a new session (its old one expired): the resource subscriptions of the old one are
     * gone. Every running legacy subscription hears {@code onInterrupted}; a background thread subscribes the held
     * URIs again, then each hears {@code onReestablished} with what holds now. Called by the session (its renewal),
     * after the new session's capabilities are in place.
     */
    public void sessionRestarted() {
        if (legacy.isEmpty()) {
            return;
        }
        McpException cause = new dev.loommcp.McpSessionExpiredException("the server's session expired; "
                + "resource subscriptions are re-established in the new one");
        List<Legacy> affected = new ArrayList<>(legacy);
        for (Legacy sub : affected) {
            sub.dispatch(() -> sub.listener.onInterrupted(cause), EventLoop.SMALL_EVENT_BYTES);
        }
        host.startBackground("resubscribe", () -> {
            ServerCapabilities caps = host.serverCapabilities();
            boolean canSubscribe = caps != null && caps.resources() != null
                    && Boolean.TRUE.equals(caps.resources().subscribe());
            Deadline deadline = Deadline.after(host.requestTimeout());
            holds.resubscribeAll(canSubscribe, deadline);
            for (Legacy sub : affected) {
                List<String> held = new ArrayList<>();
                for (String uri : sub.held) {
                    if (holds.isSubscribed(uri)) {
                        held.add(uri);
                    }
                }
                SubscriptionFilter ack = listChanges(sub.requested, caps, held);
                sub.acknowledged = ack;
                sub.dispatch(() -> sub.listener.onReestablished(ack), EventLoop.SMALL_EVENT_BYTES);
            }
        });
    }

    // ------------------------------------------------------------------------------------------------ inbound

    /**
     * Routes a server notification: acknowledgments and notifications naming a running listen (its
     * {@code subscriptionId}) go to that subscription, a {@code notifications/cancelled} naming one ends it; in the
     * legacy era the list changes and resource updates go to every subscription that asked for them. Called on the
     * transport's reader thread; never blocks, never throws.
     *
     * @param n the notification
     */
    public void onNotification(JsonRpcMessage.Notification n) {
        if (all.isEmpty()) {
            return;
        }
        try {
            Map<String, Object> params = n.params();
            if (n.method().equals("notifications/cancelled")) {
                RequestId id = params == null ? null : Ids.exactId(params.get("requestId"));
                Attempt a = id == null ? null : listens.get(id);
                if (a != null) {
                    a.sub.endedByServer(a);
                }
                return;
            }
            Object sid = params != null && params.get("_meta") instanceof Map<?, ?> meta
                    ? meta.get(SUBSCRIPTION_ID) : null;
            if (sid != null) {
                RequestId id = Ids.exactId(sid);
                Attempt a = id == null ? null : listens.get(id);
                if (a == null) {
                    LOG.log(System.Logger.Level.DEBUG, () -> n.method() + " for subscription " + sid
                            + ", which is not running; dropped");
                } else if (n.method().equals(ACKNOWLEDGED)) {
                    a.sub.acknowledge(a, SubscriptionWire.parseFilter(params.get("notifications")));
                } else {
                    a.sub.deliver(a, n);
                }
                return;
            }
            for (Legacy sub : legacy) {
                sub.deliver(n);
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "failed to route a subscription notification", e);
        }
    }

    // ------------------------------------------------------------------------------------------------ close

    /**
     * Ends every subscription because the client closed: calls {@code onEnded} (once each) on this thread. Called by
     * the session once its other threads ended.
     *
     * @param closeCause why the client closed, or {@code null} when the application closed it
     */
    public void clientClosed(Throwable closeCause) {
        for (Base sub : all) {
            McpException cause = closeCause == null || sub.closing.get() ? null
                    : new McpClosedException("the client was closed", closeCause);
            sub.clientClosed(cause);
        }
        listens.clear();
        legacy.clear();
        holds.clear();
    }

    // ------------------------------------------------------------------------------------------------ subscriptions

    /** What both eras share: filter, listener, the once-only end. */
    private abstract class Base implements Subscription {
        final SubscriptionFilter requested;
        final SubscriptionListener listener;
        volatile SubscriptionFilter acknowledged = SubscriptionFilter.NONE;
        /** Set by {@link #close()}, or when the subscription ended on its own. */
        final AtomicBoolean closing = new AtomicBoolean();
        /** Set by {@link #close()}: events still queued are not delivered. */
        volatile boolean silenced;
        /** Set once {@code onEnded} ran (or must never run: an open that failed). */
        final AtomicBoolean endDelivered = new AtomicBoolean();

        Base(SubscriptionFilter requested, SubscriptionListener listener) {
            this.requested = requested;
            this.listener = listener;
        }

        @Override
        public SubscriptionFilter requested() {
            return requested;
        }

        @Override
        public SubscriptionFilter acknowledged() {
            return acknowledged;
        }

        @Override
        public boolean isActive() {
            return !closing.get() && !host.isClosed();
        }

        /** Whether listener events may still run. */
        boolean live() {
            return !silenced && !endDelivered.get();
        }

        /** Queues a listener event of this subscription. */
        void dispatch(Runnable event, long bytes) {
            host.dispatch(() -> {
                if (live()) {
                    event.run();
                }
            }, bytes);
        }

        /** Queues {@code onEnded} behind this subscription's other events; runs once. */
        void ended(McpException cause) {
            closing.set(true);
            host.dispatch(() -> end(cause), EventLoop.SMALL_EVENT_BYTES);
        }

        /** Runs {@code onEnded} unless it already ran. */
        void end(McpException cause) {
            if (endDelivered.compareAndSet(false, true)) {
                all.remove(this);
                UserCode.run(LOG, "a subscription listener", () -> listener.onEnded(cause));
            }
        }

        abstract void clientClosed(McpException cause);
    }

    /** One {@code subscriptions/listen} request of a modern subscription (the first, or a re-open). */
    private static final class Attempt {
        final Modern sub;
        volatile RequestId id;
        volatile boolean acked;

        Attempt(Modern sub) {
            this.sub = sub;
        }
    }

    /** A modern-era subscription: a listen call on its own thread, re-opened when it breaks. */
    private final class Modern extends Base {
        final Map<String, Object> meta;
        /** What the listen asks for beyond the filter ({@code taskIds}). */
        final Map<String, Object> extra;
        final CancellationToken token = CancellationToken.create();
        final CompletableFuture<SubscriptionFilter> firstAck = new CompletableFuture<>();
        final CountDownLatch done = new CountDownLatch(1);
        final CountDownLatch wake = new CountDownLatch(1);
        final long startNanos = System.nanoTime();
        volatile boolean everAcked;
        volatile boolean serverEnded;
        volatile Thread worker;

        Modern(SubscriptionFilter requested, Map<String, Object> extra, SubscriptionListener listener,
               Map<String, Object> meta) {
            super(requested, listener);
            this.meta = meta;
            this.extra = extra;
        }

        /** The subscription's thread: the listen call, and the re-opens after a break. */
        void run() {
            worker = Thread.currentThread();
            try {
                int failedReopens = 0;
                while (true) {
                    Attempt a = new Attempt(this);
                    McpException failure = listenOnce(a);
                    if (failure == null) {
                        return; // ended: normally, by close, or the client closed
                    }
                    if (!everAcked) {
                        firstAck.completeExceptionally(failure); // the open fails with it
                        return;
                    }
                    if (host.isClosed()) {
                        return; // the transport was lost for good: clientClosed ends the subscription
                    }
                    if (a.acked) {
                        failedReopens = 0;
                        dispatch(() -> listener.onInterrupted(failure), EventLoop.SMALL_EVENT_BYTES);
                    } else if (++failedReopens >= backoff.attempts()) {
                        ended(failure);
                        return;
                    }
                    Duration delay = backoff.delay(failedReopens);
                    LOG.log(System.Logger.Level.DEBUG, () -> LISTEN + " to " + host.describe() + " broke ("
                            + failure.getMessage() + "); re-opening in " + delay.toMillis() + " ms");
                    if (wake.await(delay.toNanos(), TimeUnit.NANOSECONDS) || closing.get()) {
                        if (!host.isClosed()) {
                            ended(null); // closed by the caller while waiting
                        }
                        return;
                    }
                }
            } catch (InterruptedException e) {
                // the client is closing (it interrupts its threads): clientClosed ends the subscription
            } catch (RuntimeException | Error e) {
                firstAck.completeExceptionally(e);
                if (everAcked && !host.isClosed()) {
                    UserCode.failed(LOG, "the subscription of " + host.describe(), e);
                    ended(e instanceof McpException m ? m : new McpProtocolException(LISTEN + " failed: " + e));
                }
            } finally {
                done.countDown();
            }
        }

        /**
         * Runs one listen call. Returns the failure that broke it (a transport failure, or any failure before the
         * first acknowledgment), or {@code null} when the subscription is over.
         */
        private McpException listenOnce(Attempt a) throws InterruptedException {
            Map<String, Object> notifications = SubscriptionWire.toWire(requested);
            notifications.putAll(extra);
            Map<String, Object> params = Params.withMeta(Map.of("notifications", notifications), meta);
            RequestOptions callOptions = RequestOptions.newBuilder().timeout(Deadlines.NO_TIMEOUT).token(token).build();
            try {
                host.call(LISTEN, params, callOptions, id -> {
                    RequestId before = a.id; // a corrective resend (-32022) goes out with a new id
                    a.id = id;
                    listens.put(id, a);
                    if (before != null && !before.equals(id)) {
                        listens.remove(before, a);
                    }
                });
                if (!everAcked) {
                    return new McpProtocolException(LISTEN + " (id " + a.id + ") ended without an acknowledgment");
                }
                ended(null); // the server ended it
                return null;
            } catch (McpCancelledException e) {
                if (!everAcked && !serverEnded) {
                    return e; // the open gave up (its own exception wins: the future is already completed)
                }
                ended(null); // closed by the caller, or by the server's notifications/cancelled
                return null;
            } catch (McpClosedException e) {
                firstAck.completeExceptionally(e);
                return null; // clientClosed ends it
            } catch (McpTransportException e) {
                return e;
            } catch (McpException e) {
                if (!everAcked || !a.acked) {
                    return e; // the open fails; or a re-open failed: try again within the backoff
                }
                ended(e); // the server answered the running listen with an error: it is over
                return null;
            } finally {
                RequestId id = a.id;
                if (id != null) {
                    listens.remove(id, a);
                }
            }
        }

        void acknowledge(Attempt a, SubscriptionFilter granted) {
            if (a.acked) {
                return;
            }
            SubscriptionFilter ack = SubscriptionWire.intersect(granted, requested);
            acknowledged = ack;
            a.acked = true;
            if (!everAcked) {
                everAcked = true;
                firstAck.complete(ack);
            } else {
                dispatch(() -> listener.onReestablished(ack), EventLoop.SMALL_EVENT_BYTES);
            }
        }

        void deliver(Attempt a, JsonRpcMessage.Notification n) {
            if (!a.acked) {
                LOG.log(System.Logger.Level.DEBUG, () -> n.method() + " for subscription " + a.id
                        + " before its acknowledgment; dropped");
                return;
            }
            dispatch(() -> SubscriptionWire.deliverTo(listener, n), JsonSize.ofMessage(n.method(), n.params()));
        }

        void endedByServer(Attempt a) {
            LOG.log(System.Logger.Level.DEBUG, () -> "server " + host.describe() + " cancelled " + LISTEN
                    + " (id " + a.id + ")");
            serverEnded = true;
            closing.set(true);
            if (!everAcked) {
                firstAck.completeExceptionally(new McpCancelledException(LISTEN + " (id " + a.id
                        + ") was cancelled by the server before it was acknowledged"));
            }
            token.cancel("cancelled by the server");
        }

        /** The open failed: end the listen; the listener hears nothing. */
        void abandon(String reason) {
            endDelivered.set(true);
            all.remove(this);
            stop(reason);
        }

        @Override
        public void close() {
            stop("subscription closed");
        }

        private void stop(String reason) {
            silenced = true;
            closing.set(true);
            token.cancel(reason == null ? "cancelled" : reason);
            wake.countDown();
            if (worker == null || Thread.currentThread() == worker) {
                return; // not started (yet): with the token cancelled it ends at once, and the session joins it
            }
            try {
                if (!done.await(CLOSE_WAIT.toNanos(), TimeUnit.NANOSECONDS) && worker != null) {
                    LOG.log(System.Logger.Level.WARNING, () -> "the subscription of " + host.describe()
                            + " did not end within " + CLOSE_WAIT.toMillis() + " ms of close()");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        void clientClosed(McpException cause) {
            wake.countDown();
            firstAck.completeExceptionally(new McpClosedException("the client was closed", null));
            end(cause);
        }

        @Override
        public String toString() {
            return "Subscription[" + LISTEN + ", " + (isActive() ? "active" : "ended") + "]";
        }
    }

    /** A legacy-era subscription: resource holds and a filter over the session's notifications. */
    private final class Legacy extends Base {
        /** The URIs this subscription holds a count on (released on close). */
        final List<String> held;

        Legacy(SubscriptionFilter requested, SubscriptionListener listener, SubscriptionFilter acknowledged,
               List<String> held) {
            super(requested, listener);
            this.acknowledged = acknowledged;
            this.held = List.copyOf(held);
        }

        void deliver(JsonRpcMessage.Notification n) {
            boolean wanted = switch (n.method()) {
                case "notifications/tools/list_changed" -> requested.toolsListChanged();
                case "notifications/prompts/list_changed" -> requested.promptsListChanged();
                case "notifications/resources/list_changed" -> requested.resourcesListChanged();
                case "notifications/resources/updated" -> n.params() != null
                        && n.params().get("uri") instanceof String uri
                        && acknowledged.resourceSubscriptions().contains(uri);
                default -> false;
            };
            if (wanted) {
                dispatch(() -> SubscriptionWire.deliverTo(listener, n), JsonSize.ofMessage(n.method(), n.params()));
            }
        }

        @Override
        public void close() {
            silenced = true;
            if (!closing.compareAndSet(false, true)) {
                return;
            }
            legacy.remove(this);
            holds.release(held);
            ended(null);
        }

        @Override
        void clientClosed(McpException cause) {
            closing.set(true);
            end(cause);
        }

        @Override
        public String toString() {
            return "Subscription[legacy, " + (isActive() ? "active" : "ended") + "]";
        }
    }
}
