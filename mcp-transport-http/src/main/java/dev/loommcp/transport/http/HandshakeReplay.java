package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.Exchange.LOG;
import static dev.loommcp.transport.http.Exchange.challenges;
import static dev.loommcp.transport.http.Exchange.isJson;
import static dev.loommcp.transport.http.Exchange.mediaType;
import static dev.loommcp.transport.http.HeaderRules.SESSION_HEADER;

import dev.loommcp.McpProtocolException;
import dev.loommcp.McpTransportException;
import dev.loommcp.internal.json.JsonRpcCodec;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.spi.SendContext;
import dev.loommcp.spi.TransportSink;
import java.lang.System.Logger.Level;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The transport's own replay of the MCP handshake, and the only place in this module that knows MCP method names:
 * it records the client's {@code initialize} request and {@code notifications/initialized}, learns the protocol
 * version from the {@code initialize} response, and after a 404 for a request that carried the session replays both
 * to start a new session, then reopens the GET stream and tells the sink.
 *
 * <p>Kept apart so that it can go as a whole once the core re-initialises itself after a session-expired failure
 * (issue 9, item 2). Thread-safe: one thread restarts at a time.
 */
final class HandshakeReplay {

    private static final String INITIALIZE = "initialize";
    private static final String INITIALIZED = "notifications/initialized";

    private final HttpSettings settings;
    private final String origin;
    private final Exchange exchange;
    private final ResponseStream responses;
    private final Inbound inbound;
    private final GetStream getStream;
    private final AtomicReference<HttpSession> session;
    private final AtomicBoolean closed;

    private volatile JsonRpcMessage.Request initializeRequest;
    private volatile JsonRpcMessage.Notification initializedNotification;
    private final ReentrantLock restartLock = new ReentrantLock();

    HandshakeReplay(HttpSettings settings, Exchange exchange, ResponseStream responses, Inbound inbound,
                    GetStream getStream, AtomicReference<HttpSession> session, AtomicBoolean closed) {
        this.settings = settings;
        this.origin = settings.origin;
        this.exchange = exchange;
        this.responses = responses;
        this.inbound = inbound;
        this.getStream = getStream;
        this.session = session;
        this.closed = closed;
    }

    /** Whether {@code r} starts a session: it is sent without one, and its answer's session id is kept. */
    static boolean isInitialize(JsonRpcMessage.Request r) {
        return INITIALIZE.equals(r.method());
    }

    /** Records an outgoing message the replay needs: the {@code initialize} request, the initialized notice. */
    void record(JsonRpcMessage message) {
        if (message instanceof JsonRpcMessage.Request r && isInitialize(r)) {
            initializeRequest = r;
        } else if (message instanceof JsonRpcMessage.Notification n && INITIALIZED.equals(n.method())) {
            initializedNotification = n;
        }
    }

    /**
     * Sees an inbound message before the sink does: the {@code initialize} response's protocol version is taken
     * while none is known, so that {@code notifications/initialized} carries it already.
     */
    void observe(JsonRpcMessage m) {
        JsonRpcMessage.Request init = initializeRequest;
        if (session.get().protocolVersion() == null && init != null && m instanceof JsonRpcMessage.Response r
                && init.id().equals(r.id()) && r.result() instanceof Map<?, ?> result
                && result.get("protocolVersion") instanceof String v && HeaderRules.isVisibleAscii(v)) {
            // known before the client sends notifications/initialized, which should carry it already
            session.updateAndGet(s -> s.protocolVersion() == null ? s.withProtocolVersion(v) : s);
        }
    }

