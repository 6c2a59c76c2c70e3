package dev.loommcp.internal.session.inbound;

import dev.loommcp.internal.scope.ScopeThreads;
import dev.loommcp.event.McpClientListener;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpVetoedException;
import dev.loommcp.McpInterceptorException;
import dev.loommcp.internal.concurrent.BoundedQueue;
import dev.loommcp.internal.concurrent.McpThreads;
import dev.loommcp.internal.concurrent.UserCode;
import dev.loommcp.internal.json.Ids;
import dev.loommcp.internal.json.Json;
import dev.loommcp.internal.json.JsonSize;
import dev.loommcp.internal.session.base.CallContext;
import dev.loommcp.internal.session.base.EventLoop;
import dev.loommcp.internal.session.config.SessionConfig;
import dev.loommcp.internal.session.subscriptions.Subscriptions;
import dev.loommcp.internal.session.tools.ToolCatalog;
import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.LoggingMessageNotification;
import dev.loommcp.spi.McpTransport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the server sends on its own: notifications (to the listeners through the session's event loop, to the drain
 * queue, to the tool catalog) and server requests ({@code ping} answered at once; {@code roots/list},
 * {@code sampling/createMessage}, {@code elicitation/create} and unknown methods each on a handler thread, at most
 * {@code maxConcurrentServerRequests} at once, beyond which they are refused with {@code -32603}; the answer itself
 * comes from {@link ClientHandlers}, which the 2026 era's {@code InputRounds} use too). It reaches the session only
 * through {@link Host}. Thread-safe: the transport's reader calls in, handlers run on their own threads.
 */
public final class InboundDispatcher {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");

    /** What the dispatcher needs of the session that owns it. */
    public interface Host {
        /** Whether the session is closed. */
        boolean isClosed();

        /** Queues a listener call for the event loop, counting {@code bytes} against its budget. */
        void dispatch(Runnable listenerCall, long bytes);

        /**
         * Starts a server request's handler: in the scope of the client's request it belongs to when the delivering
         * thread works for one (a 2025 server request on the request's own POST stream), else in the client's own
         * scope; {@code null} when the client has closed (nothing runs).
         */
        Thread fork(String purpose, Runnable task);

        /** Routes {@code notifications/progress} to the call it belongs to. */
        void onProgress(JsonRpcMessage.Notification progress);

        /** The default deadline for an answer sent now. */
        dev.loommcp.Deadline defaultDeadline();
    }

    private final SessionConfig config;
    private final McpTransport transport;
    private final Host host;
    private final ToolCatalog tools;
    /** Computes the answers; shared with the modern era's input rounds. */
    private final ClientHandlers handlers;
    private final Subscriptions subscriptions;
    /** One per running server-request handler: a server cannot park more than the bound. */
    private final Semaphore handlerPermits;
    /** The server requests refused at the bound of concurrent handlers, reported so that every one is counted. */
    private final BurstCount refusedServerRequests;
    /** The running handlers by request id, for the server's {@code notifications/cancelled}: an index, not owner. */
    private final ConcurrentHashMap<RequestId, Running> inboundHandlers = new ConcurrentHashMap<>();
    private final Set<RequestId> cancelledInbound = ConcurrentHashMap.newKeySet();
    private final AtomicLong droppedNotifications = new AtomicLong();
    /** {@code null} unless the application asked to keep notifications for draining. */
    private final BoundedQueue<JsonRpcMessage.Notification> drainQueue;

    /** A dispatcher with handlers of its own, made from {@code config}. */
    public InboundDispatcher(SessionConfig config, Host host, ToolCatalog tools, Subscriptions subscriptions) {
        this(config, host, tools, subscriptions, new ClientHandlers(config));
    }

    /** As the four-argument constructor, with the handlers the session shares with its input rounds. */
    public InboundDispatcher(SessionConfig config, Host host, ToolCatalog tools, Subscriptions subscriptions,
                             ClientHandlers handlers) {
        this.subscriptions = subscriptions;
        this.config = config;
        this.handlers = handlers;
        this.transport = config.transport();
        this.host = host;
        this.tools = tools;
        this.handlerPermits = new Semaphore(config.maxConcurrentServerRequests());
        this.drainQueue = config.keepNotifications() ? new BoundedQueue<>(config.notificationQueueCapacity(),
                config.notificationQueueBytes(), droppedNotifications) : null;
        McpTransport server = transport;
        int max = config.maxConcurrentServerRequests();
        this.refusedServerRequests = new BurstCount((added, total) -> LOG.log(System.Logger.Level.WARNING,
                () -> "server " + server.describe() + " had more than " + max + " requests to this client running "
                        + "at once; refused " + added + " with an error (" + total + " in all)"));
    }

    /** Takes the notifications kept in the drain queue (none when the client keeps none). */
    public List<JsonRpcMessage.Notification> drainNotifications() {
        return drainQueue == null ? List.of() : drainQueue.drain();
    }

    /** How many notifications the full drain queue dropped. */
    public long droppedNotificationCount() {
        return droppedNotifications.get();
    }

    /**
     * One running handler: the thread once it runs, and whether the server cancelled it meanwhile (a cancel that
     * comes before the thread runs is seen by the thread as it starts: each side writes its field, then reads the
     * other's).
     */
    private static final class Running {
        volatile Thread thread;
        volatile boolean cancelled;

        void cancel() {
            cancelled = true;
            Thread t = thread;
            if (t != null) {
                t.interrupt();
            }
        }

        void started() {
            thread = Thread.currentThread();
            if (cancelled) {
                thread.interrupt();
            }
        }
    }

    /** The server's session was renewed: the tool catalog is stale, subscriptions renew, the listener hears it. */
    public void onSessionRestarted() {
        tools.markStale(); // the new session may list other tools: no check against the old definitions
        subscriptions.sessionRestarted(); // its resource subscriptions are gone: subscribed again
        McpClientListener listener = config.listener();
        if (listener != null) {
            host.dispatch(listener::onSessionRestarted, EventLoop.SMALL_EVENT_BYTES);
        }
    }

    /** Handles a notification the server sent (subscriptions first, then catalog, listener and drain queue). */
    public void onNotification(JsonRpcMessage.Notification n) {
        // a subscription's notifications (by _meta subscriptionId; legacy: by kind) also reach its listener; what
        // follows still happens to them (catalog, general listener, drain queue)
        subscriptions.onNotification(n);
        switch (n.method()) {
            case "notifications/progress" -> {
                host.onProgress(n);
                return;
            }
            case "notifications/cancelled" -> {
                Object rid = n.params() == null ? null : n.params().get("requestId");
                RequestId id = Ids.exactId(rid);
                if (id != null) {
                    cancelledInbound.add(id);
                    Running handler = inboundHandlers.get(id);
                    if (handler != null) {
                        handler.cancel();
                    } else {
                        cancelledInbound.remove(id);
                    }
                }
                return;
            }
            case "notifications/tools/list_changed" -> {
                tools.markStale();
                McpClientListener listener = config.listener();
                if (listener != null) {
                    host.dispatch(listener::onToolsListChanged, EventLoop.SMALL_EVENT_BYTES);
                }
            }
            case "notifications/message" -> {
                McpClientListener loggingListener = config.listener();
                if (loggingListener != null && n.params() != null) {
                    try {
                        LoggingMessageNotification m = Json.convert(n.params(), LoggingMessageNotification.class,
                                "notifications/message");
                        host.dispatch(() -> loggingListener.onLog(m), JsonSize.ofMessage(n.method(), n.params()));
                    } catch (McpProtocolException e) {
                        LOG.log(System.Logger.Level.WARNING, () -> "server " + transport.describe()
                                + " sent a malformed log message: " + e.getMessage());
                    }
                }
            }
            default -> {
                // queued and passed to the general listener below
            }
        }
        McpClientListener notificationListener = config.listener();
        if (drainQueue == null && notificationListener == null) {
            return;
        }
        long bytes = JsonSize.ofMessage(n.method(), n.params());
        if (drainQueue != null) {
            drainQueue.offer(n, bytes);
        }
        if (notificationListener != null) {
            host.dispatch(() -> notificationListener.onNotification(n), bytes);
        }
    }

    /** Handles a request the server sent: {@code ping} on the reader, the others on a handler thread. */
    public void onServerRequest(JsonRpcMessage.Request r) {
        if ("ping".equals(r.method())) {
            respond(r.id(), Map.of(), null);
            return;
        }
        if (host.isClosed()) {
            return;
        }
        if (!handlerPermits.tryAcquire()) {
            refuseServerRequest(r);
            return;
        }
        Running running = new Running();
        inboundHandlers.put(r.id(), running);
        Thread t = null;
        try {
            t = host.fork("handler", () -> {
                running.started();
                try {
                    runHandler(r);
                } finally {
                    inboundHandlers.remove(r.id(), running);
                    cancelledInbound.remove(r.id());
                    handlerPermits.release();
                    refusedServerRequests.flush(); // a handler ended: a burst of refusals (if any) is over
                }
            });
        } finally {
            if (t == null) { // the client closed, or the start failed: the handler never runs
                inboundHandlers.remove(r.id(), running);
                handlerPermits.release();
            }
        }
    }

    /** Answers at once a server request beyond the bound of concurrent handlers. */
    private void refuseServerRequest(JsonRpcMessage.Request r) {
        refusedServerRequests.add();
        int max = config.maxConcurrentServerRequests();
        respond(r.id(), null, JsonRpcError.of(JsonRpcError.INTERNAL_ERROR, "client busy: more than "
                + max + " server requests are already running; " + r.method() + " refused"));
    }

    private void runHandler(JsonRpcMessage.Request r) {
        if (!handlers.has(r.method())) {
            respond(r.id(), null, JsonRpcError.of(JsonRpcError.METHOD_NOT_FOUND,
                    "method not supported by this client: " + r.method()));
            return;
        }
        Object result;
        try {
            result = handlers.prepare(r.method(), r.params(), r.id(), null).answer();
        } catch (McpProtocolException | ClientHandlers.NotDeclaredException e) {
            respond(r.id(), null, JsonRpcError.of(JsonRpcError.INVALID_PARAMS, e.getMessage()));
            return;
        } catch (McpVetoedException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> r.method() + " (id " + r.id() + ") refused by an interceptor");
            respond(r.id(), null, JsonRpcError.of(JsonRpcError.INVALID_REQUEST, "the client refused "
                    + r.method() + ": " + e.reason()));
            return;
        } catch (McpInterceptorException e) {
            UserCode.failed(LOG, "an interceptor of " + r.method(), e.getCause());
            respond(r.id(), null, JsonRpcError.of(JsonRpcError.INTERNAL_ERROR, "a client interceptor failed on "
                    + r.method()));
            return;
        } catch (ClientHandlers.InvalidAnswerException e) {
            LOG.log(System.Logger.Level.WARNING, () -> r.method() + " (id " + r.id() + ") answered with an error: "
                    + e.getMessage());
            respond(r.id(), null, JsonRpcError.of(JsonRpcError.INTERNAL_ERROR, "client handler for " + r.method()
                    + " gave an invalid answer: " + e.getMessage()));
            return;
        } catch (Throwable e) {
            // any Throwable, Errors and a handler's own InterruptedException included: the request is always
            // answered; respond() sends nothing when the server cancelled it or the client closed (the interrupts)
            if (e instanceof InterruptedException) {
                LOG.log(System.Logger.Level.DEBUG, () -> r.method() + " (id " + r.id() + ") handler interrupted");
            } else {
                UserCode.failed(LOG, "the client handler for " + r.method(), e);
            }
            respond(r.id(), null, JsonRpcError.of(JsonRpcError.INTERNAL_ERROR, "client handler for " + r.method()
                    + " failed: " + e.getClass().getSimpleName()));
            return;
        }
        respond(r.id(), result, null);
    }

    private void respond(RequestId id, Object result, JsonRpcError error) {
        if (cancelledInbound.contains(id) || host.isClosed()) {
            return;
        }
        JsonRpcMessage m = error == null ? new JsonRpcMessage.Response(id, result)
                : new JsonRpcMessage.ErrorResponse(id, error);
        try {
            // queued (a transport with a blocking exchange runs it on its own thread): the reader never waits here
            transport.send(m, new CallContext(host.defaultDeadline(), id, false, null,
                    dev.loommcp.internal.scope.ScopeThreads.current())); // the handler's scope owns the answer's send
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "answer to server request " + id + " not sent: " + e);
        }
    }
}
