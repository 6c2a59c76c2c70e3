package dev.loommcp.testing;

import dev.loommcp.McpException;
import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.spi.SendContext;
import dev.loommcp.spi.TransportSink;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The request exchanges of a {@link ScriptedTransport} in {@link ScriptedTransport.Mode#BLOCKING} (HTTP-like): each
 * request's exchange runs on a fork of the request's scope ({@link SendContext#fork}) and delivers what its stream
 * carries (the fake server's answer, and what the test puts on it with {@link ScriptedTransport#deliverOn}) until
 * the answer; the core's {@link SendContext#onCancel} hook, the transport's close or loss, or an interrupt ends it
 * early, reported to the sink's {@code onSendFailed} as a real HTTP exchange would. Also what the observation methods
 * ask of the exchanges (open, cancelled, interrupted, finished). Thread-safe: concurrent maps and sets, no lock.
 */
final class ScriptedExchanges {

    private static final Object ABORT = new Object();

    /** One open exchange: its stream of messages for the client, then maybe {@link #ABORT}. */
    private static final class Exchange {
        final LinkedBlockingQueue<Object> stream = new LinkedBlockingQueue<>();
    }

    private final ScriptedConnection connection;
    private final ScriptedAnswers answers;
    private final SendLog log;
    private final ConcurrentHashMap<RequestId, Exchange> open = new ConcurrentHashMap<>();
    private final Set<RequestId> cancelHooksRun = ConcurrentHashMap.newKeySet();
    private final Set<RequestId> interruptedSends = ConcurrentHashMap.newKeySet();
    private final Set<RequestId> finishedSends = ConcurrentHashMap.newKeySet();

    ScriptedExchanges(ScriptedConnection connection, ScriptedAnswers answers, SendLog log) {
        this.connection = connection;
        this.answers = answers;
        this.log = log;
    }

    /**
     * The blocking-mode send of {@code request} ({@code wire} its wire form): records it, forks its exchange and
     * hooks the exchange to the request's cancellation; returns at once.
     *
     * @throws RuntimeException what {@link SendContext#fork} threw (the request ended between its record and its
     *                          fork); the send then counts as finished
     */
    void start(JsonRpcMessage.Request request, JsonRpcMessage wire, SendContext context) {
        RequestId id = request.id();
        Exchange ex = new Exchange();
        open.put(id, ex);
        log.record(wire, context);
        // the exchange runs on its own thread, as an HTTP transport's does; send returns at once
        // ... as a fork of the request's scope, as the SPI asks (SendContext.fork)
        Thread t;
        try {
            t = context.fork("scripted-exchange", () -> run(request, ex));
        } catch (RuntimeException e) {
            // the request ended between its record and its fork (a close or a loss the test caused once it saw the
            // request): this send ends by throwing, as awaitSendFinished counts it
            open.remove(id, ex);
            finishedSends.add(id);
            log.signal();
            throw e;
        }
        context.onCancel(() -> {
            cancelHooksRun.add(id);
            ex.stream.add(ABORT);
            t.interrupt();
            log.signal();
        });
    }

    /** One blocking-mode exchange, on its own thread; a failure goes to the sink's {@code onSendFailed}. */
    private void run(JsonRpcMessage.Request request, Exchange ex) {
        RequestId id = request.id();
        try {
            JsonRpcMessage answer = answers.answer(request);
            if (answer != null) {
                ex.stream.add(answer);
            }
            while (true) {
                Object item = ex.stream.take();
                if (item == ABORT) {
                    throw new McpTransportException("scripted exchange of request " + id + " aborted");
                }
                JsonRpcMessage m = (JsonRpcMessage) item;
                TransportSink s = connection.sinkOrNull();
                if (!connection.isClosed() && s != null) {
                    s.onMessage(m);
                }
                if (ScriptedAnswers.answers(m, id)) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            interruptedSends.add(id);
        } catch (McpException e) {
            TransportSink s = connection.sinkOrNull();
            if (s != null) {
                s.onSendFailed(id, e);
            }
        } finally {
            open.remove(id, ex);
            finishedSends.add(id);
            log.signal();
        }
    }

    /** Puts {@code wire} on the stream of request {@code id}; {@code false} when it has no open exchange. */
    boolean deliverOn(RequestId id, JsonRpcMessage wire) {
        Exchange ex = open.get(id);
        if (ex == null) {
            return false;
        }
        ex.stream.add(wire);
        return true;
    }

    /** Ends every open exchange (close or loss of the transport). */
    void abortAll() {
        for (Exchange ex : open.values()) {
            ex.stream.add(ABORT);
        }
    }

    int openCount() {
        return open.size();
    }

    boolean finished(RequestId id) {
        return finishedSends.contains(id);
    }

    boolean cancelHookRan(RequestId id) {
        return cancelHooksRun.contains(id);
    }

    boolean interrupted(RequestId id) {
        return interruptedSends.contains(id);
    }
}
