package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.HttpSettings.TIMER_SLACK_NANOS;

import dev.loommcp.McpClosedException;
import dev.loommcp.McpException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpTransportException;
import dev.loommcp.Deadline;
import java.lang.System.Logger.Level;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The HTTP exchanges of a transport, from request to response headers: {@link #send} passes each request through
 * the chain of {@link Step}s built once for the transport's settings ({@link Authorization}'s 401/403 retry,
 * {@link Redirects}, {@link RefusalRetry}, {@link Authorization.Credentials}, {@link Signing}, and {@link Transmit}
 * to the {@link HttpClient}); it maps failures (I/O, timeouts, closing) to the client's exceptions. The body is left
 * to the caller, except for one-way POSTs ({@link #postOneWay}), which it settles itself; non-2xx answers are
 * {@link ErrorAnswer}'s.
 *
 * <p>Thread-safe: one instance serves every exchange of a transport. It never refers to the transport object.
 */
final class Exchange {

    static final System.Logger LOG = System.getLogger("dev.loommcp.transport.http");
    static final System.Logger WIRE = System.getLogger("dev.loommcp.transport.http.wire");
    static final byte[] EMPTY = new byte[0];

    private final HttpSettings settings;
    private final String origin;
    private final AtomicBoolean closed;
    private volatile HttpClient client;

    /**
     * The first step of every request ({@link Step}): the chain built for these settings. {@link #send} enters it;
     * a dialect's request POST enters it directly, with the call's request set ({@link Call#sending}).
     */
    final Step steps;
    /** The handling of non-2xx answers. */
    final ErrorAnswer errors;

    /**
     * @param settings the transport's settings
     * @param closed   the transport's closed flag: failures after closing are reported as closed
     */
    Exchange(HttpSettings settings, AtomicBoolean closed) {
        this.settings = settings;
        this.origin = settings.origin;
        this.closed = closed;
        this.errors = new ErrorAnswer(settings);
        Step s = new Transmit(this, settings);
        if (settings.signer != null) {
            s = new Signing(settings.signer, s);
        }
        if (settings.authorization != null) {
            s = new Authorization.Credentials(settings, settings.authorization, s);
        }
        s = new Redirects(settings, new RefusalRetry(this, s));
        this.steps = settings.authorization == null ? s : new Authorization(this, settings.authorization, s);
    }

    /** Sets the HTTP client, once, when the transport opens. */
    void attach(HttpClient c) {
        this.client = c;
    }

    /** The endpoint's origin ({@code scheme://host:port}): safe to log. */
    String origin() {
        return origin;
    }

    /** The HTTP client, or {@code null} before the transport opened. */
    HttpClient client() {
        return client;
    }

    /**
     * Sends one request to the endpoint through the chain of steps ({@link Step}: authorization, redirects, refusals,
     * credentials, signing, the client); the returned response is not a redirect, its body not read.
     *
     * @param headers  the transport's own headers of the request (session or routing, Accept...)
     * @param deadline the send's deadline: the wait for the headers ends there
     */
    HttpResponse<StreamBody> send(Call call, String method, byte[] body, Headers headers, Deadline deadline)
            throws InterruptedException {
        call.sending(method, body, headers, deadline);
        return steps.send(call, settings.target, settings.headers);
    }

    /**
     * POSTs a notification or response and accepts any 2xx without reading its body.
     *
     * @param headers   the transport's headers of the POST (the session's, or a modern-era POST's routing)
     * @param inSession whether the POST carries a session id: then a 404 says the session expired
     * @throws McpHttpStatusException on any other status (404 while in a session: the session expired)
     */
    void postOneWay(Call call, byte[] body, Headers headers, boolean inSession, Deadline deadline)
            throws InterruptedException {
        HttpResponse<StreamBody> resp = send(call, "POST", body, headers, deadline);
        int status = resp.statusCode();
        if (status >= 200 && status < 300) {
            // 202 is the rule. A body (some servers answer every POST with JSON, a broken one with an SSE stream that
            // never ends) carries nothing for a notification or response: it is not read, so it cannot hold the
            // sender past its deadline.
            if (status != 202 && status != 204) {
                LOG.log(Level.DEBUG, () -> call.what + ": HTTP " + status + " body ignored");
            }
            call.complete(); // its body is dropped as it comes (bounded), so that the connection can be kept
            return;
        }
        if (status == 404 && inSession) {
            resp.body().close();
            throw new McpHttpStatusException(404, call.what + " failed with HTTP 404: the session expired",
                    List.of());
        }
        // a one-way message has no answer: an error body (whatever its id) is never delivered as one
        errors.failOrDeliver(call, resp, null, null, null, false);
    }

    /** Maps an I/O failure of the HTTP client to the client's exceptions. */
    McpException ioFailure(Call call, Throwable cause) {
        String what = call.what;
        String problem = call.takeAnswerProblem();
        if (problem != null) {
            // the body handler saw the framing fault that made the client fail (a Content-Length that is no number)
            return notHttp(call, problem, cause);
        }
        if (cause instanceof HttpConnectTimeoutException) {
            return new McpTransportException(what + ": connecting to " + origin + " timed out", cause);
        }
        if (cause instanceof HttpTimeoutException) {
            call.serverHasRequest = true; // it was sent and the server is slow to answer: it may still be working
            return new McpTransportException(what + ": no response headers from " + origin + " within the connect "
                    + "timeout plus the idle timeout (" + (settings.connectTimeout.toMillis()
                    + settings.idleTimeout.toMillis()) + " ms)", cause);
        }
        if (cause instanceof McpTransportException m) {
            // a connector's own failure (HttpConnector): its message is meant for the user
            return new McpTransportException(what + ": " + m.getMessage(), m);
        }
        if (cause instanceof ConnectException && settings.connector != null && cause.getMessage() != null) {
            // a connector names the target and the reason (HttpConnector); the JDK's client says little of use
            return new McpTransportException(what + ": " + cause.getMessage(), cause);
        }
        if (cause instanceof ConnectException) {
            return new McpTransportException(what + ": cannot connect to " + origin + " (" + reason(cause) + ")",
                    cause);
        }
        if (cause instanceof java.net.ProtocolException) {
            return notHttp(call, reason(cause), cause);
        }
        if (cause instanceof javax.net.ssl.SSLException) {
            return new McpTransportException(what + ": TLS with " + origin + " failed (" + reason(cause) + ")", cause);
        }
        if (closed.get()) {
            return new McpClosedException(what + ": HTTP transport to " + origin + " was closed", cause);
        }
        return new McpTransportException(what + ": HTTP exchange with " + origin + " failed ("
                + (cause == null ? "unknown" : reason(cause)) + ")", cause);
    }

    /** The longest part of an I/O exception's own message that {@link #reason} keeps. */
    private static final int REASON_LIMIT = 160;

    /**
     * Names an I/O failure for a message: the exception's class and, when it quotes nothing, its own message (the
     * JDK's HTTP client says what happened: "EOF reached while reading", "HTTP/1.1 header parser received no bytes",
     * "Connection reset"). A message with a quotation mark or a control character is left out: the client's header
     * parser quotes what it received ("Invalid header value \"Name: value\""), and a header value must never reach
     * an error message.
     *
     * @param e the failure
     * @return for example {@code "EOFException: EOF reached while reading"}, or the class name alone
     */
    static String reason(Throwable e) {
        String name = e.getClass().getSimpleName();
        String message = e.getMessage();
        if (message == null || message.isBlank() || message.chars().anyMatch(c -> c == '"' || c < 0x20 || c == 0x7f)) {
            return name;
        }
        message = message.strip();
        return name + ": " + (message.length() > REASON_LIMIT ? message.substring(0, REASON_LIMIT) + "..." : message);
    }

    McpClosedException closedNow(String what) {
        return new McpClosedException("HTTP transport to " + origin + " is closed: " + what, null);
    }

    /** A failure that happened because (or after) the transport was closed is reported as closed. */
    McpException closedOr(McpException e) {
        if (closed.get() && !(e instanceof McpClosedException)) {
            return new McpClosedException(e.getMessage() + " (the HTTP transport to " + origin + " was closed)", e);
        }
        return e;
    }

    McpException aborted(Call call) {
        if (closed.get()) {
            return new McpClosedException(call.what + ": HTTP transport to " + origin + " was closed", null);
        }
        return new McpTransportException(call.what + ": aborted");
    }

    /** The failure of an answer that is not valid HTTP, saying what is wrong with it. */
    McpTransportException notHttp(Call call, String problem, Throwable cause) {
        return new McpTransportException(call.what + ": the answer of " + origin + " is not valid HTTP (" + problem
                + ")", cause);
    }

    /**
     * What is wrong with a response's {@code Content-Length}, or {@code null} when it is absent or valid. RFC 9112
     * section 6.3 makes a length that is not a number (1*DIGIT) and two different lengths unrecoverable framing
     * errors; the JDK's client takes the first value, fails on one that is not a number with a bare
     * {@code NumberFormatException}, and waits for a negative one. Never quotes the value.
     *
     * @param headers the response's headers
     * @return the problem, in words, or {@code null}
     */
    static String contentLengthProblem(java.net.http.HttpHeaders headers) {
        List<String> values = headers.allValues("Content-Length");
        String length = null;
        for (String v : values) {
            String t = v.trim();
            if (t.isEmpty() || t.length() > 18) {
                return "its Content-Length is not a length";
            }
            for (int i = 0; i < t.length(); i++) {
                if (t.charAt(i) < '0' || t.charAt(i) > '9') {
                    return "its Content-Length is not a length";
                }
            }
            if (length != null && Long.parseLong(length) != Long.parseLong(t)) {
                return "it has two different Content-Length values";
            }
            length = t;
        }
        return null;
    }

    /**
     * Whether a response is taken in whole before the client's {@code send} returns: a 2xx JSON answer whose
     * {@code Content-Length} is at most {@code wholeLimit} (never with a negative limit, a chunked or SSE body: those
     * are read as they come, each read bounded by the idle timeout). Only for a response whose
     * {@code Content-Length} passed {@link #contentLengthProblem} (it is then absent or digits).
     */
    static boolean readsWhole(HttpResponse.ResponseInfo info, long wholeLimit) {
        if (wholeLimit < 0 || info.statusCode() / 100 != 2 || !isJson(mediaType(info.headers()))) {
            return false;
        }
        long length = info.headers().firstValueAsLong("Content-Length").orElse(-1);
        return length >= 0 && length <= wholeLimit;
    }

    /**
     * Whether {@code deadline} passed, or is less than {@link HttpSettings#TIMER_SLACK_NANOS} away: timers are not
     * exact (the HTTP client's fires when less than a millisecond is left, truncating), so a timer set for the
     * deadline may fire a little before it. {@link Deadline#NONE} never passes.
     */
    static boolean past(Deadline deadline) {
        return !deadline.isNone() && deadline.remainingNanos() <= TIMER_SLACK_NANOS;
    }

    /**
     * Throws the call's timeout when its deadline passed: a transport timer (idle, header, reconnect wait) that
     * fires at or after the deadline must not turn the call's timeout into a transport failure.
     */
    static void throwIfPast(Call call, Deadline deadline, String doing) {
        if (past(deadline)) {
            throw timedOut(call, doing);
        }
    }

    static McpTimeoutException timedOut(Call call, String doing) {
        return new McpTimeoutException(call.what + " timed out: its deadline passed while " + doing);
    }



    static String mediaType(HttpResponse<?> resp) {
        return mediaType(resp.headers());
    }

    /** The media type of {@code headers}' {@code Content-Type}, lower case, without parameters. */
    static String mediaType(java.net.http.HttpHeaders headers) {
        String ct = headers.firstValue("Content-Type").orElse("");
        int semi = ct.indexOf(';');
        String t = (semi >= 0 ? ct.substring(0, semi) : ct).trim().toLowerCase(Locale.ROOT);
        if (t.length() > 100) {
            return "(unreadable)";
        }
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c <= 0x20 || c >= 0x7f) {
                return "(unreadable)";
            }
        }
        return t;
    }

    static boolean isJson(String mediaType) {
        return mediaType.equals("application/json") || mediaType.endsWith("+json");
    }

    static void traceBody(String verb, String what, byte[] body) {
        if (body.length > 0 && WIRE.isLoggable(Level.TRACE)) {
            WIRE.log(Level.TRACE, what + " " + verb + ": " + new String(body, StandardCharsets.UTF_8));
        }
    }
}