    /**
     * Starts a new session after a 404 for {@code expired}: replays the recorded initialize (consuming its answer)
     * and notifications/initialized, reopens the GET stream and tells the sink. Only one thread restarts; others
     * that saw the same expired session wait and then use the new one.
     */
    void restart(String expired, Call call, SendContext ctx) throws InterruptedException {
        restartLock.lockInterruptibly();
        try {
            if (!Objects.equals(session.get().id(), expired)) {
                return; // another request already started a new session
            }
            JsonRpcMessage.Request init = initializeRequest;
            if (init == null) {
                throw new McpHttpStatusException(404, call.what + " failed with HTTP 404: the session expired and "
                        + "no initialize was seen to start a new one", List.of());
            }
            LOG.log(Level.INFO, "session with {0} expired (HTTP 404); starting a new one", origin);
            String what = "POST initialize (id " + init.id() + ", new session)";
            byte[] initBody = JsonRpcCodec.encode(init);
            HttpResponse<StreamBody> resp = exchange.send(call, "POST", initBody, HttpSession.NONE.postHeaders(),
                    ctx.deadlineNanos());
            int status = resp.statusCode();
            if (status < 200 || status >= 300 || status == 202 || status == 204) {
                resp.body().close();
                throw new McpHttpStatusException(status, call.what + ": starting a new session after HTTP 404 "
                        + "failed: initialize was answered with HTTP " + status, challenges(resp));
            }
            String previous = session.get().id();
            AtomicReference<JsonRpcMessage> answer = new AtomicReference<>();
            Consumer<JsonRpcMessage> capture = m -> {
                if (init.id().equals(Inbound.responseId(m))) {
                    answer.set(m);
                } else {
                    LOG.log(Level.DEBUG, () -> what + ": dropped a message that is not the initialize response");
                }
            };
            String newSid = resp.headers().firstValue(SESSION_HEADER).orElse(null);
            String type = mediaType(resp);
            if (type.equals("text/event-stream")) {
                SseParser parser = new SseParser(settings.maxMessageBytes, null, (t, data, id) -> {
                    if ("message".equals(t) && !data.isBlank()) {
                        try {
                            JsonRpcCodec.decode(data).forEach(capture);
                        } catch (McpProtocolException e) {
                            LOG.log(Level.DEBUG, () -> what + ": skipped a malformed event");
                        }
                    }
                });
                responses.readSse(call, resp.body(), parser, () -> answer.get() != null, what, true,
                        ctx.deadlineNanos());
            } else if (isJson(type)) {
                byte[] bytes = responses.readAll(call, resp.body(), settings.maxMessageBytes, ctx.deadlineNanos());
                JsonRpcCodec.decode(bytes, 0, bytes.length).forEach(capture);
            } else {
                resp.body().close();
            }
            resp.body().close();
            JsonRpcMessage a = answer.get();
            if (a instanceof JsonRpcMessage.ErrorResponse e) {
                throw new McpTransportException(call.what + ": starting a new session failed: initialize was "
                        + "answered with JSON-RPC error " + e.error().code());
            }
            if (a == null) {
                throw new McpTransportException(call.what + ": starting a new session failed: no initialize "
                        + "response");
            }
            if (newSid != null && !HeaderRules.isVisibleAscii(newSid)) {
                throw new McpProtocolException(call.what + ": starting a new session failed: the server sent an "
                        + "invalid " + SESSION_HEADER + " (it must be visible ASCII, 0x21-0x7E)");
            }
            String version = session.get().protocolVersion();
            if (a instanceof JsonRpcMessage.Response r && r.result() instanceof Map<?, ?> result
                    && result.get("protocolVersion") instanceof String v && version != null
                    && !v.equals(version)) {
                LOG.log(Level.WARNING, "new session with {0} negotiated {1} instead of {2}; keeping {2}",
                        origin, v, version);
            }
            HttpSession next = session.updateAndGet(s -> s.withId(newSid));
            JsonRpcMessage.Notification initialized = initializedNotification;
            if (initialized != null) {
                try {
                    exchange.postOneWay(call, JsonRpcCodec.encode(initialized), next, ctx.deadlineNanos());
                } catch (McpHttpStatusException e) {
                    // never keep a session that did not get notifications/initialized
                    session.updateAndGet(s -> s.withId(previous));
                    throw new McpHttpStatusException(e.statusCode(), call.what + ": starting a new session failed: "
                            + "notifications/initialized was answered with HTTP " + e.statusCode(),
                            e.wwwAuthenticate());
                } catch (InterruptedException | RuntimeException e) {
                    session.updateAndGet(s -> s.withId(previous));
                    throw e;
                }
            }
            inbound.clearServerRequests();
            LOG.log(Level.INFO, "new session with {0} started", origin);
            getStream.sessionRestarted();
            TransportSink s = inbound.sink();
            if (s != null && !closed.get()) {
                s.onSessionRestarted();
            }
        } finally {
            restartLock.unlock();
        }
    }
}
