package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.Exchange.LOG;

import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The step that sends a request again after a refusal ({@link RetryPolicy}: 429, or 503 with {@code Retry-After}),
 * when the policy allows: closes the refusal and waits (the call's abort or completion ends the wait at once, an
 * interrupt throws). When it does not send again it records why on the call ({@link Call#rateLimited}, for
 * {@link ErrorAnswer#statusFailure}) and returns the refusal as it is, for the caller's error handling. The sends of
 * one exchange are counted across redirects and authorization retries ({@link Call#sends}).
 */
final class RefusalRetry implements Step {

    private final Exchange exchange;
    private final Step next;

    RefusalRetry(Exchange exchange, Step next) {
        this.exchange = exchange;
        this.next = next;
    }

    @Override
    public HttpResponse<StreamBody> send(Call call, URI uri, Headers headers) throws InterruptedException {
        while (true) {
            call.sends++;
            HttpResponse<StreamBody> resp = next.send(call, uri, headers);
            int status = resp.statusCode();
            if ((status != 429 && status != 503) || !waitToSendAgain(call, resp)) {
                return resp;
            }
        }
    }

    /** Whether the refusal {@code resp} is to be sent again: then it was closed and the wait is over. */
    private boolean waitToSendAgain(Call call, HttpResponse<StreamBody> resp) throws InterruptedException {
        int status = resp.statusCode();
        Duration retryAfter = RetryPolicy.retryAfter(resp.headers());
        if (!RetryPolicy.isRefusal(status, retryAfter)) {
            return false; // a 503 without Retry-After: an outage of unknown length, reported at once
        }
        int sent = call.sends;
        long wait = RetryPolicy.waitMillis(retryAfter, sent);
        String giveUp = RetryPolicy.giveUp(retryAfter, sent, wait, call.bound());
        if (giveUp != null) {
            call.rateLimited = new Call.RateLimit(retryAfter, sent, giveUp);
            return false;
        }
        resp.body().close();
        LOG.log(Level.DEBUG, () -> call.what + ": " + exchange.origin() + " answered HTTP " + status
                + (retryAfter == null ? "" : " with Retry-After " + RetryPolicy.describe(retryAfter))
                + "; sending it again in " + wait + " ms (" + sent + " of " + RetryPolicy.MAX_SENDS + ")");
        if (!call.sleep(wait, dev.loommcp.Deadline.NONE) || call.completed()) {
            throw exchange.aborted(call); // cancelled, timed out (the core aborts a call at its deadline) or closed
        }
        return true;
    }
}
