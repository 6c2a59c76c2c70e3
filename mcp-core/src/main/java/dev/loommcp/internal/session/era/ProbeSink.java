package dev.loommcp.internal.session.era;

import dev.loommcp.McpException;
import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.spi.TransportSink;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The sink of a transport that carries the {@code ProtocolMode.AUTO} era probe (MODERN-ERA.md C.2; MCP 2026-07-28
 * "stdio: backward compatibility"), in three stages:
 * <ol>
 *   <li>{@code PROBE}: the answer to the probe's {@code server/discover} (a response, an error, a malformed answer,
 *       a send failure, or the transport's loss) completes {@link #answer()}; anything else the server sends in
 *       this stage (before {@code initialize}, or before the session takes over a modern connection) is dropped
 *       (DEBUG);</li>
 *   <li>{@code GUARD} (the legacy handshake that follows on the same connection): everything goes to the session's
 *       sink, except the transport's loss, which fails the calls waiting on it ({@code failPending}) and is kept
 *       ({@link #lost()}) instead of closing the session, so that the era setup can reopen the transport;</li>
 *   <li>{@code DIRECT} ({@link #handOver()}): everything goes to the session's sink.</li>
 * </ol>
 * In every stage a late answer to the probe's id (it came after the probe timeout) is dropped, never matched to a
 * call of the session. A sink without a session (a throw-away probe transport) drops everything after the probe.
 * Thread-safe: the transport calls it from its threads, the era setup moves the stage on the connecting thread; the
 * session's sink is never called under the lock.
 */
public final class ProbeSink implements TransportSink {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");

    /** The probe's request id: a string no call of the session uses (those are numbers). */
    static final RequestId PROBE_ID = RequestId.of("loom-era-probe");

    private enum Stage { PROBE, GUARD, DIRECT }

    private final TransportSink session;
    private final Consumer<McpTransportException> failPending;
    private final CompletableFuture<Object> answer = new CompletableFuture<>();
    private final ReentrantLock lock = new ReentrantLock();
    private Stage stage = Stage.PROBE;
    private McpTransportException lost;

    /**
     * @param session     the session's sink, or {@code null} for a throw-away probe transport
     * @param failPending fails the session's pending calls with the transport's loss (in {@code GUARD})
     */
    public ProbeSink(TransportSink session, Consumer<McpTransportException> failPending) {
        this.session = session;
        this.failPending = failPending;
    }

    /** The probe's answer: a {@link JsonRpcMessage}, an {@link McpException}, or a string naming a bad answer. */
    CompletableFuture<Object> answer() {
        return answer;
    }

    /** Moves from {@code PROBE} to {@code GUARD}: the legacy handshake runs on this connection. */
    void guard() {
        lock.lock();
        try {
            if (stage == Stage.PROBE) {
                stage = Stage.GUARD;
            }
        } finally {
            lock.unlock();
        }
    }

    /** The transport's loss seen before {@link #handOver()}, or {@code null}. */
    McpTransportException lost() {
        lock.lock();
        try {
            return lost;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Hands the connection to the session: from now on everything goes to its sink. A loss kept in {@code GUARD}
     * (the server exited just after the handshake) is passed on now, so the session learns it.
     */
    void handOver() {
        McpTransportException pending;
        lock.lock();
        try {
            stage = Stage.DIRECT;
            pending = lost;
            lost = null;
        } finally {
            lock.unlock();
        }
        if (pending != null && session != null) {
            session.onClosed(pending);
        }
    }

    private Stage stage() {
        lock.lock();
        try {
            return stage;
        } finally {
            lock.unlock();
        }
    }

    private static boolean isProbeAnswer(JsonRpcMessage message) {
        return message instanceof JsonRpcMessage.Response r && PROBE_ID.equals(r.id())
                || message instanceof JsonRpcMessage.ErrorResponse e && PROBE_ID.equals(e.id());
    }

    @Override
    public void onMessage(JsonRpcMessage message) {
        Stage s = stage();
        if (s == Stage.PROBE) {
            if (isProbeAnswer(message)) {
                answer.complete(message);
            } else {
                LOG.log(System.Logger.Level.DEBUG, () -> "dropped a message that came before the answer to the era "
                        + "probe (" + message.getClass().getSimpleName() + ")");
            }
            return;
        }
        if (isProbeAnswer(message) || session == null) {
            LOG.log(System.Logger.Level.DEBUG, "dropped a late answer to the era probe");
            return;
        }
        session.onMessage(message);
    }

    @Override
    public void onSkipped(String problem) {
        if (stage() != Stage.PROBE && session != null) {
            session.onSkipped(problem);
        }
    }

    @Override
    public void onMalformedResponse(RequestId id, String problem) {
        Stage s = stage();
        if (PROBE_ID.equals(id)) {
            answer.complete("a malformed answer");
        } else if (s != Stage.PROBE && session != null) {
            session.onMalformedResponse(id, problem);
        }
    }

    @Override
    public void onSendFailed(RequestId id, McpException cause) {
        Stage s = stage();
        if (PROBE_ID.equals(id)) {
            answer.complete(cause);
        } else if (s != Stage.PROBE && session != null) {
            session.onSendFailed(id, cause);
        }
    }

    @Override
    public void onClosed(McpTransportException cause) {
        Stage s;
        lock.lock();
        try {
            s = stage;
            if (s != Stage.DIRECT) {
                lost = cause;
            }
        } finally {
            lock.unlock();
        }
        switch (s) {
            case PROBE -> answer.complete(cause);
            case GUARD -> failPending.accept(cause);
            case DIRECT -> {
                if (session != null) {
                    session.onClosed(cause);
                }
            }
        }
    }
}
