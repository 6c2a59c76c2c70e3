package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.HttpSettings.MAX_ERROR_BODY_BYTES;
import static dev.loommcp.transport.http.HttpSettings.MAX_REDIRECTS;
import static dev.loommcp.transport.http.HttpSettings.TIMER_SLACK_NANOS;

import dev.loommcp.McpClosedException;
import dev.loommcp.McpException;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpTransportException;
import dev.loommcp.internal.net.ContentCoding;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.spi.Deadline;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One HTTP exchange of the transport, from request to response headers: builds the request (caller headers, the
 * transport's own, the {@link AuthorizationProvider}'s credentials, the {@link RequestSigner}'s), sends it on the
 * {@link HttpClient}, hands 401/403 answers to the authorization provider and resends when it says so, follows
 * same-origin 307/308 redirects, waits for the headers at most until the send's deadline, lets any thread abort it through its
 * {@link Call}, and maps failures (I/O, timeouts, HTTP error statuses, closing) to the client's exceptions. The
 * body is left to the caller, except for one-way POSTs ({@link #postOneWay}) and error answers
 * ({@link #failOrDeliverError}), which it settles itself.
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
     * @param settings the transport's settings
     * @param closed   the transport's closed flag: failures after closing are reported as closed
     */
    Exchange(HttpSettings settings, AtomicBoolean closed) {
        this.settings = settings;
        this.origin = settings.origin;
        this.closed = closed;
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

    /** Sends one request, following same-origin 307/308 redirects; the returned response is not a redirect. */
    HttpResponse<StreamBody> send(Call call, String method, byte[] body, List<String[]> transportHeaders,
                                  long deadlineNanos) throws InterruptedException {
        URI uri = settings.target;
        AuthorizationProvider auth = settings.authorization;
        int authAttempt = 0;
        int sent = 0;
        call.rateLimited = null;
        for (int hop = 0; ; hop++) {
            sent++;
            AuthorizationRequest authRequest = auth == null ? null : new AuthorizationRequest(settings.target,
                    method, uri, authAttempt, call.unbounded || deadlineNanos == Long.MAX_VALUE ? Deadline.NONE
                    : Deadline.ofNanoTime(deadlineNanos));
            HttpRequest request = buildRequest(call, method, uri, body, transportHeaders, deadlineNanos, authRequest);
            if (WIRE.isLoggable(Level.DEBUG)) {
                WIRE.log(Level.DEBUG, call.what + ": " + method + " " + origin + (hop > 0 ? " (redirect " + hop + ")"
                        : ""));
            }
            traceBody("sent", call.what, body);
            call.takeAnswerProblem(); // nothing of an earlier response of this call counts
            HttpResponse<StreamBody> resp = await(call, request, deadlineNanos);
            String problem = call.takeAnswerProblem();
            if (problem != null) {
                resp.body().close();
                throw notHttp(call, problem, null);
            }
            int status = resp.statusCode();
            if (WIRE.isLoggable(Level.DEBUG)) {
                WIRE.log(Level.DEBUG, call.what + ": HTTP " + status + " " + mediaType(resp));
            }
            if (auth != null) {
                try {
                    auth.onResponse(authRequest, status, resp.headers());
                } catch (RuntimeException e) {
                    resp.body().close();
                    throw providerFailed(call, e);
                }
                if ((status == 401 || status == 403) && authAttempt < AuthorizationProvider.MAX_RETRIES
                        && retryAuthorized(call, auth, authRequest, resp)) {
                    authAttempt++;
                    uri = settings.target;
                    hop = -1;
                    continue;
                }
                call.authRetries = authAttempt;
            }
            if ((status == 429 || status == 503) && retryRefused(call, resp, sent, deadlineNanos)) {
                hop--; // the same hop again
                continue;
            }
            if (status < 300 || status >= 400) {
                return resp;
            }
            resp.body().close();
            if (status != 307 && status != 308) {
                throw new McpHttpStatusException(status, call.what + " was redirected with HTTP " + status
                        + "; only 307 and 308 within the endpoint's origin are followed", List.of());
            }
            String location = resp.headers().firstValue("Location").orElse(null);
            if (location == null || location.isBlank()) {
                throw new McpHttpStatusException(status, call.what + " was redirected with HTTP " + status
                        + " without a Location", List.of());
            }
            URI next;
            try {
                next = uri.resolve(location.trim());
            } catch (IllegalArgumentException e) {
                throw new McpHttpStatusException(status, call.what + " was redirected with HTTP " + status
                        + " to an invalid Location", List.of());
            }
            if (!HttpSettings.sameOrigin(next, settings.target)) {
                throw new McpHttpStatusException(status, call.what + " was redirected with HTTP " + status
                        + " to another origin; not followed", List.of());
            }
            if (hop >= MAX_REDIRECTS) {
                throw new McpHttpStatusException(status, call.what + " was redirected more than " + MAX_REDIRECTS
                        + " times (last HTTP " + status + ")", List.of());
            }
            uri = next;
        }
    }

    /**
     * A 429, or 503, answer ({@link RetryPolicy}): when it is a refusal to send again and the policy allows, closes it
     * and waits (the call's abort or completion ends the wait at once, an interrupt throws) and returns {@code true};
     * otherwise records on the call why it is not sent again ({@link Call#rateLimited}, for
     * {@link #statusFailure}) and returns {@code false}: the answer goes to the caller's error handling as it is.
     */
    private boolean retryRefused(Call call, HttpResponse<StreamBody> resp, int sent, long deadlineNanos)
            throws InterruptedException {
        int status = resp.statusCode();
        Duration retryAfter = RetryPolicy.retryAfter(resp.headers());
        if (!RetryPolicy.isRefusal(status, retryAfter)) {
            return false; // a 503 without Retry-After: an outage of unknown length, reported at once
        }
        long wait = RetryPolicy.waitMillis(retryAfter, sent);
        String giveUp = RetryPolicy.giveUp(retryAfter, sent, wait, call.unbounded ? Long.MAX_VALUE : deadlineNanos);
        if (giveUp != null) {
            call.rateLimited = new Call.RateLimit(retryAfter, sent, giveUp);
            return false;
        }
        resp.body().close();
        LOG.log(Level.DEBUG, () -> call.what + ": " + origin + " answered HTTP " + status
                + (retryAfter == null ? "" : " with Retry-After " + RetryPolicy.describe(retryAfter))
                + "; sending it again in " + wait + " ms (" + sent + " of " + RetryPolicy.MAX_SENDS + ")");
        if (!call.sleep(wait, Long.MAX_VALUE) || call.completed()) {
            throw aborted(call); // cancelled, timed out (the core aborts a call at its deadline) or closed
        }
        return true;
    }

    /**
     * The exception of an HTTP error answer: {@code message} with an excerpt of the body (from {@code read}, the
     * bytes read already, or read here: at most {@link ErrorExcerpt#MAX_BYTES}, waiting at most 1 s and never past
     * the deadline), and, when the answer was a refusal the transport did not send again ({@link Call#rateLimited}),
     * an {@link McpRateLimitedException} that says why and carries the server's {@code Retry-After}. Closes the body.
     *
     * @param read the body's first bytes when the caller read them, else {@code null}
     */
    McpHttpStatusException statusFailure(Call call, HttpResponse<StreamBody> resp, byte[] read, String message,
                                         long deadlineNanos) throws InterruptedException {
        return statusFailure(call, resp, read, mediaType(resp), message, deadlineNanos);
    }

    /**
     * {@link #statusFailure(Call, HttpResponse, byte[], String, long)} with the media type {@code read} is in (the
     * text of a JSON-RPC error's message is shown as text, not as the JSON around it). A 401 or 403 answer shows no
     * excerpt: an authorization failure's body may echo what the request carried, and its challenges say what is
     * needed.
     */
    private McpHttpStatusException statusFailure(Call call, HttpResponse<StreamBody> resp, byte[] read,
                                                 String readType, String message, long deadlineNanos)
            throws InterruptedException {
        int status = resp.statusCode();
        byte[] bytes = read;
        if (status == 401 || status == 403) {
            bytes = null;
        } else if (bytes == null) {
            long wait = Math.min(ERROR_EXCERPT_WAIT_NANOS, settings.waitNanos(call, deadlineNanos));
            bytes = resp.body().readPrefix(ErrorExcerpt.MAX_BYTES, wait);
        }
        resp.body().close();
        String excerpt = ErrorExcerpt.of(bytes, readType);
        String said = excerpt == null ? "" : "; the server said: " + excerpt;
        Call.RateLimit r = call.rateLimited;
        if (r != null && (status == 429 || status == 503)) {
            return new McpRateLimitedException(status, message + (r.retryAfter() == null ? ""
                    : " (Retry-After " + RetryPolicy.describe(r.retryAfter()) + ")") + "; not sent again: "
                    + r.why() + said, r.retryAfter(), r.sent());
        }
        List<AuthChallenge> challenges = challenges(resp);
        return new McpHttpStatusException(status, message + refusedAfterRenewal(call, status, challenges) + said,
                challenges);
    }

    /** How long {@link #statusFailure} waits for an error body's first bytes. */
    private static final long ERROR_EXCERPT_WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);

    /**
     * Hands a 401/403 to the authorization provider; whether to send the request again. The refused response's body
     * is closed when it is sent again, else left for the caller's error handling.
     */
    private boolean retryAuthorized(Call call, AuthorizationProvider auth, AuthorizationRequest authRequest,
                                    HttpResponse<StreamBody> resp) throws InterruptedException {
        AuthorizationFailure failure = new AuthorizationFailure(resp.statusCode(), challenges(resp), resp.headers());
        boolean retry;
        try {
            retry = auth.onChallenge(authRequest, failure);
        } catch (RuntimeException e) {
            resp.body().close();
            throw providerFailed(call, e);
        } catch (InterruptedException e) {
            resp.body().close();
            throw e;
        }
        if (retry) {
            resp.body().close();
            if (call.aborted()) {
                throw aborted(call);
            }
        }
        return retry;
    }

    /**
     * An authorization provider's exception: an McpException as it is, anything else wrapped with its class and
     * message ({@link #reason}: a message quoting anything, or with control characters, is left out).
     */
    private static McpException providerFailed(Call call, RuntimeException e) {
        if (e instanceof McpException m) {
            return m;
        }
        return new McpTransportException(call.what + ": the authorization provider failed (" + reason(e) + ")", e);
    }

    /**
     * What a final 401/403 adds to its error message when the authorization provider had the request sent again
     * with renewed credentials before: that the server refused those too, and the {@code error} of its
     * {@code WWW-Authenticate} challenge (RFC 6750 section 3.1) when it is a plain token.
     *
     * @param call       the exchange
     * @param status     the final status
     * @param challenges the final response's challenges
     * @return for example {@code ": the server refused the credentials the authorization provider renewed (3 times;
     *         WWW-Authenticate error invalid_token)"}, or {@code ""}
     */
    static String refusedAfterRenewal(Call call, int status, List<AuthChallenge> challenges) {
        int n = call.authRetries;
        if ((status != 401 && status != 403) || n == 0) {
            return "";
        }
        String error = null;
        for (AuthChallenge c : challenges) {
            String e = c.parameter("error");
            if (e != null) {
                error = e.matches("[A-Za-z0-9_.-]{1,64}") ? e : "(not a plain token)";
                break;
            }
        }
        return ": the server refused the credentials the authorization provider renewed (" + n
                + (n == 1 ? " time" : " times") + (error == null ? "" : "; WWW-Authenticate error " + error) + ")";
    }

    private HttpRequest buildRequest(Call call, String method, URI uri, byte[] body, List<String[]> transportHeaders,
                                     long deadlineNanos, AuthorizationRequest authRequest)
            throws InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri)
                .method(method, body.length == 0 && !"POST".equals(method)
                        ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        if (!call.unbounded) {
            b.timeout(settings.headerTimeout(deadlineNanos));
        }
        // what a request signer is shown: only built when there is one
        Map<String, List<String>> all = settings.signer == null ? null : new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (String[] h : settings.headers) {
            b.header(h[0], h[1]);
            if (all != null) {
                all.computeIfAbsent(h[0], k -> new ArrayList<>()).add(h[1]);
            }
        }
        for (String[] h : transportHeaders) {
            if (!HeaderRules.isValidValue(h[1])) {
                // values taken from the server are validated when read; this guard keeps any that slipped through
                // from reaching the HTTP client, which would throw IllegalArgumentException quoting the value
                throw new McpProtocolException(call.what + ": the server's value for " + h[0]
                        + " cannot be sent back as a header");
            }
            b.header(h[0], h[1]);
            if (all != null) {
                all.computeIfAbsent(h[0], k -> new ArrayList<>()).add(h[1]);
            }
        }
        if (authRequest != null) {
            Map<String, String> credentials;
            try {
                credentials = settings.authorization.credentials(authRequest);
            } catch (RuntimeException e) {
                throw providerFailed(call, e);
            }
            if (credentials == null) {
                throw new McpTransportException(call.what + ": the authorization provider returned null");
            }
            for (Map.Entry<String, String> h : credentials.entrySet()) {
                String problem = HeaderRules.problem(h.getKey(), h.getValue());
                if (problem != null) {
                    throw new McpTransportException(call.what + ": the authorization provider returned " + problem);
                }
                try {
                    // replaces a caller header of the same name (a static Authorization): one set of credentials
                    b.setHeader(h.getKey(), h.getValue());
                } catch (IllegalArgumentException e) {
                    throw new McpTransportException(call.what + ": the authorization provider returned a header the "
                            + "HTTP client refuses: " + h.getKey());
                }
                if (all != null) {
                    all.put(h.getKey(), new ArrayList<>(List.of(h.getValue())));
                }
            }
            // the provider may block (a refresh, an authorization): a caller that stopped waiting meanwhile gets its
            // timeout, and the server never sees a request nobody waits for
            throwIfPast(call, deadlineNanos, "waiting for the authorization provider");
        }
        RequestSigner signer = settings.signer;
        if (signer != null && all != null) {
            Map<String, List<String>> view = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            all.forEach((k, v) -> view.put(k, List.copyOf(v)));
            Map<String, String> added;
            try {
                added = signer.sign(method, uri, Collections.unmodifiableMap(view), body.clone());
            } catch (RuntimeException e) {
                throw new McpTransportException(call.what + ": the request signer failed (" + reason(e) + ")", e);
            }
            if (added == null) {
                throw new McpTransportException(call.what + ": the request signer returned null");
            }
            for (Map.Entry<String, String> h : added.entrySet()) {
                String name = h.getKey();
                String problem = HeaderRules.problem(name, h.getValue());
                if (problem != null) {
                    throw new McpTransportException(call.what + ": the request signer returned " + problem);
                }
                try {
                    b.header(name, h.getValue());
                } catch (IllegalArgumentException e) {
                    throw new McpTransportException(call.what + ": the request signer returned a header the HTTP "
                            + "client refuses: " + name);
                }
            }
            throwIfPast(call, deadlineNanos, "waiting for the request signer"); // user code too: as above
        }
        return b.build();
    }

    /**
     * Sends one request and waits for its response headers, at most until {@code deadlineNanos}: a failure at or
     * after the deadline (the client's header timer, bounded by the same deadline, fires then too) is the call's
     * timeout, never a transport failure.
     */
    private HttpResponse<StreamBody> await(Call call, HttpRequest request, long deadlineNanos)
            throws InterruptedException {
        HttpClient c = client;
        if (call.aborted()) {
            throw aborted(call);
        }
        if (call.onCallersThread) {
            return sendBlocking(c, call, request, deadlineNanos);
        }
        CompletableFuture<HttpResponse<StreamBody>> future;
        try {
            future = c.sendAsync(request, bodyOf(call, -1));
        } catch (RuntimeException e) {
            throw new McpTransportException(call.what + ": the HTTP client refused the request ("
                    + e.getClass().getSimpleName() + ")", e);
        }
        call.attach(future);
        try {
            if (deadlineNanos == Long.MAX_VALUE) {
                return future.get();
            }
            return future.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            future.cancel(true);
            throw timedOut(call, "waiting for response headers");
        } catch (InterruptedException e) {
            future.cancel(true);
            throw e;
        } catch (CancellationException e) {
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedException();
            }
            throw aborted(call);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (call.aborted()) {
                if (Thread.currentThread().isInterrupted()) {
                    throw new InterruptedException();
                }
                throw aborted(call);
            }
            if (past(deadlineNanos)) {
                throw timedOut(call, "waiting for response headers");
            }
            throw ioFailure(call, cause);
        }
    }


    /**
     * POSTs a notification or response in {@code session} and accepts any 2xx without reading its body.
     *
     * @param modernHeaders the headers of a modern-era POST ({@link RoutingHeaders}; {@code session} is then
     *                      {@link HttpSession#NONE}), or {@code null} for the session's own
     * @throws McpHttpStatusException on any other status (404 while in a session: the session expired)
     */
    void postOneWay(Call call, byte[] body, HttpSession session, List<String[]> modernHeaders, long deadlineNanos)
            throws InterruptedException {
        HttpResponse<StreamBody> resp = send(call, "POST", body,
                modernHeaders != null ? modernHeaders : session.postHeaders(), deadlineNanos);
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
        if (status == 404 && session.id() != null) {
            resp.body().close();
            throw new McpHttpStatusException(404, call.what + " failed with HTTP 404: the session expired",
                    List.of());
        }
        // a one-way message has no answer: an error body (whatever its id) is never delivered as one
        failOrDeliverError(call, resp, null, null, null, modernHeaders != null, deadlineNanos);
    }

    /**
     * A non-2xx answer: deliver a JSON-RPC error body as the answer of {@code answerTo} (the request this very POST
     * carried), or throw the status.
     *
     * @param answerTo the id of the request the POST carried, or {@code null} when it carried none (a notification
     *                 or a response, also one replayed for another request's session restart): then an error body
     *                 is never anybody's answer
     * @param deliver  takes the answer; {@code null} when {@code answerTo} is
     * @param expired  for a POST that carried a session id: what to throw when a 400 says the session is unknown
     *                 (servers built on the TypeScript SDK, the reference server among them, answer an unknown
     *                 session with 400 "Bad Request: No valid session ID provided" where the spec says 404);
     *                 {@code null} otherwise
     * @param modern   whether the POST was a modern-era one (MCP 2026-07-28): then a 5xx is never delivered as the
     *                 answer (a server failure is no answer from the protocol, nor evidence of its era); 401 and 403
     *                 never are, in either era
     */
    void failOrDeliverError(Call call, HttpResponse<StreamBody> resp, RequestId answerTo,
                            Consumer<JsonRpcMessage> deliver, Supplier<RuntimeException> expired, boolean modern,
                            long deadlineNanos) throws InterruptedException {
        int status = resp.statusCode();
        String rpcNote = "";
        byte[] read = null;
        String readType = mediaType(resp);
        // a refusal that was not sent again is never an answer: its error body says "later", not the outcome
        if (isJson(mediaType(resp)) && call.rateLimited == null) {
            try {
                byte[] bytes = resp.body().readAll(MAX_ERROR_BODY_BYTES, () -> settings.waitNanos(deadlineNanos));
                read = bytes;
                traceBody("received error", call.what, bytes);
                List<JsonRpcMessage> ms = settings.framing.decode(bytes, 0, bytes.length);
                if (ms.size() == 1 && ms.get(0) instanceof JsonRpcMessage.ErrorResponse e) {
                    rpcNote = " (JSON-RPC error " + e.error().code() + ")";
                    String said = e.error().message();
                    read = said == null ? EMPTY : said.getBytes(StandardCharsets.UTF_8);
                    readType = "text/plain";
                    if (status == 400 && expired != null && e.error().message() != null
                            && e.error().message().toLowerCase(java.util.Locale.ROOT).contains("session")) {
                        resp.body().close();
                        throw expired.get();
                    }
                    if (answerTo != null && status != 401 && status != 403 && !(modern && status >= 500)
                            && (e.id() == null || e.id().equals(answerTo) || sameLooseId(e.id(), answerTo))) {
                        deliver.accept(new JsonRpcMessage.ErrorResponse(answerTo, e.error()));
                        return;
                    }
                }
            } catch (IOException | McpProtocolException e) {
                // not a JSON-RPC error body: the status is all we report (unless the deadline passed meanwhile)
                throwIfPast(call, deadlineNanos, "reading an HTTP " + status + " error body");
            }
        }
        throw statusFailure(call, resp, read, readType, call.what + " failed with HTTP " + status + rpcNote,
                deadlineNanos);
    }

    /**
     * Whether an error body's id such as {@code "7"} or {@code 7.0} stands for the integer id the POST carried (issue
     * 8 item 10: real servers answer so); the core matches such ids the same way.
     */
    private static boolean sameLooseId(RequestId got, RequestId sent) {
        return got.looselyMatches(sent);
    }

    private McpException ioFailure(Call call, Throwable cause) {
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

    /**
     * The body handler of every request of {@code call}: a {@link StreamBody} the call can close, taken in
     * {@linkplain StreamBody#StreamBody(boolean) whole first} when {@link #readsWhole} says so for {@code wholeLimit}.
     */
    private static HttpResponse.BodyHandler<StreamBody> bodyOf(Call call, long wholeLimit) {
        return info -> {
            String problem = contentLengthProblem(info.headers());
            if (problem != null) {
                call.answerProblem(problem); // the exchange fails with it, whatever the client does next
            }
            // a compressed answer (whatever was asked for: proxies compress anyway) is decoded as it is read
            StreamBody body = new StreamBody(problem == null && readsWhole(info, wholeLimit),
                    ContentCoding.of(info.headers().firstValue("Content-Encoding").orElse(null)));
            call.attach(body);
            return body;
        };
    }

    /** The failure of an answer that is not valid HTTP, saying what is wrong with it. */
    private McpTransportException notHttp(Call call, String problem, Throwable cause) {
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
     * How large a JSON answer {@link #sendBlocking} takes in whole, or -1 for none. Only a call whose deadline comes
     * within one idle period: the client's request timer stops at the response headers, so a body that stalls
     * inside {@code send} is bounded by nothing of the transport's own; the core cancels a request whose caller
     * waits at its deadline ({@link dev.loommcp.spi.SendContext#callerWaits()}), which ends that {@code send}
     * ({@link Call#abort()} interrupts it and closes the body), and a deadline within the idle period ends a stall
     * no later than the idle timeout would have (the same timeout the streamed read reports when the deadline is
     * the nearer bound).
     */
    private long wholeLimit(Call call, long deadlineNanos) {
        if (call.unbounded || deadlineNanos == Long.MAX_VALUE
                || deadlineNanos - System.nanoTime() > settings.idleNanos()) {
            return -1;
        }
        return settings.maxMessageBytes;
    }

    /**
     * {@link #await} for a call whose exchange runs on the caller's thread: the blocking {@link HttpClient#send},
     * which runs the exchange's first steps (connection from the pool, writing the request) on this thread and
     * completes it from the thread that parsed the response, where {@code sendAsync} hands the start to the
     * executor and the completion to the common pool: two thread hand-offs less per request. The request's timeout
     * (set from the deadline) bounds the wait for the headers; an abort or completion of the call interrupts this
     * thread while it is in {@code send} ({@link Call#enterSend}), which cancels the exchange; that interrupt is
     * cleared again, an interrupt from anyone else is kept and ends the call as an interrupt. A fixed-length JSON
     * answer is taken in whole before {@code send} returns when the deadline bounds it ({@link #wholeLimit}): the
     * caller is woken once, not for the headers and again for the body (measured in docs/benchmarks.md).
     */
    private HttpResponse<StreamBody> sendBlocking(HttpClient c, Call call, HttpRequest request, long deadlineNanos)
            throws InterruptedException {
        if (!call.enterSend()) {
            throw aborted(call);
        }
        HttpResponse<StreamBody> resp = null;
        Exception failure = null;
        try {
            resp = c.send(request, bodyOf(call, wholeLimit(call, deadlineNanos)));
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
            return resp;
        }
        if (failure == null) {
            throw aborted(call); // aborted or completed meanwhile: the caller tells which
        }
        if (failure instanceof InterruptedException ie) {
            throw ie;
        }
        // a RuntimeException from send is the answer's (our requests are built by HttpRequest.Builder, which
        // refuses what send would): a Content-Length that is not a number, for one; it goes the I/O failure's way
        if (call.aborted()) {
            throw aborted(call);
        }
        if (past(deadlineNanos)) {
            throw timedOut(call, "waiting for response headers");
        }
        throw ioFailure(call, failure);
    }

    /**
     * Whether {@code deadlineNanos} (a {@link System#nanoTime()} value, {@code Long.MAX_VALUE} for none) passed, or
     * is less than {@link #TIMER_SLACK_NANOS} away: timers are not exact (the HTTP client's fires when less than a
     * millisecond is left, truncating), so a timer set for the deadline may fire a little before it.
     */
    static boolean past(long deadlineNanos) {
        return deadlineNanos != Long.MAX_VALUE && System.nanoTime() - (deadlineNanos - TIMER_SLACK_NANOS) >= 0;
    }

    /**
     * Throws the call's timeout when its deadline passed: a transport timer (idle, header, reconnect wait) that
     * fires at or after the deadline must not turn the call's timeout into a transport failure.
     */
    static void throwIfPast(Call call, long deadlineNanos, String doing) {
        if (past(deadlineNanos)) {
            throw timedOut(call, doing);
        }
    }

    static McpTimeoutException timedOut(Call call, String doing) {
        return new McpTimeoutException(call.what + " timed out: its deadline passed while " + doing);
    }


    static List<AuthChallenge> challenges(HttpResponse<?> resp) {
        int s = resp.statusCode();
        if (s != 401 && s != 403) {
            return List.of();
        }
        return AuthChallenge.parse(resp.headers().allValues("WWW-Authenticate"));
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
