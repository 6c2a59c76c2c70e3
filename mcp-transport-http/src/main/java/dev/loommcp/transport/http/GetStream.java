package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.Exchange.EMPTY;
import static dev.loommcp.transport.http.Exchange.LOG;
import static dev.loommcp.transport.http.Exchange.mediaType;
import static dev.loommcp.transport.http.HttpSettings.CLOSE_TIMEOUT_MILLIS;
import static dev.loommcp.transport.http.HttpSettings.MAX_STREAM_ATTEMPTS;

import dev.loommcp.McpException;
import dev.loommcp.Deadline;
import dev.loommcp.transport.http.ResponseStream.Outcome;
import java.lang.System.Logger.Level;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Supervises the optional GET stream, on which the server sends messages it starts on its own: one thread
 * ({@code mcp-http-get-<n>}) opens it once the handshake is done, reads it, and reconnects it with backoff (at most
 * {@link HttpSettings#MAX_STREAM_ATTEMPTS} times in a row without receiving anything; a quiet stream that hits the
 * idle timeout is healthy); 405, 404 or 400 mean the server offers none. Thread-safe; it never refers to the
 * transport object.
 */
final class GetStream {

    private final HttpSettings settings;
    private final String origin;
    private final Exchange exchange;
    private final ResponseStream responses;
    private final Inbound inbound;
    private final AtomicReference<HttpSession> session;
    private final AtomicBoolean opened;
    private final AtomicBoolean closed;

    private volatile boolean wanted;
    private final ReentrantLock streamLock = new ReentrantLock();
    private Thread getThread;
    private Call getCall;

    GetStream(HttpSettings settings, Exchange exchange, ResponseStream responses, Inbound inbound,
              AtomicReference<HttpSession> session, AtomicBoolean opened, AtomicBoolean closed) {
        this.settings = settings;
        this.origin = settings.origin;
        this.exchange = exchange;
        this.responses = responses;
        this.inbound = inbound;
        this.session = session;
        this.opened = opened;
        this.closed = closed;
    }

    /** The handshake is done: from now on the stream is wanted; it starts now, in the background. */
    void handshakeDone() {
        wanted = true;
        start();
    }

    /**
     * A new session started: when the stream is wanted, stops the old session's stream and starts one in the new
     * session. Keeps the calling thread's interrupt status (a stop that was interrupted sets it again).
     */
    void sessionRestarted() {
        if (wanted) {
            if (stop()) {
                Thread.currentThread().interrupt();
            }
            start();
        }
    }

    private void start() {
        streamLock.lock();
        try {
            if (closed.get() || !opened.get() || getThread != null) {
                return;
            }
            Call call = new Call(null, "GET stream");
            getCall = call;
            getThread = settings.threads.start("http-get", () -> run(call));
        } finally {
            streamLock.unlock();
        }
    }

    /**
     * Stops the GET stream and waits (bounded) for its thread.
     *
     * @return whether the calling thread was interrupted while waiting (the caller restores the status)
     */
    boolean stop() {
        Thread t;
        Call c;
        streamLock.lock();
        try {
            t = getThread;
            c = getCall;
            getThread = null;
            getCall = null;
        } finally {
            streamLock.unlock();
        }
        if (c != null) {
            c.abort();
        }
        if (t != null && t != Thread.currentThread()) {
            t.interrupt();
            return BoundedWait.run(() -> t.join(Duration.ofMillis(CLOSE_TIMEOUT_MILLIS)), "the GET stream's thread",
                    origin);
        }
        return false;
    }

    private void run(Call call) {
        String lastId = null;
        long retry = -1;
        int failures = 0;
        try {
            while (!closed.get() && !call.aborted()) {
                try {
                    HttpSession current = session.get();
                    if (current.expired()) {
                        return; // the session expired: the stream starts again in the next one (sessionRestarted)
                    }
                    HttpResponse<StreamBody> resp = exchange.send(call, "GET", EMPTY,
                            current.streamHeaders(lastId), Deadline.NONE);
                    int status = resp.statusCode();
                    if (status == 404 && current.id() != null) {
                        resp.body().close();
                        // the server no longer knows the session: the next request starts a new one, without
                        // first going out with no session; the stream starts again in it (sessionRestarted)
                        LegacyDialect.sessionExpired(session, current, "GET stream", 404, origin);
                        return;
                    }
                    if (status == 405 || status == 404 || status == 400) {
                        resp.body().close();
                        LOG.log(Level.DEBUG, () -> "server at " + origin + " offers no GET stream (HTTP " + status
                                + ")");
                        return;
                    }
                    if (status < 200 || status >= 300) {
                        resp.body().close();
                        failures++;
                        LOG.log(Level.DEBUG, () -> "GET stream answered HTTP " + status);
                    } else if (!mediaType(resp).equals("text/event-stream")) {
                        resp.body().close();
                        LOG.log(Level.WARNING, "GET stream of {0} answered HTTP {1} without an SSE stream; not using it",
                                origin, status);
                        return;
                    } else {
                        SseParser parser = new SseParser(settings.maxMessageBytes, lastId,
                                inbound.listener("GET stream", lastId != null));
                        Outcome outcome = Outcome.ENDED;
                        try {
                            outcome = responses.readSse(call, resp.body(), parser, () -> false, "GET stream", false,
                                    Deadline.NONE);
                        } finally {
                            lastId = parser.lastEventId();
                            if (parser.retryMillis() >= 0) {
                                retry = parser.retryMillis();
                            }
                        }
                        // a quiet stream that hit the idle timeout is healthy: reconnect without counting a failure
                        failures = parser.dispatches() > 0 || outcome == Outcome.IDLE ? 0 : failures + 1;
                    }
                } catch (McpHttpStatusException e) {
                    LOG.log(Level.WARNING, "GET stream of {0} stopped: {1}", origin, e.getMessage());
                    return;
                } catch (McpException e) {
                    failures++;
                    LOG.log(Level.DEBUG, () -> "GET stream broke: " + e.getMessage());
                } catch (RuntimeException e) {
                    // a fault of ours or of the sink: say so, and count it like a broken stream (bounded retries)
                    failures++;
                    LOG.log(Level.WARNING, "GET stream of " + origin + " failed unexpectedly; reconnecting", e);
                }
                if (closed.get() || call.aborted()) {
                    return;
                }
                if (failures > MAX_STREAM_ATTEMPTS) {
                    LOG.log(Level.WARNING, "GET stream of {0} lost after {1} attempts; messages the server starts "
                            + "on its own will not arrive", origin, MAX_STREAM_ATTEMPTS);
                    return;
                }
                long delay = settings.reconnectMillis(retry, Math.max(1, failures));
                if (!call.sleep(delay, Deadline.NONE)) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            // stopped
        } catch (RuntimeException | Error e) {
            LOG.log(Level.WARNING, "GET stream of " + origin + " ended by an unexpected failure; messages the server "
                    + "starts on its own will not arrive", e);
            throw e;
        } finally {
            call.release();
        }
    }
}
