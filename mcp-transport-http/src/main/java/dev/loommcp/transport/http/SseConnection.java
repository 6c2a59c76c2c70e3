package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.Exchange.EMPTY;
import static dev.loommcp.transport.http.Exchange.LOG;
import static dev.loommcp.transport.http.Exchange.mediaType;

import dev.loommcp.McpException;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpSessionExpiredException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.Deadline;
import dev.loommcp.spi.TransportSink;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The GET stream of the HTTP+SSE transport (MCP 2024-11-05) and what depends on it: opening it and waiting for its
 * {@code endpoint} event, reading the server's messages from it, the requests in flight on it, and what a lost
 * stream means (the session ended: the requests in flight fail; the next one opens a new stream). At most one
 * stream is current; a new one opens only when a request needs it. Thread-safe.
 */
final class SseConnection {

    /**
     * How messages name the stream's request: not by its path, which may hold a secret (some servers take a token
     * there), and the origin is said by the rest of the message.
     */
    private static final String GET_STREAM = "GET of the SSE stream";
    private static final Headers SSE_GET_HEADERS = Headers.of("Accept", HeaderRules.ACCEPT_SSE);

    /** One GET stream: its reader thread, and the endpoint it announced. */
    static final class Stream {
        final Call call;
        /** Completed with this stream once its endpoint is known, or with why it never will be. */
        final CompletableFuture<Stream> ready = new CompletableFuture<>();
        private volatile Exchange post;
        private volatile URI endpoint;
        private volatile McpException lossFailure;
        private volatile boolean lost;
        /** Why the transport ended the stream itself, or {@code null}. */
        private volatile McpException dropReason;

        Stream(Call call) {
            this.call = call;
        }

        /** The exchange that POSTs to the announced endpoint. */
        Exchange post() {
            return post;
        }
    }

    /** A request in flight: the stream it was POSTed for, once known. */
    static final class Pending {
        private volatile Stream stream;

        void sentOn(Stream s) {
            stream = s;
        }
    }

    private final HttpSettings settings;
    private final String origin;
    private final Exchange exchange;
    private final Inbound inbound;
    private final ResponseStream responses;
    private final AtomicBoolean closed;

    private final ReentrantLock lock = new ReentrantLock();
    /** The stream being opened or open; {@code null} when none (not yet, or lost). Guarded by {@link #lock}. */
    private Stream current;
    /** Whether the client completed a handshake: a lost stream then ends a session. Guarded by {@link #lock}. */
    private boolean sessionStarted;
    /**
     * Whether a stream was lost in a session with no request in flight to say so: the next request fails with
     * {@link McpSessionExpiredException}, which makes the client start a new session. Guarded by {@link #lock}.
     */
    private McpSessionExpiredException expiryOwed;
    private final Set<Thread> readers = ConcurrentHashMap.newKeySet();
    private final ConcurrentHashMap<RequestId, Pending> pending = new ConcurrentHashMap<>();
    private volatile TransportSink sink;

    SseConnection(HttpSettings settings, Exchange exchange, Inbound inbound, AtomicBoolean closed) {
        this.settings = settings;
        this.origin = settings.origin;
        this.exchange = exchange;
        this.inbound = inbound;
        this.closed = closed;
        this.responses = new ResponseStream(settings, exchange, inbound, new AtomicReference<>(HttpSession.NONE));
    }

    /**
     * The sink the inbound side delivers to: the core's, with each response first taken off the requests in
     * flight (their stream can no longer fail them).
     */
    TransportSink sink(TransportSink core) {
        this.sink = core;
        return new SinkRelay(core) {
            @Override
            public void onMessage(JsonRpcMessage message) {
                RequestId id = Inbound.responseId(message);
                if (id != null) {
                    pending.remove(id);
                }
                super.onMessage(message);
            }

            @Override
            public void onMalformedResponse(RequestId id, String problem) {
                pending.remove(id);
                super.onMalformedResponse(id, problem);
            }
        };
    }

