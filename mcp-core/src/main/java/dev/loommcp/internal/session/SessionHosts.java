package dev.loommcp.internal.session;

import dev.loommcp.config.Era;
import dev.loommcp.RequestOptions;
import dev.loommcp.internal.json.FastResults;
import dev.loommcp.internal.json.Ids;
import dev.loommcp.internal.json.JsonSize;
import dev.loommcp.internal.session.base.Deadlines;
import dev.loommcp.internal.session.base.EventLoop;
import dev.loommcp.internal.session.era.EraSetup;
import dev.loommcp.internal.session.era.EraVerdicts;
import dev.loommcp.internal.session.era.Handshake;
import dev.loommcp.internal.session.era.ProbeSink;
import dev.loommcp.internal.session.inbound.InboundDispatcher;
import dev.loommcp.internal.session.subscriptions.Subscriptions;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.DiscoverResult;
import dev.loommcp.schema.InitializeResult;
import dev.loommcp.schema.ProgressNotification;
import dev.loommcp.schema.ServerCapabilities;
import dev.loommcp.Deadline;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.spi.TransportContext;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The adapters through which the parts split out of a {@link Session} ({@link EraSetup}, {@link InboundDispatcher},
 * {@link Subscriptions}) reach the rest of the engine: each holds the few parts it forwards
 * to (the {@link ClientLife}, the transport, the pending calls, the event loop) and the session's functions it was
 * given, never the session itself. Thread-safe as those parts are.
 */
final class SessionHosts {

    private SessionHosts() {
    }

    /** A call of the session's that answers with a result object or a raw result. */
    @FunctionalInterface
    interface Call<T> {
        T call(String method, Map<String, Object> params, RequestOptions options, Consumer<RequestId> onSent)
                throws InterruptedException;
    }

    /** The default deadline of a call with {@code options}, from now. */
    private static Deadline deadlineOf(RequestOptions options, Duration requestTimeout) {
        return Deadlines.of(options, Deadline.ofNanoTime(System.nanoTime()), requestTimeout);
    }

    /** What the era setup may do with the engine: open the transport, send the handshake, take what it learned. */
    static final class EraHost implements EraSetup.Host {
        private final ClientLife life;
        private final McpTransport transport;
        private final SessionSink sink;
        private final Map<Long, PendingCall> pending;
        private final Handshake.RawCall handshakeCall;
        private final ModernRequests modern;
        private final Consumer<DiscoverResult> onDiscover;
        private final Consumer<InitializeResult> onInitialized;
        private final Runnable onRefusedOpen;

        /**
         * @param handshakeCall one request of the handshake through the life of a call
         * @param onDiscover    takes an adopted {@code server/discover} result
         * @param onInitialized takes the checked {@code initialize} result
         * @param onRefusedOpen told when the transport's {@code open} threw {@link IllegalStateException} (opened
         *                      before, by another client): the client then must not close it
         */
        EraHost(ClientLife life, McpTransport transport, SessionSink sink, Map<Long, PendingCall> pending,
                Handshake.RawCall handshakeCall, ModernRequests modern, Consumer<DiscoverResult> onDiscover,
                Consumer<InitializeResult> onInitialized, Runnable onRefusedOpen) {
            this.life = life;
            this.transport = transport;
            this.sink = sink;
            this.pending = pending;
            this.handshakeCall = handshakeCall;
            this.modern = modern;
            this.onDiscover = onDiscover;
            this.onInitialized = onInitialized;
            this.onRefusedOpen = onRefusedOpen;
        }

        /** Opens the transport; a refusal as already opened marks it as not this client's before it is rethrown. */
        private void openTransport(TransportContext context) throws InterruptedException {
            try {
                transport.open(context);
            } catch (IllegalStateException e) {
                onRefusedOpen.run();
                throw e;
            }
        }

        @Override
        public void open(Deadline deadline) throws InterruptedException {
            openTransport(life.transportContext(sink, deadline));
        }

        @Override
        public Object handshakeCall(String method, Map<String, Object> params, RequestOptions options)
                throws InterruptedException {
            return handshakeCall.call(method, params, options);
        }

        @Override
        public Map<String, Object> discover(RequestOptions options, Deadline deadline) throws InterruptedException {
            return modern.sendModern("server/discover", null, options, true, null, deadline);
        }

        @Override
        public String modernVersion() {
            return modern.version();
        }

        @Override
        public void adopt(DiscoverResult result, String version) {
            onDiscover.accept(result);
            modern.adopt(version, result.serverInfo());
        }

        @Override
        public void initialized(InitializeResult result) {
            onInitialized.accept(result);
        }

