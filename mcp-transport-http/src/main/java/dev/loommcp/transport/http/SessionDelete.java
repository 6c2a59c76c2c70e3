package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.Exchange.EMPTY;
import static dev.loommcp.transport.http.Exchange.LOG;

import dev.loommcp.McpException;
import dev.loommcp.Deadline;
import java.lang.System.Logger.Level;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/**
 * The session {@code DELETE} that {@link HttpTransport#close()} sends: on its own thread, bounded by
 * {@link HttpTransport#CLOSE_TIMEOUT}, any answer accepted.
 */
final class SessionDelete {

    private static final Duration CLOSE_TIMEOUT = Duration.ofMillis(HttpSettings.CLOSE_TIMEOUT_MILLIS);

    private SessionDelete() {
    }

    /**
     * Sends the DELETE on its own thread and waits for it at most {@link HttpTransport#CLOSE_TIMEOUT} (plus a little
     * for it to unwind): a request signer is user code and may block, which must not hold
     * {@link HttpTransport#close()}.
     *
     * @return whether the closing thread was interrupted while waiting
     */
    static boolean sendBounded(HttpSettings settings, Exchange exchange, HttpSession last) {
        Call call = new Call(null, "DELETE session");
        Thread t = settings.threads.start("http-delete", () -> send(settings, exchange, last, call));
        boolean interrupted = settings.threads.joinAll(List.of(t),
                Deadline.after(CLOSE_TIMEOUT.plusMillis(500)));
        if (t.isAlive()) {
            LOG.log(Level.WARNING, "{0} of {1} did not stop in time", "the session DELETE", settings.origin);
            call.abort();
            t.interrupt();
        }
        return interrupted;
    }

    private static void send(HttpSettings settings, Exchange exchange, HttpSession last, Call call) {
        try {
            HttpResponse<StreamBody> resp = exchange.send(call, "DELETE", EMPTY, last.deleteHeaders(),
                    Deadline.after(CLOSE_TIMEOUT));
            int status = resp.statusCode();
            resp.body().close();
            LOG.log(Level.DEBUG, () -> "DELETE session answered HTTP " + status
                    + (status == 405 ? " (the server does not end sessions on request)"
                    : status == 404 ? " (the server no longer knows the session: it expired already)" : ""));
        } catch (InterruptedException e) {
            // close() gave up waiting
        } catch (McpException e) {
            LOG.log(Level.DEBUG, () -> "DELETE session failed: " + e.getMessage());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "DELETE session with " + settings.origin + " failed unexpectedly", e);
        } finally {
            call.abort();
        }
    }
}