    /** The announced endpoint of the current stream, or {@code null}. */
    URI endpoint() {
        Stream s;
        lock.lock();
        try {
            s = current;
        } finally {
            lock.unlock();
        }
        return s == null ? null : s.endpoint;
    }

    /** Opens the first stream and waits for its endpoint until {@code deadline}; a stream not ready is ended. */
    void connect(Deadline deadline) throws InterruptedException {
        Stream s;
        lock.lock();
        try {
            s = start();
        } finally {
            lock.unlock();
        }
        boolean ok = false;
        try {
            await(s, deadline, GET_STREAM);
            ok = true;
        } finally {
            if (!ok) {
                s.call.abort();
            }
        }
    }

    /**
     * The stream a request is POSTed for: the current one, or a new one when the last was lost (waiting for its
     * endpoint until {@code deadline}).
     *
     * @throws McpSessionExpiredException when a stream was lost in a session and no request said so yet
     */
    Stream forRequest(String what, Deadline deadline) throws InterruptedException {
        Stream s;
        lock.lock();
        try {
            McpSessionExpiredException owed = expiryOwed;
            if (owed != null) {
                expiryOwed = null;
                throw new McpSessionExpiredException(what + ": " + owed.getMessage());
            }
            s = start();
        } finally {
            lock.unlock();
        }
        return await(s, deadline, what);
    }

    /**
     * The current stream for a notification or response the client awaits the delivery of (it never opens one:
     * such a message means nothing in a session that is gone).
     *
     * @throws McpTransportException when no stream is open
     */
    Stream current(String what, Deadline deadline) throws InterruptedException {
        Stream s = currentOrNull();
        if (s == null) {
            throw new McpTransportException(what + ": no SSE stream to " + origin + " is open (it was lost)");
        }
        return await(s, deadline, what);
    }

    /** The current stream when it is open and its endpoint known, else {@code null}. */
    Stream currentOrNull() {
        lock.lock();
        try {
            Stream s = current;
            return s != null && s.ready.isDone() && !s.ready.isCompletedExceptionally() ? s : null;
        } finally {
            lock.unlock();
        }
    }

    /** Returns the current stream or starts a new one; with {@link #lock} held. */
    private Stream start() {
        if (closed.get()) {
            throw exchange.closedNow("cannot open the SSE stream");
        }
        if (current != null) {
            return current;
        }
        Stream s = new Stream(new Call(null, GET_STREAM, true, false));
        current = s;
        Thread t = settings.threads.newThread("http-sse", () -> read(s));
        readers.add(t);
        t.start();
        return s;
    }

    /** Waits until {@code s} announced its endpoint, at most until {@code deadline}. */
    private Stream await(Stream s, Deadline deadline, String what) throws InterruptedException {
        try {
            return deadline.isNone() ? s.ready.get()
                    : s.ready.get(deadline.remainingNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new McpTimeoutException(what + " timed out: " + origin + " sent no endpoint event on its SSE "
                    + "stream before the deadline");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof McpException m) {
                throw m;
            }
            throw new McpTransportException(what + ": the SSE stream of " + origin + " failed", e.getCause());
        }
    }

