package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.Exchange.WIRE;

import dev.loommcp.McpTransportException;
import dev.loommcp.internal.net.ContentCoding;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The last step of an exchange: builds the request (the caller's headers as the earlier steps left them, then the
 * transport's own), hands it to the {@link HttpClient} and waits for the response headers, at most until the call's
 * deadline, abortable through the {@link Call}. A call whose exchange runs on the caller's thread uses the client's
 * blocking {@code send}, any other {@code sendAsync}. A failure at or after the deadline is the call's timeout, never
 * a transport failure; other failures are mapped by {@link Exchange#ioFailure}.
 */
final class Transmit implements Step {

    private final Exchange exchange;
    private final HttpSettings settings;

    Transmit(Exchange exchange, HttpSettings settings) {
        this.exchange = exchange;
        this.settings = settings;
    }

    /**
     * Hands the request to the client and returns its response headers. A call whose exchange runs on the caller's
     * thread uses the blocking {@link HttpClient#send} right here (the path of a request whose caller waits:
     * {@code send} runs the exchange's first steps, connection from the pool and writing the request, on this thread
     * and completes it from the thread that parsed the response, where {@code sendAsync} hands the start to the
     * executor and the completion to the common pool: two thread hand-offs less per request). The request's timeout
     * (set from the deadline) bounds the wait for the headers; an abort or completion of the call interrupts this
     * thread while it is in {@code send} ({@link Call#enterSend}), which cancels the exchange; that interrupt is
     * cleared again, an interrupt from anyone else is kept and ends the call as an interrupt. A fixed-length JSON
     * answer is taken in whole before {@code send} returns when the deadline bounds it ({@link #wholeLimit}): the
     * caller is woken once, not for the headers and again for the body (measured in docs/benchmarks.md). Any other
     * call goes through {@link #sendAsync}.
     */
    @Override
    public HttpResponse<StreamBody> send(Call call, URI uri, Headers headers) throws InterruptedException {
        HttpRequest request = request(call, uri, headers);
        HttpClient c = exchange.client();
        if (!call.onCallersThread) {
            return received(call, sendAsync(c, call, request));
        }
        if (!call.enterSend()) {
            throw exchange.aborted(call);
        }
        HttpResponse<StreamBody> resp = null;
        Exception failure = null;
        try {
            resp = c.send(request, bodyOf(call, wholeLimit(call)));
        } catch (InterruptedException | IOException | RuntimeException e) {
            failure = e;
        } finally {
            if (call.leaveSend()) {
                // the call's own interrupt: consumed by send's InterruptedException, or cleared here
                if (!(failure instanceof InterruptedException)) {
                    Thread.interrupted();
                }
                if (resp != null) {
                    resp.body().close();
                }
                failure = null;
                resp = null;
            }
        }
        if (resp != null) {
            return received(call, resp);
        }
        if (failure == null) {
            throw exchange.aborted(call); // aborted or completed meanwhile: the caller tells which
        }
        if (failure instanceof InterruptedException ie) {
            throw ie;
        }
        // a RuntimeException from send is the answer's (our requests are built by HttpRequest.Builder, which
        // refuses what send would): a Content-Length that is not a number, for one; it goes the I/O failure's way
        if (call.aborted()) {
            throw exchange.aborted(call);
        }
        if (Exchange.past(call.deadline)) {
            throw Exchange.timedOut(call, "waiting for response headers");
        }
        throw exchange.ioFailure(call, failure);
    }

    /** The response headers as received: fails an answer whose framing the body handler found wrong. */
    private HttpResponse<StreamBody> received(Call call, HttpResponse<StreamBody> resp) {
        String problem = call.takeAnswerProblem();
        if (problem != null) {
            resp.body().close();
            throw exchange.notHttp(call, problem, null);
        }
        if (WIRE.isLoggable(Level.DEBUG)) {
            WIRE.log(Level.DEBUG, call.what + ": HTTP " + resp.statusCode() + " " + Exchange.mediaType(resp));
        }
        return resp;
    }

    /**
     * Builds the request: method and body, the header timeout from the deadline (none for an unbounded call), the
     * caller's headers as the earlier steps left them, then the transport's own. Fails when the call was aborted
     * meanwhile.
     */
    private HttpRequest request(Call call, URI uri, Headers headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri)
                .method(call.method, call.requestBody.length == 0 && !"POST".equals(call.method)
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(call.requestBody));
        if (!call.unbounded) {
            b.timeout(settings.headerTimeout(call.deadline));
        }
        try {
            headers.addTo(b);
            call.headers.addTo(b);
        } catch (IllegalArgumentException e) {
            // the header rules keep out what the client refuses; this guard keeps its message (which may quote a
            // value) from ever reaching the caller
            throw new McpTransportException(call.what + ": the HTTP client refused a header of the request");
        }
        HttpRequest request = b.build();
        if (WIRE.isLoggable(Level.DEBUG)) {
            WIRE.log(Level.DEBUG, call.what + ": " + call.method + " " + exchange.origin()
                    + (call.hop > 0 ? " (redirect " + call.hop + ")" : ""));
        }
        Exchange.traceBody("sent", call.what, call.requestBody);
        call.takeAnswerProblem(); // nothing of an earlier response of this call counts
        if (call.aborted()) {
            throw exchange.aborted(call);
        }
        return request;
    }

    /**
     * Sends on the client's executor and waits for the response headers, at most until the deadline.
     */
    private HttpResponse<StreamBody> sendAsync(HttpClient c, Call call, HttpRequest request)
            throws InterruptedException {
        CompletableFuture<HttpResponse<StreamBody>> future;
        try {
            future = c.sendAsync(request, bodyOf(call, -1));
        } catch (RuntimeException e) {
            throw new McpTransportException(call.what + ": the HTTP client refused the request ("
                    + e.getClass().getSimpleName() + ")", e);
        }
        call.attach(future);
        try {
            if (call.deadline.isNone()) {
                return future.get();
            }
            return future.get(call.deadline.remainingNanos(), TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            future.cancel(true);
            throw Exchange.timedOut(call, "waiting for response headers");
        } catch (InterruptedException e) {
            future.cancel(true);
            throw e;
        } catch (CancellationException e) {
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedException();
            }
            throw exchange.aborted(call);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (call.aborted()) {
                if (Thread.currentThread().isInterrupted()) {
                    throw new InterruptedException();
                }
                throw exchange.aborted(call);
            }
            if (Exchange.past(call.deadline)) {
                throw Exchange.timedOut(call, "waiting for response headers");
            }
            throw exchange.ioFailure(call, cause);
        }
    }

    /**
     * How large a JSON answer the blocking {@link #send} takes in whole, or -1 for none. Only a call whose deadline
     * comes within one idle period: the client's request timer stops at the response headers, so a body that stalls
     * inside {@code send} is bounded by nothing of the transport's own; the core cancels a request whose caller waits
     * at its deadline ({@link dev.loommcp.spi.SendContext#callerWaits()}), which ends that {@code send}
     * ({@link Call#abort()} interrupts it and closes the body), and a deadline within the idle period ends a stall no
     * later than the idle timeout would have (the same timeout the streamed read reports when the deadline is the
     * nearer bound).
     */
    private long wholeLimit(Call call) {
        if (call.unbounded || call.deadline.isNone() || call.deadline.remainingNanos() > settings.idleNanos()) {
            return -1;
        }
        return settings.maxMessageBytes;
    }

    /**
     * The body handler of every request of {@code call}: a {@link StreamBody} the call can close, taken in
     * {@linkplain StreamBody#StreamBody(boolean) whole first} when {@link Exchange#readsWhole} says so for
     * {@code wholeLimit}.
     */
    private static HttpResponse.BodyHandler<StreamBody> bodyOf(Call call, long wholeLimit) {
        return info -> {
            String problem = Exchange.contentLengthProblem(info.headers());
            if (problem != null) {
                call.answerProblem(problem); // the exchange fails with it, whatever the client does next
            }
            // a compressed answer (whatever was asked for: proxies compress anyway) is decoded as it is read
            StreamBody body = new StreamBody(problem == null && Exchange.readsWhole(info, wholeLimit),
                    ContentCoding.of(info.headers().firstValue("Content-Encoding").orElse(null)));
            call.attach(body);
            return body;
        };
    }
}
