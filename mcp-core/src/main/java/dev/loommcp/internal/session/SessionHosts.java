package dev.loommcp.internal.session;

import dev.loommcp.Era;
import dev.loommcp.RequestOptions;
import dev.loommcp.internal.json.FastResults;
import dev.loommcp.internal.json.Ids;
import dev.loommcp.internal.json.JsonSize;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.DiscoverResult;
import dev.loommcp.schema.InitializeResult;
import dev.loommcp.schema.ProgressNotification;
import dev.loommcp.schema.ServerCapabilities;
import dev.loommcp.spi.Deadline;
import dev.loommcp.spi.RequestRouting;
import dev.loommcp.spi.TransportContext;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The adapters through which the parts split out of a {@link Session} ({@link ModernRequests}, {@link EraSetup},
 * {@link InboundDispatcher}, {@link Subscriptions}) call back into it; each holds its session and forwards. Thread-safe
 * as the session is.
 */
final class SessionHosts {

    private SessionHosts() {
    }

    /** What the modern request path may do with this session. */
    static final class ModernHost implements ModernRequests.Host {
        private final Session session;

        ModernHost(Session session) {
            this.session = session;
        }

        @Override
        public Object send(String method, Map<String, Object> params, RequestOptions options, boolean handshake,
                           RequestRouting routing, Consumer<RequestId> onSent) throws InterruptedException {
            return session.callOnce(method, params, options, handshake, routing, onSent);
        }

        @Override
        public Deadline deadlineOf(RequestOptions options) {
            return session.deadlineOf(options, Deadline.ofNanoTime(System.nanoTime()));
        }

        @Override
        public void ensureConnected(String method) {
            session.ensureConnected(method);
        }

        @Override
        public String describe() {
            return session.transport.describe();
        }
    }

    /** What the era setup may do with this session. */
    static final class EraHost implements EraSetup.Host {
        private final Session session;

        EraHost(Session session) {
            this.session = session;
        }

        @Override
        public void open(Deadline deadline) throws InterruptedException {
            session.transport.open(session.transportContext(session.sink, deadline));
        }

        @Override
        public Object handshakeCall(String method, Map<String, Object> params, RequestOptions options)
                throws InterruptedException {
            return session.callOnce(method, params, options, true, null, null);
        }

        @Override
        public Map<String, Object> discover(RequestOptions options, Deadline deadline) throws InterruptedException {
            return session.modern.sendModern("server/discover", null, options, true, null, deadline);
        }

        @Override
        public String modernVersion() {
            return session.modern.version();
        }

        @Override
        public void adopt(DiscoverResult result, String version) {
            session.discover = result;
            session.modern.adopt(version, result.serverInfo());
        }

        @Override
        public void initialized(InitializeResult result) {
            session.initializeResult = result;
        }

        @Override
        public void unverified(String key, EraVerdicts.Verdict verdict) {
            session.modern.unverified(key, verdict);
        }

        @Override
        public void open(Deadline deadline, ProbeSink sink) throws InterruptedException {
            session.transport.open(session.transportContext(sink, deadline));
        }

        @Override
        public ProbeSink probeSink() {
            return new ProbeSink(session.sink, cause -> {
                for (PendingCall p : session.pending.values()) {
                    p.future.completeExceptionally(cause);
                }
            });
        }

        @Override
        public void reopen(Deadline deadline) throws InterruptedException {
            session.transport.reopen(session.transportContext(session.sink, deadline));
        }

        @Override
        public Runnable whenClosed(Runnable action) {
            return session.whenClosed(action);
        }
    }

    /** What the inbound dispatcher may do with this session. */
    static final class DispatcherHost implements InboundDispatcher.Host {
        private final Session session;

        DispatcherHost(Session session) {
            this.session = session;
        }

        @Override
        public boolean isClosed() {
            return session.isClosed();
        }

        @Override
        public void dispatch(Runnable listenerCall, long bytes) {
            session.events.dispatch(listenerCall, bytes);
        }

        @Override
        public Thread fork(String purpose, Runnable task) {
            return session.forkForServerRequest(purpose, task);
        }

        @Override
        public void onProgress(JsonRpcMessage.Notification n) {
            Object token = n.params() == null ? null : n.params().get("progressToken");
            Long exact = Ids.exactInteger(token);
            PendingCall p = exact == null ? null : session.pending.get(exact);
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
            return session.deadlineOf(RequestOptions.DEFAULT, Deadline.ofNanoTime(System.nanoTime()));
        }
    }

    /** What the subscriptions may do with this session. */
    static final class SubscriptionHost implements Subscriptions.Host {
        private final Session session;

        SubscriptionHost(Session session) {
            this.session = session;
        }

        @Override
        public Era era() {
            return session.era();
        }

        @Override
        public void ensureConnected(String method) {
            session.ensureConnected(method);
        }

        @Override
        public boolean isClosed() {
            return session.isClosed();
        }

        @Override
        public ServerCapabilities serverCapabilities() {
            return session.serverCapabilities();
        }

        @Override
        public Object modernCall(String method, Map<String, Object> params, RequestOptions options,
                                 Consumer<RequestId> onSent) throws InterruptedException {
            return session.modernCall(method, params, options, onSent);
        }

        @Override
        public Map<String, Object> request(String method, Map<String, Object> params, RequestOptions options)
                throws InterruptedException {
            return session.request(method, params, options);
        }

        @Override
        public void dispatch(Runnable listenerCall, long bytes) {
            session.events.dispatch(listenerCall, bytes);
        }

        @Override
        public void startBackground(String purpose, Runnable task) {
            session.startBackground(purpose, task);
        }

        @Override
        public Duration requestTimeout() {
            return session.requestTimeout;
        }

        @Override
        public String describe() {
            return session.transport.describe();
        }
    }
}