        @Override
        public void unverified(String key, EraVerdicts.Verdict verdict) {
            modern.unverified(key, verdict);
        }

        @Override
        public void open(Deadline deadline, ProbeSink sink) throws InterruptedException {
            openTransport(life.transportContext(sink, deadline));
        }

        @Override
        public ProbeSink probeSink() {
            return new ProbeSink(sink, cause -> {
                for (PendingCall p : pending.values()) {
                    p.future.completeExceptionally(cause);
                }
            });
        }

        @Override
        public void reopen(Deadline deadline) throws InterruptedException {
            transport.reopen(life.transportContext(sink, deadline));
        }

        @Override
        public Runnable whenClosed(Runnable action) {
            return life.whenClosed(action);
        }
    }

    /** What the inbound dispatcher may do with the engine: the client's life, its event loop, the pending calls. */
    static final class DispatcherHost implements InboundDispatcher.Host {
        private final ClientLife life;
        private final EventLoop events;
        private final Map<Long, PendingCall> pending;
        private final Duration requestTimeout;

        DispatcherHost(ClientLife life, EventLoop events, Map<Long, PendingCall> pending, Duration requestTimeout) {
            this.life = life;
            this.events = events;
            this.pending = pending;
            this.requestTimeout = requestTimeout;
        }

        @Override
        public boolean isClosed() {
            return life.isClosed();
        }

        @Override
        public void dispatch(Runnable listenerCall, long bytes) {
            events.dispatch(listenerCall, bytes);
        }

        @Override
        public Thread fork(String purpose, Runnable task) {
            return life.forkForServerRequest(purpose, task);
        }

        @Override
        public void onProgress(JsonRpcMessage.Notification n) {
            Object token = n.params() == null ? null : n.params().get("progressToken");
            Long exact = Ids.exactInteger(token);
            PendingCall p = exact == null ? null : pending.get(exact);
            if (p == null) {
                return;
            }
            p.lastProgressNanos = System.nanoTime();
            ProgressRelay relay = p.relay;
            if (relay != null) {
                ProgressNotification progress = FastResults.progressNotification(n.params(),
                        "notifications/progress");
                relay.offer(progress, JsonSize.ofMessage(n.method(), n.params()));
            }
        }

        @Override
        public Deadline defaultDeadline() {
            return SessionHosts.deadlineOf(RequestOptions.DEFAULT, requestTimeout);
        }
    }

    /** What the subscriptions may do with the engine: the client's life, its event loop, the session's calls. */
    static final class SubscriptionHost implements Subscriptions.Host {
        private final ClientLife life;
        private final EventLoop events;
        private final McpTransport transport;
        private final Duration requestTimeout;
        private final Supplier<Era> era;
        private final Supplier<ServerCapabilities> capabilities;
        private final Call<Object> call;
        private final Call<Map<String, Object>> request;

        /**
         * @param era          the connection's era, {@code null} before connect
         * @param capabilities the server's capabilities
         * @param call         one request the way the era wants it, raw result
         * @param request      one request with the options' {@code _meta}, result object
         */
        SubscriptionHost(ClientLife life, EventLoop events, McpTransport transport, Duration requestTimeout,
                         Supplier<Era> era, Supplier<ServerCapabilities> capabilities, Call<Object> call,
                         Call<Map<String, Object>> request) {
            this.life = life;
            this.events = events;
            this.transport = transport;
            this.requestTimeout = requestTimeout;
            this.era = era;
            this.capabilities = capabilities;
            this.call = call;
            this.request = request;
        }

        @Override
        public Era era() {
            return era.get();
        }

        @Override
        public void ensureConnected(String method) {
            life.ensureConnected(method);
        }

        @Override
        public boolean isClosed() {
            return life.isClosed();
        }

        @Override
        public ServerCapabilities serverCapabilities() {
            return capabilities.get();
        }

        @Override
        public Object call(String method, Map<String, Object> params, RequestOptions options,
                                 Consumer<RequestId> onSent) throws InterruptedException {
            return call.call(method, params, options, onSent);
        }

        @Override
        public Map<String, Object> request(String method, Map<String, Object> params, RequestOptions options)
                throws InterruptedException {
            return request.call(method, params, options, null);
        }

        @Override
        public void dispatch(Runnable listenerCall, long bytes) {
            events.dispatch(listenerCall, bytes);
        }

        @Override
        public void startBackground(String purpose, Runnable task) {
            life.startBackground(purpose, task);
        }

        @Override
        public Duration requestTimeout() {
            return requestTimeout;
        }

        @Override
        public String describe() {
            return transport.describe();
        }
    }
}
