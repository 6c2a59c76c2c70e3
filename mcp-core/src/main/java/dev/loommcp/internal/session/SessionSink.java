package dev.loommcp.internal.session;

import dev.loommcp.McpException;
import dev.loommcp.McpTransportException;
import dev.loommcp.internal.session.inbound.InboundDispatcher;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.spi.TransportSink;
import java.util.Map;

/**
 * The client's transport sink: responses go to {@link Answers} (the pending calls); notifications to the
 * result cache, the inbound dispatcher and the task bridge; server requests to the dispatcher. The loss of the
 * transport fails every pending call and closes the session on a background thread. Thread-safe.
 */
final class SessionSink implements TransportSink {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");

    private final ClientLife life;
    private final McpTransport transport;
    private final Map<Long, PendingCall> pending;
    private final Answers answers;
    private final ResultCache cache;
    private final InboundDispatcher inbound;
    private final TaskBridge tasks;
    private final Runnable release;

    /**
     * @param release the release of the client once this sink marked it closed (run on a background thread)
     */
    SessionSink(ClientLife life, McpTransport transport, Map<Long, PendingCall> pending, Answers answers,
                ResultCache cache, InboundDispatcher inbound, TaskBridge tasks, Runnable release) {
        this.life = life;
        this.transport = transport;
        this.pending = pending;
        this.answers = answers;
        this.cache = cache;
        this.inbound = inbound;
        this.tasks = tasks;
        this.release = release;
    }

    @Override
    public void onMessage(JsonRpcMessage message) {
        try {
            switch (message) {
                case JsonRpcMessage.Response r -> answers.complete(r.id(), r);
                case JsonRpcMessage.ErrorResponse e -> {
                    if (e.id() == null) {
                        LOG.log(System.Logger.Level.WARNING, () -> "server " + transport.describe()
                                + " sent a JSON-RPC error without id: code " + e.error().code());
                    } else {
                        answers.complete(e.id(), e);
                    }
                }
                case JsonRpcMessage.Notification n -> {
                    cache.onNotification(n);
                    inbound.onNotification(n);
                    tasks.onNotification(n);
                }
                case JsonRpcMessage.Request r -> inbound.onServerRequest(r);
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "failed to handle an inbound message", e);
        }
    }

    @Override
    public void onSkipped(String problem) {
        LOG.log(System.Logger.Level.DEBUG, () -> "skipped inbound input: " + problem);
    }

    @Override
    public void onMalformedResponse(RequestId id, String problem) {
        answers.malformed(id, problem);
    }

    @Override
    public void onSendFailed(RequestId id, McpException cause) {
        answers.failed(id, cause);
    }

    @Override
    public void onClosed(McpTransportException cause) {
        // the cause is recorded before any waiting caller is woken: a caller that closes the client on its first
        // failure (reconnect code) must find it closed by the transport's failure, so that every call still pending
        // (and every later one, and close() itself) reports that failure rather than a bare "the client was closed"
        boolean first = life.markClosed(cause);
        for (PendingCall p : pending.values()) {
            p.future.completeExceptionally(cause);
        }
        if (first) {
            // closing the transport and joining threads must not run on the transport's own thread
            life.startBackground("closer", release);
        }
    }
}
