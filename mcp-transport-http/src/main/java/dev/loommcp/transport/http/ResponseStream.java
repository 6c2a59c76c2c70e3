package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.Exchange.EMPTY;
import static dev.loommcp.transport.http.Exchange.LOG;
import static dev.loommcp.transport.http.Exchange.mediaType;
import static dev.loommcp.transport.http.Exchange.throwIfPast;
import static dev.loommcp.transport.http.Exchange.traceBody;
import static dev.loommcp.transport.http.HeaderRules.LAST_EVENT_ID_HEADER;
import static dev.loommcp.transport.http.HttpSettings.MAX_STREAM_ATTEMPTS;

import dev.loommcp.McpProtocolException;
import dev.loommcp.McpSessionExpiredException;
import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.Deadline;
import dev.loommcp.spi.SendContext;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * Reads response bodies: a request's JSON answer, a request's SSE stream (resumed with {@code GET} and
 * {@code Last-Event-ID} when it ends before the response, SEP-1699), and any SSE stream for the GET stream and the
 * session restart, with the idle timeout and the send's deadline on every wait. What the bodies carry goes to
 * {@link Inbound}, which drops what a resumed stream repeats. Thread-safe; it never refers to the transport object.
 */
final class ResponseStream {

    /** How reading an SSE stream ended. */
    enum Outcome {
        /** What the reader waited for arrived. */
        DONE,
        /** The stream ended (or broke) first. */
        ENDED,
        /** The idle timeout passed (only when idleness is not a failure). */
        IDLE
    }

    private final HttpSettings settings;
    private final Exchange exchange;
    private final Inbound inbound;
    private final AtomicReference<HttpSession> session;

    ResponseStream(HttpSettings settings, Exchange exchange, Inbound inbound, AtomicReference<HttpSession> session) {
        this.settings = settings;
        this.exchange = exchange;
        this.inbound = inbound;
        this.session = session;
    }

    /**
     * Reads a request's SSE answer until its response arrives, resuming the stream when it ends early.
     *
     * @param postedIn the session the request was POSTed in: a resumption goes out in it only
     */
    void readRequestStream(Call call, StreamBody body, SendContext ctx, HttpSession postedIn)
            throws InterruptedException {
        SseParser parser = new SseParser(settings.maxMessageBytes, null,
                inbound.listener("response stream of " + call.what, false));
        Outcome outcome = readSse(call, body, parser, call::completed, "response stream of " + call.what, true,
                ctx.deadline());
        if (outcome == Outcome.DONE) {
            return;
        }
        resume(call, parser.lastEventId(), parser.retryMillis(), ctx, postedIn);
    }

    /**
     * Reads a modern-era request's SSE answer (MCP 2026-07-28 "Streamable HTTP: receiving messages"): the
     * notifications for the request, then its response; comments are ignored, event ids mean nothing, and a server
     * request is dropped (servers send none in this era). A stream that ends without the response is not resumed
     * (streams are not resumable in this era): the request is lost at once.
     *
     * @throws McpTransportException when the stream ends or breaks before the response
     */
    void readModernStream(Call call, StreamBody body) throws InterruptedException {
        String what = "response stream of " + call.what;
        SseParser parser = new SseParser(settings.maxMessageBytes, null, inbound.modernListener(what)).ignoreIds();
        Outcome outcome = readSse(call, body, parser, call::completed, what, true, call.deadline);
        if (outcome != Outcome.DONE) {
            throw new McpTransportException(call.what + ": the response stream ended before the response (streams "
                    + "cannot be resumed in protocol 2026-07-28; the request is lost)");
        }
    }

    /** Resumes a request's response stream with GET + Last-Event-ID until the response arrives (SEP-1699). */
    private void resume(Call call, String lastEventId, long retryMillis, SendContext ctx, HttpSession postedIn)
            throws InterruptedException {
        int attempts = 0;
        String lastId = lastEventId;
        long retry = retryMillis;
        while (!call.completed()) {
            if (lastId == null) {
                throw new McpTransportException(call.what + ": the response stream ended before the response, and "
                        + "the server sent no event id to resume it from");
            }
            if (++attempts > MAX_STREAM_ATTEMPTS) {
                throw new McpTransportException(call.what + ": the response stream could not be resumed after "
                        + MAX_STREAM_ATTEMPTS + " attempts");
            }
            long delay = settings.reconnectMillis(retry, attempts);
            LOG.log(Level.DEBUG, () -> call.what + ": response stream ended early; resuming in " + delay + " ms");
            String waiting = "waiting " + delay + " ms to resume the response stream" + (retry >= 0
                    ? " (the server's SSE retry, which is capped at " + HttpSettings.MAX_SERVER_RETRY_MILLIS + " ms)"
                    : "");
            ctx.waitingFor(waiting); // stays set when the call ends meanwhile: its timeout then says so
            if (!call.sleep(delay, ctx.deadline())) {
                throw exchange.aborted(call);
            }
            if (call.completed()) {
                return;
            }
            throwIfPast(call, ctx.deadline(), waiting);
            ctx.waitingFor(null);
            String what = call.what + " resumption";
            HttpSession current = session.get();
            if (current.expired() || postedIn.id() != null && !postedIn.id().equals(current.id())) {
                // the request's session expired meanwhile (another request learned it): its stream is gone with it
                throw new McpSessionExpiredException(what + " not sent: the session the request was sent in "
                        + "expired");
            }
            HttpResponse<StreamBody> resp = exchange.send(call, "GET", EMPTY, current.streamHeaders(lastId),
                    ctx.deadline());
            int status = resp.statusCode();
            if (status == 404 && current.id() != null) {
                resp.body().close(); // a server restarted since: the session expired, as for a POST
                throw LegacyDialect.sessionExpired(session, current, what + " (GET with Last-Event-ID)", 404,
                        settings.origin);
            }
            if (status < 200 || status >= 300) {
                throw exchange.errors.statusFailure(call, resp, null,
                        what + " (GET with Last-Event-ID) failed with HTTP " + status);
            }
            if (!mediaType(resp).equals("text/event-stream")) {
                resp.body().close();
                throw new McpProtocolException(what + " was answered with HTTP " + status + " but not an SSE stream");
            }
            SseParser parser = new SseParser(settings.maxMessageBytes, lastId,
                    inbound.listener("resumed stream of " + call.what, true));
            Outcome outcome = readSse(call, resp.body(), parser, call::completed, what, true, ctx.deadline());
            if (outcome == Outcome.DONE) {
                return;
            }
            if (parser.dispatches() > 0) {
                attempts = 0;
            }
            lastId = parser.lastEventId();
            if (parser.retryMillis() >= 0) {
                retry = parser.retryMillis();
            }
        }
    }

