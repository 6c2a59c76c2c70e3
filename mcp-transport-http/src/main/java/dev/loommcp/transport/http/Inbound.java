package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.Exchange.LOG;
import static dev.loommcp.transport.http.Exchange.WIRE;
import static dev.loommcp.transport.http.HttpSettings.SEEN_IDS;

import dev.loommcp.McpProtocolException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.spi.JsonRpcFraming;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.spi.TransportSink;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where inbound messages go, whichever stream or body carried them: hands each to the sink once (a response whose
 * id was already seen, and a server request replayed on a resumed stream, are dropped) and completes the
 * {@link Call} that awaits a response. Thread-safe.
 */
final class Inbound {

    /** How many skipped SSE events are logged at WARNING; later ones at DEBUG. */
    static final int SKIP_WARNINGS = 10;
    /** SSE events skipped because they were not JSON-RPC, on every stream of the transport. */
    private final AtomicLong skippedEvents = new AtomicLong();

    private final AtomicBoolean closed;
    private final ConcurrentHashMap<RequestId, Call> awaiting = new ConcurrentHashMap<>();
    private final SeenIds seenResponses = new SeenIds(SEEN_IDS);
    private final SeenIds seenServerRequests = new SeenIds(SEEN_IDS);
    private volatile TransportSink sink;
    private volatile JsonRpcFraming framing = JsonRpcFraming.standard();

    /**
     * @param closed the transport's closed flag: nothing is delivered once it is set
     */
    Inbound(AtomicBoolean closed) {
        this.closed = closed;
    }

    /** Takes the sink and the framing, once, when the transport opens. */
    void attach(TransportContext context) {
        this.framing = context.framing();
        this.sink = context.sink();
    }

    /** The sink, or {@code null} before the transport opened. */
    TransportSink sink() {
        return sink;
    }

    /** Registers {@code call} as the one awaiting the response with {@code id}. */
    void expect(RequestId id, Call call) {
        awaiting.put(id, call);
    }

    /** Undoes {@link #expect}, if {@code call} is still the one registered. */
    void forget(RequestId id, Call call) {
        awaiting.remove(id, call);
    }

    /** Forgets the server requests seen so far: a new session numbers its requests anew. */
    void clearServerRequests() {
        seenServerRequests.clear();
    }

    /**
     * A listener for an SSE stream that decodes {@code message} events and delivers what they carry.
     *
     * @param where    the stream, for logs and the sink's skip notes
     * @param replayed whether the stream is a resumed one, where server requests already seen are replays
     */
    SseParser.Listener listener(String where, boolean replayed) {
        return listener(where, replayed, false);
    }

    /**
     * A listener for a modern-era response stream (MCP 2026-07-28): as {@link #listener(String, boolean)}, but a
     * server request is dropped and reported to the sink as skipped (servers never send one in this era; answering
     * it would POST a response, which the era forbids).
     *
     * @param where the stream, for logs and the sink's skip notes
     */
    SseParser.Listener modernListener(String where) {
        return listener(where, false, true);
    }

    private SseParser.Listener listener(String where, boolean replayed, boolean modern) {
        return (type, data, eventId) -> {
            if (!"message".equals(type)) {
                LOG.log(Level.DEBUG, () -> where + ": ignored an SSE event of type " + type);
                return;
            }
            if (data.isBlank()) {
                return; // a priming event: only its id matters
            }
            if (WIRE.isLoggable(Level.TRACE)) {
                WIRE.log(Level.TRACE, where + " event: " + data);
            }
            List<JsonRpcMessage> messages;
            try {
                messages = framing.decode(data);
            } catch (McpProtocolException e) {
                String problem = where + ": skipped an SSE event that is not JSON-RPC: " + e.getMessage();
                // the first few at WARNING, as the stdio reader does with its lines (the problem, never the data)
                long n = skippedEvents.incrementAndGet();
                LOG.log(n <= SKIP_WARNINGS ? Level.WARNING : Level.DEBUG, n == SKIP_WARNINGS
                        ? problem + " (further skipped events are logged at DEBUG)" : problem);
                TransportSink s = sink;
                if (s != null) {
                    byte[] bytes = data.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                    RequestId answers = framing.malformedResponseId(bytes, 0, bytes.length);
                    if (answers != null) {
                        s.onMalformedResponse(answers, problem); // fails that call now, not at its deadline
                    } else {
                        s.onSkipped(problem);
                    }
                }
                return;
            }
            for (JsonRpcMessage m : messages) {
                if (modern && m instanceof JsonRpcMessage.Request q) {
                    TransportSink s = sink;
                    if (s != null) {
                        s.onSkipped(where + ": dropped a server request (" + q.method() + "); servers send none in "
                                + "protocol 2026-07-28");
                    }
                    continue;
                }
                deliver(m, replayed);
            }
        };
    }

    /** Hands one inbound message to the sink, dropping duplicate responses and replayed server requests. */
    void deliver(JsonRpcMessage m, boolean replayed) {
        if (closed.get()) {
            return;
        }
        switch (m) {
            case JsonRpcMessage.Response r -> {
                if (!seenResponses.add(r.id())) {
                    LOG.log(Level.DEBUG, () -> "dropped a repeated response (id " + r.id() + ")");
                    return;
                }
            }
            case JsonRpcMessage.ErrorResponse e when e.id() != null -> {
                if (!seenResponses.add(e.id())) {
                    LOG.log(Level.DEBUG, () -> "dropped a repeated error response (id " + e.id() + ")");
                    return;
                }
            }
            case JsonRpcMessage.Request q -> {
                if (!seenServerRequests.add(q.id()) && replayed) {
                    LOG.log(Level.DEBUG, () -> "dropped a replayed " + q.method() + " (id " + q.id() + ")");
                    return;
                }
            }
            default -> {
            }
        }
        TransportSink s = sink;
        if (s != null) {
            s.onMessage(m);
        }
        RequestId id = responseId(m);
        if (id != null) {
            Call c = awaiting.get(id);
            if (c != null) {
                c.complete();
            }
        }
    }

    static RequestId responseId(JsonRpcMessage m) {
        return switch (m) {
            case JsonRpcMessage.Response r -> r.id();
            case JsonRpcMessage.ErrorResponse e -> e.id();
            default -> null;
        };
    }
}
