package dev.loommcp.internal.session;

import dev.loommcp.McpException;
import dev.loommcp.McpProtocolException;
import dev.loommcp.internal.json.Ids;
import dev.loommcp.internal.json.JsonRpcCodec;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Matches the server's answers to the session's pending requests: an exact integer id, or leniently an id such as
 * {@code "7"} or {@code 7.0} (see {@link Ids#looseInteger}); an answer that matches none is dropped and logged. A
 * malformed answer that names a pending request fails that request at once. Thread-safe (the session's pending map
 * is concurrent; the counters are atomic).
 */
final class Answers {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");

    private final Map<Long, PendingCall> pending;
    private final AtomicLong ids;
    private final Supplier<String> server;
    /** Answers whose id this client never sent. */
    private final AtomicLong unknownAnswers = new AtomicLong();
    private final AtomicBoolean looseIdWarned = new AtomicBoolean();

    /**
     * @param pending the session's pending requests by id
     * @param ids     the session's id counter (the last id sent)
     * @param server  describes the server, for logs
     */
    Answers(Map<Long, PendingCall> pending, AtomicLong ids, Supplier<String> server) {
        this.pending = pending;
        this.ids = ids;
        this.server = server;
    }

    /** Completes the pending request {@code id} answers with {@code message}; drops an answer nobody waits for. */
    void complete(RequestId id, JsonRpcMessage message) {
        PendingCall p = find(id);
        if (p == null) {
            droppedAnswer(id, "a response");
            return;
        }
        p.future.complete(message);
    }

    /**
     * The result of the response {@code p} got, as plain JSON values: a result the codec kept undecoded is decoded
     * here, on the calling thread, not on the transport's reader thread.
     *
     * @throws McpProtocolException naming the request when the result cannot be decoded
     */
    static Object resultOf(JsonRpcMessage.Response response, PendingCall p) {
        try {
            return JsonRpcCodec.plainResult(response.result());
        } catch (McpProtocolException e) {
            throw new McpProtocolException("the server's answer to " + p.method + " (id " + p.id + ") is not valid "
                    + "JSON-RPC: " + e.getMessage());
        }
    }

    /** Fails the pending request a malformed answer names: the server did answer, but not usably. */
    void malformed(RequestId id, String problem) {
        PendingCall p = find(id);
        if (p == null) {
            droppedAnswer(id, "a malformed response");
            return;
        }
        // fail the call now rather than let it wait out its deadline
        p.future.completeExceptionally(new McpProtocolException("the server's answer to " + p.method + " (id "
                + p.id + ") is not valid JSON-RPC: " + problem));
    }

    /** Fails the pending request whose send the transport reports failed; a request no longer pending ignores it. */
    void failed(RequestId id, McpException cause) {
        PendingCall p = id instanceof RequestId.NumberId n ? pending.get(n.number()) : null;
        if (p == null) {
            LOG.log(System.Logger.Level.DEBUG, () -> "send failure for request " + id + ", no longer pending: "
                    + cause.getMessage());
            return;
        }
        p.future.completeExceptionally(cause);
    }

    private PendingCall find(RequestId id) {
        return id instanceof RequestId.NumberId n ? pending.get(n.number()) : looselyPending(id);
    }

    /**
     * Logs an answer that matches no pending request: at DEBUG when it is a late answer to a request this client
     * sent (it timed out or was cancelled), at WARNING (rate-limited) when this client never sent that id, which
     * points at a misbehaving server rather than at a race.
     */
    private void droppedAnswer(RequestId id, String what) {
        Long sent = id instanceof RequestId.NumberId n ? Long.valueOf(n.number()) : Ids.looseInteger(id);
        if (sent != null && sent >= 1 && sent <= ids.get()) {
            LOG.log(System.Logger.Level.DEBUG, () -> "dropped " + what + " for request " + id
                    + " that is no longer pending");
            return;
        }
        long n = unknownAnswers.incrementAndGet();
        if (n <= 10 || n % 1000 == 0) {
            LOG.log(System.Logger.Level.WARNING, () -> "server " + server.get() + " sent " + what
                    + " for request id " + id + ", which this client never sent; dropped (" + n + " so far)");
        }
    }

    /** A response id such as {@code "7"} or {@code 7.0} that equals exactly one pending request's id. */
    private PendingCall looselyPending(RequestId id) {
        Long loose = Ids.looseInteger(id);
        PendingCall p = loose == null ? null : pending.get(loose);
        if (p != null) {
            p.looselyMatched = true;
        }
        if (p != null && looseIdWarned.compareAndSet(false, true)) {
            LOG.log(System.Logger.Level.WARNING, () -> "server " + server.get() + " answered request " + loose
                    + " with id " + id + " (not the integer sent); matched it, as for every such answer later");
        }
        return p;
    }
}