    /**
     * Reads a JSON answer and delivers every message it holds.
     *
     * @param declaredLength the answer's {@code Content-Length} (already checked to be valid), or -1 without one: a
     *                       length over the message limit fails at once, as the body would once read that far
     */
    void readJsonAnswer(Call call, StreamBody body, long declaredLength, Deadline deadline)
            throws InterruptedException {
        if (declaredLength > settings.maxMessageBytes && !body.encoded()) { // compressed: the decoded size counts
            body.close();
            throw tooLarge(call, settings.maxMessageBytes);
        }
        byte[] bytes = readAll(call, body, settings.maxMessageBytes, deadline);
        traceBody("received", call.what, bytes);
        List<JsonRpcMessage> messages;
        try {
            messages = settings.framing.decode(bytes, 0, bytes.length);
        } catch (McpProtocolException e) {
            throw new McpProtocolException(call.what + ": malformed JSON answer: " + e.getMessage(), e);
        }
        for (JsonRpcMessage m : messages) {
            inbound.deliver(m, false);
        }
    }

    /**
     * Reads an SSE body until {@code done} holds or the stream ends.
     *
     * @param failOnIdle whether an idle timeout fails (request streams) or just ends the stream (GET stream)
     */
    Outcome readSse(Call call, StreamBody body, SseParser parser, BooleanSupplier done, String what,
                    boolean failOnIdle, Deadline deadline) throws InterruptedException {
        try {
            while (true) {
                if (done.getAsBoolean()) {
                    return Outcome.DONE;
                }
                ByteBuffer b = body.read(settings.waitNanos(call, deadline));
                if (b == null) {
                    LOG.log(Level.DEBUG, () -> what + " ended");
                    return done.getAsBoolean() ? Outcome.DONE : Outcome.ENDED;
                }
                parser.feed(b);
            }
        } catch (McpProtocolException e) {
            throw new McpProtocolException(what + ": " + e.getMessage(), e); // an event over the size limit
        } catch (StreamBody.CodingException e) {
            // not a stream that broke: resuming or reopening it would be answered the same way
            throw new McpTransportException(what + ": " + e.getMessage(), e);
        } catch (StreamBody.ClosedException e) {
            if (done.getAsBoolean()) {
                return Outcome.DONE;
            }
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedException();
            }
            throw exchange.aborted(call);
        } catch (StreamBody.IdleTimeoutException e) {
            throwIfPast(call, deadline, "reading the " + what);
            if (failOnIdle) {
                throw new McpTransportException(what + ": no data for " + settings.idleTimeout.toMillis()
                        + " ms (idle timeout)");
            }
            LOG.log(Level.DEBUG, () -> what + ": idle for " + settings.idleTimeout.toMillis() + " ms; reconnecting");
            return Outcome.IDLE;
        } catch (IOException e) {
            LOG.log(Level.DEBUG, () -> what + " broke: " + e.getClass().getSimpleName());
            return done.getAsBoolean() ? Outcome.DONE : Outcome.ENDED;
        } finally {
            if (done.getAsBoolean()) {
                body.finish(); // the answer came: the rest of the body may go by, keeping the connection
            } else {
                body.close();
            }
            if (parser.unsendableIds() > 0) {
                LOG.log(Level.WARNING, "{0} of {1}: {2} SSE event id(s) cannot be sent back as {3} (control or "
                        + "non-ASCII characters); treated as none", what, settings.origin, parser.unsendableIds(),
                        LAST_EVENT_ID_HEADER);
            }
        }
    }

    /** The failure of an answer larger than {@code max} bytes (said the same whether declared or read). */
    private static McpProtocolException tooLarge(Call call, int max) {
        return new McpProtocolException(call.what + ": " + new StreamBody.TooLargeException(max).getMessage());
    }

    /** Reads a whole body of at most {@code max} bytes, mapping its failures to the client's exceptions. */
    byte[] readAll(Call call, StreamBody body, int max, Deadline deadline) throws InterruptedException {
        try {
            byte[] all = body.readAll(max, () -> settings.waitNanos(call, deadline));
            body.finish(); // read to its end: nothing to cancel, the connection stays
            return all;
        } catch (StreamBody.ClosedException e) {
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedException();
            }
            throw exchange.aborted(call);
        } catch (StreamBody.IdleTimeoutException e) {
            throwIfPast(call, deadline, "reading the answer");
            throw new McpTransportException(call.what + ": no data for " + settings.idleTimeout.toMillis()
                    + " ms (idle timeout)");
        } catch (StreamBody.TooLargeException e) {
            throw tooLarge(call, max);
        } catch (StreamBody.CodingException e) {
            throw new McpTransportException(call.what + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new McpTransportException(call.what + ": reading the answer failed (" + Exchange.reason(e) + ")", e);
        } finally {
            body.close();
        }
    }

}