    /** The reader thread of one stream: GET, then every event until the stream ends; then the loss. */
    private void read(Stream s) {
        McpException failure = null;
        try {
            // the headers' wait is bounded like a POST's (connect plus idle timeout); the stream itself is not
            Deadline headerDeadline = Deadline.after(settings.connectTimeout.plus(settings.idleTimeout));
            HttpResponse<StreamBody> resp = exchange.send(s.call, "GET", EMPTY, SSE_GET_HEADERS, headerDeadline);
            int status = resp.statusCode();
            if (status < 200 || status >= 300) {
                throw exchange.errors.statusFailure(s.call, resp, null, GET_STREAM + " failed with HTTP " + status);
            }
            String type = mediaType(resp);
            if (!type.equals("text/event-stream")) {
                resp.body().close();
                throw new McpProtocolException(GET_STREAM + " was answered with HTTP " + status
                        + " but not an SSE stream (Content-Type " + (type.isEmpty() ? "none" : type) + ")");
            }
            SseParser parser = new SseParser(settings.maxMessageBytes, null, listener(s)).ignoreIds();
            responses.readSse(s.call, resp.body(), parser, () -> false, "SSE stream of " + origin, false,
                    Deadline.NONE);
        } catch (McpException e) {
            failure = e;
        } catch (InterruptedException e) {
            failure = exchange.closedOr(new McpTransportException("the SSE stream of " + origin + " was stopped"));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "SSE stream of " + origin + " failed unexpectedly", e);
            failure = new McpTransportException("the SSE stream of " + origin + " failed: " + e, e);
        } finally {
            s.call.release();
            lost(s, failure);
            readers.remove(Thread.currentThread());
        }
    }

    private SseParser.Listener listener(Stream s) {
        SseParser.Listener messages = inbound.listener("SSE stream of " + origin, false);
        return (type, data, id) -> {
            if ("endpoint".equals(type)) {
                announced(s, data);
            } else if (!s.ready.isDone()) {
                // 2024-11-05: the server MUST send the endpoint first; a stream that starts otherwise is not one of
                // this transport (a Streamable HTTP server's GET stream, say): say so now, not at the deadline
                throw new McpProtocolException("the first event of the SSE stream is not an endpoint event: not "
                        + "the HTTP+SSE transport of 2024-11-05");
            } else {
                messages.onEvent(type, data, id);
            }
        };
    }

    /** The stream announced its endpoint: resolved against the SSE URL, refused unless of the same origin. */
    private void announced(Stream s, String data) {
        if (s.ready.isDone()) {
            LOG.log(Level.WARNING, "SSE stream of {0} announced a second endpoint; ignored it", origin);
            return;
        }
        String ref = data.strip();
        URI uri;
        try {
            if (ref.isEmpty()) {
                throw new URISyntaxException(ref, "empty");
            }
            uri = settings.target.resolve(new URI(ref));
            String text = uri.toString();
            int hash = text.indexOf('#');
            if (hash >= 0) {
                uri = new URI(text.substring(0, hash));
            }
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new McpProtocolException("the endpoint event is not a URI reference");
        }
        if (!HttpSettings.sameOrigin(uri, settings.target)) {
            throw new McpTransportException("the SSE stream of " + origin + " announced an endpoint of another "
                    + "origin (" + originOrUnknown(uri) + "); refused: messages are only sent to the SSE URL's "
                    + "origin");
        }
        Exchange post = new Exchange(settings.withTarget(uri), closed);
        post.attach(exchange.client());
        s.post = post;
        s.endpoint = uri;
        LOG.log(Level.DEBUG, () -> "SSE stream of " + origin + " announced its endpoint");
        s.ready.complete(s);
    }

    private static String originOrUnknown(URI uri) {
        try {
            return uri.getScheme() == null || uri.getHost() == null ? "no host" : HttpSettings.originOf(uri);
        } catch (RuntimeException e) {
            return "unreadable";
        }
    }

    /**
     * A stream ended: it is no longer current, whoever waits for its endpoint learns why, and the requests POSTed
     * for it fail (their answers can no longer come: the protocol cannot resume a stream).
     */
    private void lost(Stream s, McpException readFailure) {
        McpException cause = s.dropReason != null ? s.dropReason : readFailure;
        boolean announced = s.ready.isDone() && !s.ready.isCompletedExceptionally();
        boolean inSession;
        lock.lock();
        try {
            if (current == s) {
                current = null;
            }
            inSession = sessionStarted && announced;
        } finally {
            lock.unlock();
        }
        String why = cause == null ? "the server ended it" : cause.getMessage();
        String prefix = "SSE stream of " + origin + ": ";
        if (why.startsWith(prefix)) {
            why = why.substring(prefix.length()); // readSse names the stream; the message below does already
        }
        McpException failure;
        if (closed.get()) {
            failure = exchange.closedNow("the SSE stream was closed");
        } else if (!announced) {
            failure = cause != null ? cause : new McpTransportException("the SSE stream of " + origin
                    + " ended before it announced an endpoint");
        } else if (inSession) {
            failure = new McpSessionExpiredException("the SSE stream of " + origin + " was lost (" + why
                    + "); protocol 2024-11-05 cannot resume it, so its session ended");
        } else {
            failure = new McpTransportException("the SSE stream of " + origin + " was lost (" + why + ")", cause);
        }
        s.lossFailure = failure;
        s.lost = true;
        s.ready.completeExceptionally(failure); // no-op once announced: requests then see lost
        if (closed.get() || !announced) {
            return;
        }
        int failed = 0;
        TransportSink k = sink;
        for (var e : pending.entrySet()) {
            if (e.getValue().stream == s && pending.remove(e.getKey(), e.getValue())) {
                failed++;
                if (k != null) {
                    k.onSendFailed(e.getKey(), failure);
                }
            }
        }
        LOG.log(Level.WARNING, "SSE stream of {0} lost ({1}); {2} call(s) in flight failed{3}", origin, why, failed,
                inSession ? "; the next call starts a new session" : "");
        if (inSession && failed == 0 && s.dropReason == null) { // a dropped stream's request said so already
            lock.lock();
            try {
                if (current == null) {
                    expiryOwed = (McpSessionExpiredException) failure;
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * The server refused a POST with 404: it no longer knows the session the stream's endpoint names (it restarted,
     * or dropped the session), so the stream is ended as lost (the next request opens a new one) and the request
     * fails as the stream's requests in flight do.
     */
    void sessionUnknown(RequestId id, Pending p, Stream s, McpHttpStatusException refused) {
        s.dropReason = new McpTransportException("the server answered a POST with HTTP 404: it no longer knows the "
                + "session", refused);
        s.call.abort();
        boolean inSession;
        lock.lock();
        try {
            inSession = sessionStarted;
        } finally {
            lock.unlock();
        }
        fail(id, p, inSession ? new McpSessionExpiredException(refused.getMessage() + ": the server no longer "
                + "knows the session of " + origin + " (the client starts a new one)") : refused);
    }

    /** Registers a request in flight, before its stream is known. */
    Pending expect(RequestId id) {
        Pending p = new Pending();
        pending.put(id, p);
        return p;
    }

    /** Forgets a request the client no longer waits for. */
    void forget(RequestId id, Pending p) {
        pending.remove(id, p);
    }

    /** Fails a request in flight, once. */
    void fail(RequestId id, Pending p, McpException cause) {
        TransportSink k = sink;
        if (pending.remove(id, p) && k != null) {
            k.onSendFailed(id, cause);
        }
    }

    /** After a request's POST: when its stream was lost meanwhile (the loss missed it), fails it now. */
    void checkStillOpen(RequestId id, Pending p, Stream s) {
        if (s.lost) {
            fail(id, p, s.lossFailure);
        }
    }

    /** A session started: a stream lost from now on ends it. */
    void handshakeCompleted() {
        lock.lock();
        try {
            sessionStarted = true;
            expiryOwed = null;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Ends the current stream and waits (bounded) for every reader thread.
     *
     * @return whether the calling thread was interrupted while waiting
     */
    boolean close() {
        Stream s;
        lock.lock();
        try {
            s = current;
            current = null;
        } finally {
            lock.unlock();
        }
        if (s != null) {
            s.call.abort();
            s.ready.completeExceptionally(exchange.closedNow("closed while opening"));
        }
        List<Thread> threads = List.copyOf(readers);
        threads.forEach(Thread::interrupt);
        return settings.threads.joinAll(threads, Deadline.after(Duration.ofMillis(HttpSettings.CLOSE_TIMEOUT_MILLIS)));
    }

}
