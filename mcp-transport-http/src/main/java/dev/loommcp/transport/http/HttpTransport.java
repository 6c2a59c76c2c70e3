package dev.loommcp.transport.http;

import dev.loommcp.McpClosedException;
import dev.loommcp.McpException;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpTransportException;
import dev.loommcp.internal.concurrent.McpThreads;
import dev.loommcp.internal.json.Ids;
import dev.loommcp.internal.json.JsonRpcCodec;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.spi.SendContext;
import dev.loommcp.spi.TransportSink;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;

/**
 * The Streamable HTTP transport of MCP 2025-03-26 .. 2025-11-25 (spec "Transports", "Streamable HTTP"; SPEC-NOTES
 * section 5.2), on {@link HttpClient} with automatic redirects off.
 *
 * <pre>{@code
 * HttpTransport transport = HttpTransport.newBuilder(URI.create("https://mcp.example.com/mcp"))
 *         .header("Authorization", "Bearer " + token)     // never logged
 *         .idleTimeout(Duration.ofMinutes(2))
 *         .build();
 * McpClient client = McpClient.newBuilder(transport).build();
 * }</pre>
 *
 * <p>What it does on the wire:
 * <ul>
 *   <li>Each message is POSTed to the endpoint (used exactly as given, path and query kept) with
 *       {@code Accept: application/json, text/event-stream}. A request's answer may be a JSON body or an SSE stream;
 *       every message either carries (server requests, notifications, the response) goes to the client. Notifications
 *       and responses are accepted with 202 (a 200 with a body is tolerated).</li>
 *   <li>The {@code Mcp-Session-Id} the server returns with the {@code initialize} response is sent on every later
 *       request, and so is {@code MCP-Protocol-Version} once the version is known. A 404 for a request that carried
 *       the session starts a new session (the recorded {@code initialize} and {@code notifications/initialized} are
 *       replayed), the request is sent once more, and the client is told the session was restarted.</li>
 *   <li>After the handshake it opens the optional GET stream for messages the server starts on its own (405, 404 or
 *       400 mean none is offered) and reconnects it with backoff, at most {@value #MAX_STREAM_ATTEMPTS} times in a
 *       row without receiving anything.</li>
 *   <li>A response stream that ends before its response is resumed with {@code GET} and {@code Last-Event-ID} after
 *       the server's {@code retry} delay (the {@linkplain Builder#reconnectDelay reconnect delay}, doubling, when it
 *       sent none), at most {@value #MAX_STREAM_ATTEMPTS}
 *       times in a row without progress; messages replayed on a resumed stream are dropped when their JSON-RPC id
 *       was already seen.</li>
 *   <li>Redirects: 307 and 308 are followed with the same method, body and headers, at most
 *       {@value #MAX_REDIRECTS} times and only while scheme, host and port stay the endpoint's. Any other 3xx, or a
 *       307/308 to another origin, fails with {@link McpHttpStatusException} naming the status; caller headers are
 *       never sent to another origin.</li>
 *   <li>Errors: an HTTP error status fails with {@link McpHttpStatusException} (401 and 403 with the parsed
 *       {@code WWW-Authenticate} challenges); a JSON-RPC error in an error body (except for 401 and 403) is handed
 *       to the client as the request's answer, which raises {@code McpRpcException}.</li>
 *   <li>{@link #close()} aborts every exchange, stops the GET stream, sends {@code DELETE} with the session (405 is
 *       fine) bounded by {@value #CLOSE_TIMEOUT_MILLIS} ms, and shuts the HTTP client down.</li>
 * </ul>
 *
 * <p>Timeouts: the connect timeout bounds establishing a connection; the idle timeout bounds the wait for the next
 * byte of a response (response headers, JSON bodies, SSE streams; any byte, SSE comments included, resets it) and is
 * separate from the request deadline, which the client enforces by cancelling the exchange. No wait of a send outlives
 * its deadline either: when the deadline passes while the transport waits (for response headers, the next byte, a
 * reconnection delay) the send fails with {@link McpTimeoutException}, never with a transport failure, so a call
 * always times out as a timeout whichever timer notices first. Every reconnection (resumption, GET stream) waits at
 * least {@value #MIN_RECONNECT_MILLIS} ms, whatever the server's {@code retry}.
 *
 * <p>Thread-safety: an instance is used by one client; {@link #send} may be called from many threads at once.
 * Threads: HTTP client work runs on virtual threads named {@code mcp-http-<n>}, the GET stream on one named
 * {@code mcp-http-get-<n>}; none outlives {@link #close()}.
 *
 * <p>Secrets: caller header values, signer output and key material are never logged and never put in exception
 * messages; {@link #toString()} redacts header values and the endpoint's query.
 */
public final class HttpTransport implements McpTransport {

    /** The most redirects (307/308, same origin) followed for one request. */
    public static final int MAX_REDIRECTS = 5;
    /** The most consecutive reconnection attempts without progress, for resumption and for the GET stream. */
    public static final int MAX_STREAM_ATTEMPTS = 5;
    /**
     * The shortest wait before any reconnection (resuming a response stream, reconnecting the GET stream), in
     * milliseconds, whatever the server's SSE {@code retry} or the configured reconnect delay.
     */
    public static final long MIN_RECONNECT_MILLIS = 100;
    /** The bound of the {@code DELETE} sent by {@link #close()}, in milliseconds. */
    public static final long CLOSE_TIMEOUT_MILLIS = 3_000;

    static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(5);
    static final int DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
    static final long DEFAULT_RETRY_MILLIS = 1_000;
    static final long MAX_BACKOFF_MILLIS = 30_000;
    static final int MAX_ERROR_BODY_BYTES = 64 * 1024;
    static final int SEEN_IDS = 4096;
    /** How close to a send's deadline a transport timer that fires counts as the deadline (timers are not exact). */
    static final long TIMER_SLACK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    static final String SESSION_HEADER = "Mcp-Session-Id";
    static final String VERSION_HEADER = "MCP-Protocol-Version";
    static final String LAST_EVENT_ID_HEADER = "Last-Event-ID";
    static final String ACCEPT_POST = "application/json, text/event-stream";
    static final String ACCEPT_SSE = "text/event-stream";

    /** Header names the transport sets itself (lower case). */
    static final Set<String> OWNED_HEADERS = Set.of("accept", "content-type", "mcp-session-id",
            "mcp-protocol-version", "last-event-id");
    /** Header names the JDK or HTTP framing forbid (lower case). */
    static final Set<String> RESTRICTED_HEADERS = Set.of("connection", "content-length", "expect", "host", "upgrade",
            "transfer-encoding", "te", "keep-alive", "trailer");

    private static final System.Logger LOG = System.getLogger("dev.loommcp.transport.http");
    private static final System.Logger WIRE = System.getLogger("dev.loommcp.transport.http.wire");
    private static final byte[] EMPTY = new byte[0];

    private final URI endpoint;
    private final String origin;
    private final List<String[]> headers;
    private final Duration connectTimeout;
    private final Duration idleTimeout;
    private final RequestSigner signer;
    private final SSLContext sslContext;
    private final int maxMessageBytes;
    private final long reconnectDelayMillis;
    private final String tlsDescription;

    private final AtomicBoolean opened = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile TransportSink sink;
    private volatile HttpClient client;
    private volatile ExecutorService executor;

    private volatile String sessionId;
    private volatile String protocolVersion;
    private volatile boolean handshakeDone;
    private volatile JsonRpcMessage.Request initializeRequest;
    private volatile JsonRpcMessage.Notification initializedNotification;
    private final ReentrantLock restartLock = new ReentrantLock();

    private final ReentrantLock streamLock = new ReentrantLock();
    private Thread getThread;
    private Call getCall;

    private final Set<Call> active = ConcurrentHashMap.newKeySet();
    private final ConcurrentHashMap<RequestId, Call> awaiting = new ConcurrentHashMap<>();
    private final SeenIds seenResponses = new SeenIds(SEEN_IDS);
    private final SeenIds seenServerRequests = new SeenIds(SEEN_IDS);

    private HttpTransport(Builder b, SSLContext ssl) {
        this.endpoint = b.endpoint;
        this.origin = originOf(b.endpoint);
        this.headers = List.copyOf(b.headers);
        this.connectTimeout = b.connectTimeout;
        this.idleTimeout = b.idleTimeout;
        this.signer = b.signer;
        this.sslContext = ssl;
        this.maxMessageBytes = b.maxMessageBytes;
        this.reconnectDelayMillis = b.reconnectDelay.toMillis();
        this.tlsDescription = b.tlsDescription();
    }

    /**
     * Starts a builder for the given MCP endpoint.
     *
     * @param endpoint the server's MCP endpoint, an absolute {@code http} or {@code https} URI without user info;
     *                 it is used exactly as given, path and query included, nothing appended
     * @return the builder
     * @throws NullPointerException     if {@code endpoint} is {@code null}
     * @throws IllegalArgumentException if the URI is not absolute, not http(s), has no host or carries user info
     */
    public static Builder newBuilder(URI endpoint) {
        return new Builder(endpoint);
    }

    /**
     * Starts a builder for the given MCP endpoint; see {@link #newBuilder(URI)}.
     *
     * @param endpoint the endpoint URL
     * @return the builder
     * @throws IllegalArgumentException if the text is not a valid URI or not acceptable as an endpoint
     */
    public static Builder newBuilder(String endpoint) {
        return new Builder(URI.create(Objects.requireNonNull(endpoint, "endpoint")));
    }

    /**
     * Returns the endpoint, exactly as given to the builder.
     *
     * @return the endpoint URI
     */
    public URI endpoint() {
        return endpoint;
    }

    /**
     * Returns the current session id, for diagnostics.
     *
     * @return the {@code Mcp-Session-Id} the server assigned, or {@code null} when it assigned none (yet)
     */
    public String sessionId() {
        return sessionId;
    }

    // ------------------------------------------------------------------------------------------------------------
    // SPI

    /**
     * Prepares the HTTP client; no request is sent yet.
     *
     * @throws McpClosedException    if {@link #close()} was called before or while opening (nothing is left open)
     * @throws IllegalStateException if called twice
     */
    @Override
    public void open(TransportSink sink, long deadlineNanos) {
        Objects.requireNonNull(sink, "sink");
        if (closed.get()) {
            throw closedNow("cannot open");
        }
        if (!opened.compareAndSet(false, true)) {
            throw new IllegalStateException("transport already opened");
        }
        this.sink = sink;
        ExecutorService ex = Executors.newThreadPerTaskExecutor(McpThreads.factory("http"));
        HttpClient.Builder b = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(connectTimeout)
                .executor(ex)
                .version("https".equalsIgnoreCase(endpoint.getScheme())
                        ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1);
        if (sslContext != null) {
            b.sslContext(sslContext);
        }
        this.executor = ex;
        this.client = b.build();
        if (closed.get()) {
            // close() ran while we were building the client and found nothing to shut down: do it here
            client.shutdownNow();
            ex.shutdownNow();
            throw closedNow("closed while opening");
        }
        LOG.log(Level.DEBUG, () -> "HTTP transport opened for " + origin);
    }

    /**
     * Sends one message: a request is POSTed and its answer (JSON or SSE, resumed if it breaks) read until the
     * response arrives; notifications and responses are POSTed and their 202 accepted.
     *
     * @throws McpHttpStatusException      on an unaccepted HTTP status or redirect
     * @throws McpTransportException       on I/O failure, idle timeout, or a stream that cannot be resumed
     * @throws McpProtocolException        when the answer is malformed or lacks the response
     * @throws McpTimeoutException         when the context's deadline passes during the exchange (whichever of the
     *                                     transport's own timers notices it first)
     * @throws McpClosedException          when the transport is closed before or during the send
     * @throws IllegalStateException       when the transport was never opened (and is not closed)
     * @throws InterruptedException        when the sending thread is interrupted (the exchange is aborted)
     */
    @Override
    public void send(JsonRpcMessage message, SendContext context) throws InterruptedException {
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(context, "context");
        if (closed.get()) {
            throw closedNow("cannot send");
        }
        if (!opened.get()) {
            throw new IllegalStateException("transport not opened");
        }
        byte[] body = JsonRpcCodec.encode(message);
        switch (message) {
            case JsonRpcMessage.Request r -> {
                if ("initialize".equals(r.method())) {
                    initializeRequest = r;
                }
                sendRequest(r, body, context);
            }
            case JsonRpcMessage.Notification n -> {
                if ("notifications/initialized".equals(n.method())) {
                    initializedNotification = n;
                }
                sendOneWay(body, context, "POST " + n.method(), true);
            }
            case JsonRpcMessage.Response r -> sendOneWay(body, context, "POST response (id " + r.id() + ")", false);
            case JsonRpcMessage.ErrorResponse e ->
                    sendOneWay(body, context, "POST error response (id " + e.id() + ")", false);
        }
    }

    /** Returns {@code false}: a send blocks for the whole HTTP exchange. */
    @Override
    public boolean sendsInline() {
        return false;
    }

    /**
     * Records the negotiated version (sent as {@code MCP-Protocol-Version} from now on) and opens the optional GET
     * stream in the background. Returns at once.
     */
    @Override
    public void handshakeCompleted(String protocolVersion) {
        if (protocolVersion != null && isValidVersion(protocolVersion)) {
            this.protocolVersion = protocolVersion;
        } else if (protocolVersion != null) {
            // it goes into a header: a value the HTTP client would refuse must never reach a request
            LOG.log(Level.WARNING, "server at {0} negotiated a protocol version that cannot be sent as {1}; "
                    + "not sending it", origin, VERSION_HEADER);
        }
        handshakeDone = true;
        startGetStream();
    }

    /** Returns the endpoint's origin ({@code scheme://host:port}), without path, query or credentials. */
    @Override
    public String describe() {
        return origin;
    }

    /**
     * Returns how many HTTP exchanges (POSTs and their response streams, DELETE) the transport holds open right now:
     * a diagnostic, zero when idle and after {@link #close()}.
     *
     * @return the number of exchanges in flight
     */
    public int activeExchangeCount() {
        return active.size();
    }

    /**
     * Closes the transport: aborts every exchange in flight, stops the GET stream, sends {@code DELETE} with the
     * session id if there is one (any answer accepted, bounded by {@value #CLOSE_TIMEOUT_MILLIS} ms), and shuts the
     * HTTP client and its threads down. Idempotent; safe from any thread. If the calling thread is interrupted the
     * DELETE is skipped, the other waits still run to their bounds, and the interrupt status is restored before
     * returning. Each of its four waits (the GET stream's thread, the DELETE, including a {@link RequestSigner} that
     * blocks, the HTTP client's and the executor's termination) is bounded by about 3 seconds, so {@code close()}
     * returns within about 12 seconds at worst, and at once when nothing is in flight.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        // an interrupted closer still waits (bounded) for what it stops; the interrupt is restored at the end
        boolean interrupted = Thread.interrupted();
        try {
            interrupted |= stopGetStream();
            for (Call c : active) {
                c.abort();
            }
            HttpClient c = client;
            if (c == null) {
                return;
            }
            String sid = sessionId;
            if (sid != null && !interrupted) {
                interrupted |= deleteSessionBounded(sid);
            }
            c.shutdownNow();
            interrupted |= awaitBounded(() -> c.awaitTermination(Duration.ofMillis(CLOSE_TIMEOUT_MILLIS)),
                    "the HTTP client");
            ExecutorService ex = executor;
            ex.shutdownNow();
            interrupted |= awaitBounded(() -> ex.awaitTermination(CLOSE_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS),
                    "the HTTP transport's threads");
            LOG.log(Level.DEBUG, () -> "HTTP transport closed for " + origin);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** A bounded wait of {@link #close()}. */
    private interface BoundedWait {
        boolean await() throws InterruptedException;
    }

    /**
     * Runs one bounded wait of {@link #close()} to its end even when interrupted (the wait is bounded, so this is
     * bounded too); returns whether an interrupt arrived, for the caller to restore.
     */
    private boolean awaitBounded(BoundedWait wait, String what) {
        boolean interrupted = false;
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_TIMEOUT_MILLIS);
        while (true) {
            try {
                if (!wait.await()) {
                    LOG.log(Level.WARNING, "{0} of {1} did not stop in time", what, origin);
                }
                return interrupted;
            } catch (InterruptedException e) {
                interrupted = true;
                if (System.nanoTime() - end >= 0) {
                    LOG.log(Level.WARNING, "{0} of {1} did not stop in time", what, origin);
                    return true;
                }
            }
        }
    }

    /** Describes the transport: endpoint without query, header names with redacted values, signer and TLS. */
    @Override
    public String toString() {
        return "HttpTransport" + describeConfig(endpoint, headers, signer != null, tlsDescription);
    }

    // ------------------------------------------------------------------------------------------------------------
    // requests

    private void sendRequest(JsonRpcMessage.Request r, byte[] body, SendContext ctx) throws InterruptedException {
        String what = "POST " + r.method() + " (id " + r.id() + ")";
        Call call = new Call(r.id(), what);
        active.add(call);
        awaiting.put(r.id(), call);
        ctx.onCancel(call::abort);
        try {
            if (closed.get()) {
                throw closedNow("cannot send");
            }
            try {
                postRequest(call, r, body, ctx, true);
            } catch (McpException e) {
                if (!call.completed()) {
                    throw closedOr(e);
                }
                // the response already arrived (on another stream): what broke afterwards does not matter
                LOG.log(Level.DEBUG, () -> call.what + ": ignored a failure after the response: " + e.getMessage());
            }
        } finally {
            awaiting.remove(r.id(), call);
            active.remove(call);
            call.release();
        }
    }

    private void postRequest(Call call, JsonRpcMessage.Request r, byte[] body, SendContext ctx, boolean mayRestart)
            throws InterruptedException {
        boolean isInit = "initialize".equals(r.method());
        String sid = isInit ? null : sessionId;
        HttpResponse<StreamBody> resp = exchangeFollowingRedirects(call, "POST", body,
                postHeaders(sid, isInit ? null : protocolVersion), ctx.deadlineNanos());
        int status = resp.statusCode();
        if (status == 404 && sid != null && mayRestart) {
            resp.body().close();
            restartSession(sid, call, ctx);
            postRequest(call, r, body, ctx, false);
            return;
        }
        if (status == 202 || status == 204) {
            resp.body().close();
            throw new McpProtocolException(call.what + " was answered with HTTP " + status + " and no response");
        }
        if (status < 200 || status >= 300) {
            failOrDeliverError(call, resp, call.awaitedId, ctx.deadlineNanos());
            return;
        }
        if (isInit) {
            captureSession(resp);
        }
        String type = mediaType(resp);
        if (type.equals("text/event-stream")) {
            readRequestStream(call, resp.body(), ctx);
        } else if (isJson(type)) {
            readJsonAnswer(call, resp.body(), ctx.deadlineNanos());
            if (!call.completed()) {
                throw new McpProtocolException(call.what + ": the JSON answer held no response to this request");
            }
        } else {
            resp.body().close();
            throw new McpProtocolException(call.what + " was answered with HTTP " + status
                    + " and unsupported content type " + (type.isEmpty() ? "(none)" : type));
        }
    }

    private void readRequestStream(Call call, StreamBody body, SendContext ctx) throws InterruptedException {
        SseParser parser = new SseParser(maxMessageBytes, null, listener("response stream of " + call.what, false));
        Outcome outcome = readSse(call, body, parser, call::completed, "response stream of " + call.what, true,
                ctx.deadlineNanos());
        if (outcome == Outcome.DONE) {
            return;
        }
        resume(call, parser.lastEventId(), parser.retryMillis(), ctx);
    }

    /** Resumes a request's response stream with GET + Last-Event-ID until the response arrives (SEP-1699). */
    private void resume(Call call, String lastEventId, long retryMillis, SendContext ctx)
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
            long delay = reconnectMillis(retry, attempts);
            LOG.log(Level.DEBUG, () -> call.what + ": response stream ended early; resuming in " + delay + " ms");
            if (!call.sleep(delay, ctx.deadlineNanos())) {
                throw aborted(call);
            }
            if (call.completed()) {
                return;
            }
            throwIfPast(call, ctx.deadlineNanos(), "waiting to resume the response stream");
            String what = call.what + " resumption";
            HttpResponse<StreamBody> resp = exchangeFollowingRedirects(call, "GET", EMPTY,
                    streamHeaders(sessionId, protocolVersion, lastId), ctx.deadlineNanos());
            int status = resp.statusCode();
            if (status < 200 || status >= 300) {
                resp.body().close();
                throw new McpHttpStatusException(status, what + " (GET with Last-Event-ID) failed with HTTP "
                        + status, challenges(resp));
            }
            if (!mediaType(resp).equals("text/event-stream")) {
                resp.body().close();
                throw new McpProtocolException(what + " was answered with HTTP " + status + " but not an SSE stream");
            }
            SseParser parser = new SseParser(maxMessageBytes, lastId, listener("resumed stream of " + call.what,
                    true));
            Outcome outcome = readSse(call, resp.body(), parser, call::completed, what, true, ctx.deadlineNanos());
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

    private void readJsonAnswer(Call call, StreamBody body, long deadlineNanos) throws InterruptedException {
        byte[] bytes = readAll(call, body, maxMessageBytes, deadlineNanos);
        traceBody("received", call.what, bytes);
        List<JsonRpcMessage> messages;
        try {
            messages = JsonRpcCodec.decode(bytes, 0, bytes.length);
        } catch (McpProtocolException e) {
            throw new McpProtocolException(call.what + ": malformed JSON answer: " + e.getMessage(), e);
        }
        for (JsonRpcMessage m : messages) {
            deliver(m, false);
        }
    }

    /**
     * A non-2xx answer: deliver a JSON-RPC error body as the answer of {@code answerTo} (the request this very POST
     * carried), or throw the status.
     *
     * @param answerTo the id of the request the POST carried, or {@code null} when it carried none (a notification
     *                 or a response, also one replayed for another request's session restart): then an error body
     *                 is never anybody's answer
     */
    private void failOrDeliverError(Call call, HttpResponse<StreamBody> resp, RequestId answerTo, long deadlineNanos)
            throws InterruptedException {
        int status = resp.statusCode();
        List<AuthChallenge> challenges = challenges(resp);
        String rpcNote = "";
        if (isJson(mediaType(resp))) {
            try {
                byte[] bytes = resp.body().readAll(MAX_ERROR_BODY_BYTES, () -> waitNanos(deadlineNanos));
                traceBody("received error", call.what, bytes);
                List<JsonRpcMessage> ms = JsonRpcCodec.decode(bytes, 0, bytes.length);
                if (ms.size() == 1 && ms.get(0) instanceof JsonRpcMessage.ErrorResponse e) {
                    rpcNote = " (JSON-RPC error " + e.error().code() + ")";
                    if (answerTo != null && status != 401 && status != 403
                            && (e.id() == null || e.id().equals(answerTo) || sameLooseId(e.id(), answerTo))) {
                        deliver(new JsonRpcMessage.ErrorResponse(answerTo, e.error()), false);
                        return;
                    }
                }
            } catch (IOException | McpProtocolException e) {
                // not a JSON-RPC error body: the status is all we report (unless the deadline passed meanwhile)
                throwIfPast(call, deadlineNanos, "reading an HTTP " + status + " error body");
            }
        }
        resp.body().close();
        throw new McpHttpStatusException(status, call.what + " failed with HTTP " + status + rpcNote, challenges);
    }

    /**
     * Whether an error body's id such as {@code "7"} or {@code 7.0} stands for the integer id the POST carried (issue
     * 8 item 10: real servers answer so); the core matches such ids the same way.
     */
    private static boolean sameLooseId(RequestId got, RequestId sent) {
        Long loose = Ids.looseInteger(got);
        return loose != null && sent instanceof RequestId.NumberId n && n.number() == loose;
    }

    // ------------------------------------------------------------------------------------------------------------
    // notifications and responses

    private void sendOneWay(byte[] body, SendContext ctx, String what, boolean notification)
            throws InterruptedException {
        Call call = new Call(null, what);
        active.add(call);
        ctx.onCancel(call::abort);
        try {
            if (closed.get()) {
                throw closedNow("cannot send");
            }
            postOneWay(call, body, sessionId, protocolVersion, ctx.deadlineNanos());
        } catch (McpException e) {
            throw closedOr(e);
        } finally {
            active.remove(call);
            call.release();
        }
    }

    private void postOneWay(Call call, byte[] body, String sid, String version, long deadlineNanos)
            throws InterruptedException {
        HttpResponse<StreamBody> resp = exchangeFollowingRedirects(call, "POST", body, postHeaders(sid, version),
                deadlineNanos);
        int status = resp.statusCode();
        if (status >= 200 && status < 300) {
            // 202 is the rule. A body (some servers answer every POST with JSON, a broken one with an SSE stream that
            // never ends) carries nothing for a notification or response: it is not read, so it cannot hold the
            // sender past its deadline.
            if (status != 202 && status != 204) {
                LOG.log(Level.DEBUG, () -> call.what + ": HTTP " + status + " body ignored");
            }
            resp.body().close();
            return;
        }
        if (status == 404 && sid != null) {
            resp.body().close();
            throw new McpHttpStatusException(404, call.what + " failed with HTTP 404: the session expired",
                    List.of());
        }
        // a one-way message has no answer: an error body (whatever its id) is never delivered as one
        failOrDeliverError(call, resp, null, deadlineNanos);
    }

    // ------------------------------------------------------------------------------------------------------------
    // sessions

    private void captureSession(HttpResponse<?> resp) {
        String sid = resp.headers().firstValue(SESSION_HEADER).orElse(null);
        if (sid == null) {
            return;
        }
        if (!isValidSessionId(sid)) {
            throw new McpProtocolException("the server sent an invalid " + SESSION_HEADER
                    + " (it must be visible ASCII, 0x21-0x7E)");
        }
        sessionId = sid;
        LOG.log(Level.DEBUG, () -> "session started with " + origin);
    }

    /**
     * Starts a new session after a 404 for {@code expired}: replays the recorded initialize (consuming its answer)
     * and notifications/initialized, reopens the GET stream and tells the sink. Only one thread restarts; others
     * that saw the same expired session wait and then use the new one.
     */
    private void restartSession(String expired, Call call, SendContext ctx) throws InterruptedException {
        restartLock.lockInterruptibly();
        try {
            if (!Objects.equals(sessionId, expired)) {
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
            HttpResponse<StreamBody> resp = exchangeFollowingRedirects(call, "POST", initBody,
                    postHeaders(null, null), ctx.deadlineNanos());
            int status = resp.statusCode();
            if (status < 200 || status >= 300 || status == 202 || status == 204) {
                resp.body().close();
                throw new McpHttpStatusException(status, call.what + ": starting a new session after HTTP 404 "
                        + "failed: initialize was answered with HTTP " + status, challenges(resp));
            }
            String previous = sessionId;
            AtomicReference<JsonRpcMessage> answer = new AtomicReference<>();
            Consumer<JsonRpcMessage> capture = m -> {
                if (init.id().equals(responseId(m))) {
                    answer.set(m);
                } else {
                    LOG.log(Level.DEBUG, () -> what + ": dropped a message that is not the initialize response");
                }
            };
            String newSid = resp.headers().firstValue(SESSION_HEADER).orElse(null);
            String type = mediaType(resp);
            if (type.equals("text/event-stream")) {
                SseParser parser = new SseParser(maxMessageBytes, null, (t, data, id) -> {
                    if ("message".equals(t) && !data.isBlank()) {
                        try {
                            JsonRpcCodec.decode(data).forEach(capture);
                        } catch (McpProtocolException e) {
                            LOG.log(Level.DEBUG, () -> what + ": skipped a malformed event");
                        }
                    }
                });
                readSse(call, resp.body(), parser, () -> answer.get() != null, what, true, ctx.deadlineNanos());
            } else if (isJson(type)) {
                byte[] bytes = readAll(call, resp.body(), maxMessageBytes, ctx.deadlineNanos());
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
            if (newSid != null && !isValidSessionId(newSid)) {
                throw new McpProtocolException(call.what + ": starting a new session failed: the server sent an "
                        + "invalid " + SESSION_HEADER + " (it must be visible ASCII, 0x21-0x7E)");
            }
            if (a instanceof JsonRpcMessage.Response r && r.result() instanceof Map<?, ?> result
                    && result.get("protocolVersion") instanceof String v && protocolVersion != null
                    && !v.equals(protocolVersion)) {
                LOG.log(Level.WARNING, "new session with {0} negotiated {1} instead of {2}; keeping {2}",
                        origin, v, protocolVersion);
            }
            sessionId = newSid;
            JsonRpcMessage.Notification initialized = initializedNotification;
            if (initialized != null) {
                try {
                    postOneWay(call, JsonRpcCodec.encode(initialized), newSid, protocolVersion, ctx.deadlineNanos());
                } catch (McpHttpStatusException e) {
                    sessionId = previous; // never keep a session that did not get notifications/initialized
                    throw new McpHttpStatusException(e.statusCode(), call.what + ": starting a new session failed: "
                            + "notifications/initialized was answered with HTTP " + e.statusCode(),
                            e.wwwAuthenticate());
                } catch (InterruptedException | RuntimeException e) {
                    sessionId = previous;
                    throw e;
                }
            }
            seenServerRequests.clear();
            LOG.log(Level.INFO, "new session with {0} started", origin);
            if (handshakeDone) {
                if (stopGetStream()) {
                    Thread.currentThread().interrupt();
                }
                startGetStream();
            }
            TransportSink s = sink;
            if (s != null && !closed.get()) {
                s.onSessionRestarted();
            }
        } finally {
            restartLock.unlock();
        }
    }

    /** Whether a protocol version can be sent as {@code MCP-Protocol-Version}: visible ASCII, not empty. */
    static boolean isValidVersion(String version) {
        return isValidSessionId(version);
    }

    /** Whether a session id can be sent back: visible ASCII (0x21-0x7E), not empty (spec "Session Management"). */
    static boolean isValidSessionId(String sid) {
        return !sid.isEmpty() && sid.chars().allMatch(c -> c >= 0x21 && c <= 0x7E);
    }

    /**
     * Sends the DELETE on its own thread and waits for it at most {@link #CLOSE_TIMEOUT_MILLIS} (plus a little for
     * it to unwind): a request signer is user code and may block, which must not hold {@link #close()}.
     *
     * @return whether the closing thread was interrupted while waiting
     */
    private boolean deleteSessionBounded(String sid) {
        Call call = new Call(null, "DELETE session");
        Thread t = McpThreads.start("http-delete", () -> deleteSession(sid, call));
        boolean interrupted = awaitBounded(() -> t.join(Duration.ofMillis(CLOSE_TIMEOUT_MILLIS + 500)),
                "the session DELETE");
        if (t.isAlive()) {
            call.abort();
            t.interrupt();
        }
        return interrupted;
    }

    private void deleteSession(String sid, Call call) {
        try {
            HttpResponse<StreamBody> resp = exchangeFollowingRedirects(call, "DELETE", EMPTY,
                    deleteHeaders(sid),
                    System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_TIMEOUT_MILLIS));
            int status = resp.statusCode();
            resp.body().close();
            LOG.log(Level.DEBUG, () -> "DELETE session answered HTTP " + status
                    + (status == 405 ? " (the server does not end sessions on request)" : ""));
        } catch (InterruptedException e) {
            // close() gave up waiting
        } catch (McpException e) {
            LOG.log(Level.DEBUG, () -> "DELETE session failed: " + e.getMessage());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "DELETE session with " + origin + " failed unexpectedly", e);
        } finally {
            call.abort();
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // the GET stream

    private void startGetStream() {
        streamLock.lock();
        try {
            if (closed.get() || !opened.get() || getThread != null) {
                return;
            }
            Call call = new Call(null, "GET stream");
            getCall = call;
            getThread = McpThreads.start("http-get", () -> runGetStream(call));
        } finally {
            streamLock.unlock();
        }
    }

    /**
     * Stops the GET stream and waits (bounded) for its thread.
     *
     * @return whether the calling thread was interrupted while waiting (the caller restores the status)
     */
    private boolean stopGetStream() {
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
            return awaitBounded(() -> t.join(Duration.ofMillis(CLOSE_TIMEOUT_MILLIS)), "the GET stream's thread");
        }
        return false;
    }

    private void runGetStream(Call call) {
        String lastId = null;
        long retry = -1;
        int failures = 0;
        try {
            while (!closed.get() && !call.aborted()) {
                try {
                    HttpResponse<StreamBody> resp = exchangeFollowingRedirects(call, "GET", EMPTY,
                            streamHeaders(sessionId, protocolVersion, lastId), Long.MAX_VALUE);
                    int status = resp.statusCode();
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
                        SseParser parser = new SseParser(maxMessageBytes, lastId, listener("GET stream",
                                lastId != null));
                        Outcome outcome = Outcome.ENDED;
                        try {
                            outcome = readSse(call, resp.body(), parser, () -> false, "GET stream", false,
                                    Long.MAX_VALUE);
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
                long delay = reconnectMillis(retry, Math.max(1, failures));
                if (!call.sleep(delay, Long.MAX_VALUE)) {
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

    // ------------------------------------------------------------------------------------------------------------
    // reading

    private enum Outcome { DONE, ENDED, IDLE }

    /**
     * Reads an SSE body until {@code done} holds or the stream ends.
     *
     * @param failOnIdle whether an idle timeout fails (request streams) or just ends the stream (GET stream)
     */
    private Outcome readSse(Call call, StreamBody body, SseParser parser, BooleanSupplier done, String what,
                            boolean failOnIdle, long deadlineNanos) throws InterruptedException {
        try {
            while (true) {
                if (done.getAsBoolean()) {
                    return Outcome.DONE;
                }
                ByteBuffer b = body.read(waitNanos(deadlineNanos));
                if (b == null) {
                    LOG.log(Level.DEBUG, () -> what + " ended");
                    return done.getAsBoolean() ? Outcome.DONE : Outcome.ENDED;
                }
                parser.feed(b);
            }
        } catch (StreamBody.ClosedException e) {
            if (done.getAsBoolean()) {
                return Outcome.DONE;
            }
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedException();
            }
            throw aborted(call);
        } catch (StreamBody.IdleTimeoutException e) {
            throwIfPast(call, deadlineNanos, "reading the " + what);
            if (failOnIdle) {
                throw new McpTransportException(what + ": no data for " + idleTimeout.toMillis()
                        + " ms (idle timeout)");
            }
            LOG.log(Level.DEBUG, () -> what + ": idle for " + idleTimeout.toMillis() + " ms; reconnecting");
            return Outcome.IDLE;
        } catch (IOException e) {
            LOG.log(Level.DEBUG, () -> what + " broke: " + e.getClass().getSimpleName());
            return done.getAsBoolean() ? Outcome.DONE : Outcome.ENDED;
        } finally {
            body.close();
            if (parser.unsendableIds() > 0) {
                LOG.log(Level.WARNING, "{0} of {1}: {2} SSE event id(s) cannot be sent back as {3} (control or "
                        + "non-Latin-1 characters); treated as none", what, origin, parser.unsendableIds(),
                        LAST_EVENT_ID_HEADER);
            }
        }
    }

    private byte[] readAll(Call call, StreamBody body, int max, long deadlineNanos) throws InterruptedException {
        try {
            return body.readAll(max, () -> waitNanos(deadlineNanos));
        } catch (StreamBody.ClosedException e) {
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedException();
            }
            throw aborted(call);
        } catch (StreamBody.IdleTimeoutException e) {
            throwIfPast(call, deadlineNanos, "reading the answer");
            throw new McpTransportException(call.what + ": no data for " + idleTimeout.toMillis()
                    + " ms (idle timeout)");
        } catch (StreamBody.TooLargeException e) {
            throw new McpProtocolException(call.what + ": " + e.getMessage());
        } catch (IOException e) {
            throw new McpTransportException(call.what + ": reading the answer failed: "
                    + e.getClass().getSimpleName(), e);
        } finally {
            body.close();
        }
    }

    private SseParser.Listener listener(String where, boolean replayed) {
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
                messages = JsonRpcCodec.decode(data);
            } catch (McpProtocolException e) {
                TransportSink s = sink;
                if (s != null) {
                    s.onSkipped(where + ": skipped an SSE event that is not JSON-RPC: " + e.getMessage());
                }
                return;
            }
            for (JsonRpcMessage m : messages) {
                deliver(m, replayed);
            }
        };
    }

    /** Hands one inbound message to the sink, dropping duplicate responses and replayed server requests. */
    private void deliver(JsonRpcMessage m, boolean replayed) {
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
        JsonRpcMessage.Request init = initializeRequest;
        if (protocolVersion == null && init != null && m instanceof JsonRpcMessage.Response r
                && init.id().equals(r.id()) && r.result() instanceof Map<?, ?> result
                && result.get("protocolVersion") instanceof String v && isValidVersion(v)) {
            // known before the client sends notifications/initialized, which should carry it already
            protocolVersion = v;
        }
        TransportSink s = sink;
        if (s != null) {
            s.onMessage(m);
        }
        RequestId id = responseId(m);
        if (id != null) {
            Call c = awaiting.get(id);
            if (c != null) {
                c.complete(m);
            }
        }
    }

    private static RequestId responseId(JsonRpcMessage m) {
        return switch (m) {
            case JsonRpcMessage.Response r -> r.id();
            case JsonRpcMessage.ErrorResponse e -> e.id();
            default -> null;
        };
    }

    // ------------------------------------------------------------------------------------------------------------
    // HTTP exchanges

    private List<String[]> postHeaders(String sid, String version) {
        List<String[]> h = new ArrayList<>(4);
        h.add(new String[] {"Accept", ACCEPT_POST});
        h.add(new String[] {"Content-Type", "application/json"});
        if (sid != null) {
            h.add(new String[] {SESSION_HEADER, sid});
        }
        if (version != null) {
            h.add(new String[] {VERSION_HEADER, version});
        }
        return h;
    }

    private List<String[]> deleteHeaders(String sid) {
        List<String[]> h = new ArrayList<>(2);
        h.add(new String[] {SESSION_HEADER, sid});
        String version = protocolVersion;
        if (version != null) {
            h.add(new String[] {VERSION_HEADER, version});
        }
        return h;
    }

    private List<String[]> streamHeaders(String sid, String version, String lastEventId) {
        List<String[]> h = new ArrayList<>(4);
        h.add(new String[] {"Accept", ACCEPT_SSE});
        if (sid != null) {
            h.add(new String[] {SESSION_HEADER, sid});
        }
        if (version != null) {
            h.add(new String[] {VERSION_HEADER, version});
        }
        if (lastEventId != null) {
            h.add(new String[] {LAST_EVENT_ID_HEADER, lastEventId});
        }
        return h;
    }

    /** Sends one request, following same-origin 307/308 redirects; the returned response is not a redirect. */
    private HttpResponse<StreamBody> exchangeFollowingRedirects(Call call, String method, byte[] body,
                                                                List<String[]> transportHeaders, long deadlineNanos)
            throws InterruptedException {
        URI uri = endpoint;
        for (int hop = 0; ; hop++) {
            HttpRequest request = buildRequest(call, method, uri, body, transportHeaders, deadlineNanos);
            if (WIRE.isLoggable(Level.DEBUG)) {
                WIRE.log(Level.DEBUG, call.what + ": " + method + " " + origin + (hop > 0 ? " (redirect " + hop + ")"
                        : ""));
            }
            traceBody("sent", call.what, body);
            HttpResponse<StreamBody> resp = exchange(call, request, deadlineNanos);
            int status = resp.statusCode();
            if (WIRE.isLoggable(Level.DEBUG)) {
                WIRE.log(Level.DEBUG, call.what + ": HTTP " + status + " " + mediaType(resp));
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
            if (!sameOrigin(next, endpoint)) {
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

    private HttpRequest buildRequest(Call call, String method, URI uri, byte[] body, List<String[]> transportHeaders,
                                     long deadlineNanos) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri)
                .method(method, body.length == 0 && !"POST".equals(method)
                        ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body))
                .timeout(headerTimeout(deadlineNanos));
        Map<String, List<String>> all = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (String[] h : headers) {
            b.header(h[0], h[1]);
            all.computeIfAbsent(h[0], k -> new ArrayList<>()).add(h[1]);
        }
        for (String[] h : transportHeaders) {
            if (!isSendableHeaderValue(h[1])) {
                // values taken from the server are validated when read; this guard keeps any that slipped through
                // from reaching the HTTP client, which would throw IllegalArgumentException quoting the value
                throw new McpProtocolException(call.what + ": the server's value for " + h[0]
                        + " cannot be sent back as a header");
            }
            b.header(h[0], h[1]);
            all.computeIfAbsent(h[0], k -> new ArrayList<>()).add(h[1]);
        }
        if (signer != null) {
            Map<String, List<String>> view = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            all.forEach((k, v) -> view.put(k, List.copyOf(v)));
            Map<String, String> added;
            try {
                added = signer.sign(method, uri, Collections.unmodifiableMap(view), body.clone());
            } catch (RuntimeException e) {
                throw new McpTransportException(call.what + ": the request signer failed ("
                        + e.getClass().getSimpleName() + ")", e);
            }
            if (added == null) {
                throw new McpTransportException(call.what + ": the request signer returned null");
            }
            for (Map.Entry<String, String> h : added.entrySet()) {
                String name = h.getKey();
                String problem = headerProblem(name, h.getValue());
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
        }
        return b.build();
    }

    /**
     * Sends one request and waits for its response headers, at most until {@code deadlineNanos}: a failure at or
     * after the deadline (the client's header timer, bounded by the same deadline, fires then too) is the call's
     * timeout, never a transport failure.
     */
    private HttpResponse<StreamBody> exchange(Call call, HttpRequest request, long deadlineNanos)
            throws InterruptedException {
        HttpClient c = client;
        if (call.aborted()) {
            throw aborted(call);
        }
        CompletableFuture<HttpResponse<StreamBody>> future;
        try {
            future = c.sendAsync(request, info -> {
                StreamBody body = new StreamBody();
                call.attach(body);
                return body;
            });
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

    private McpException ioFailure(Call call, Throwable cause) {
        String what = call.what;
        if (cause instanceof HttpConnectTimeoutException) {
            return new McpTransportException(what + ": connecting to " + origin + " timed out", cause);
        }
        if (cause instanceof HttpTimeoutException) {
            return new McpTransportException(what + ": no response headers from " + origin + " in time", cause);
        }
        if (cause instanceof ConnectException) {
            return new McpTransportException(what + ": cannot connect to " + origin + " ("
                    + cause.getClass().getSimpleName() + ")", cause);
        }
        if (cause instanceof javax.net.ssl.SSLException) {
            return new McpTransportException(what + ": TLS with " + origin + " failed ("
                    + cause.getClass().getSimpleName() + ")", cause);
        }
        if (closed.get()) {
            return new McpClosedException(what + ": HTTP transport to " + origin + " was closed", cause);
        }
        return new McpTransportException(what + ": HTTP exchange with " + origin + " failed ("
                + (cause == null ? "unknown" : cause.getClass().getSimpleName()) + ")", cause);
    }

    private McpClosedException closedNow(String what) {
        return new McpClosedException("HTTP transport to " + origin + " is closed: " + what, null);
    }

    /** A failure that happened because (or after) the transport was closed is reported as closed. */
    private McpException closedOr(McpException e) {
        if (closed.get() && !(e instanceof McpClosedException)) {
            return new McpClosedException(e.getMessage() + " (the HTTP transport to " + origin + " was closed)", e);
        }
        return e;
    }

    private McpException aborted(Call call) {
        if (closed.get()) {
            return new McpClosedException(call.what + ": HTTP transport to " + origin + " was closed", null);
        }
        return new McpTransportException(call.what + ": aborted");
    }

    /**
     * Whether {@code deadlineNanos} (a {@link System#nanoTime()} value, {@code Long.MAX_VALUE} for none) passed, or
     * is less than {@link #TIMER_SLACK_NANOS} away: timers are not exact (the HTTP client's fires when less than a
     * millisecond is left, truncating), so a timer set for the deadline may fire a little before it.
     */
    private static boolean past(long deadlineNanos) {
        return deadlineNanos != Long.MAX_VALUE && System.nanoTime() - (deadlineNanos - TIMER_SLACK_NANOS) >= 0;
    }

    /**
     * Throws the call's timeout when its deadline passed: a transport timer (idle, header, reconnect wait) that
     * fires at or after the deadline must not turn the call's timeout into a transport failure.
     */
    private static void throwIfPast(Call call, long deadlineNanos, String doing) {
        if (past(deadlineNanos)) {
            throw timedOut(call, doing);
        }
    }

    private static McpTimeoutException timedOut(Call call, String doing) {
        return new McpTimeoutException(call.what + " timed out: its deadline passed while " + doing);
    }

    /** The wait for the next byte of a response: the idle timeout, or less when the deadline comes first. */
    private long waitNanos(long deadlineNanos) {
        long idle = idleNanos();
        if (deadlineNanos == Long.MAX_VALUE) {
            return idle;
        }
        return Math.max(1, Math.min(idle, deadlineNanos - System.nanoTime()));
    }

    /**
     * Bounds a request until its response headers: connecting (connect timeout) plus one idle period, and a little
     * past the deadline, so that the transport's own wait in {@link #exchange} reports the deadline first.
     */
    private Duration headerTimeout(long deadlineNanos) {
        long idle = saturatedAdd(idleNanos(), connectTimeout.toNanos());
        if (deadlineNanos != Long.MAX_VALUE) {
            long remaining = deadlineNanos - System.nanoTime();
            idle = Math.min(idle, Math.max(remaining, 0) + TIMER_SLACK_NANOS);
        }
        return Duration.ofNanos(idle);
    }

    private static long saturatedAdd(long a, long b) {
        long r = a + b;
        return r < 0 ? Long.MAX_VALUE : r;
    }

    private long idleNanos() {
        return idleTimeout.toNanos();
    }

    /**
     * The wait before reconnection attempt {@code attempt} (1-based): the server's {@code retry} when it sent one
     * ({@code retryMillis >= 0}), else the configured delay doubling per attempt up to {@link #MAX_BACKOFF_MILLIS};
     * never less than {@link #MIN_RECONNECT_MILLIS} (a server's {@code retry: 0} or a sub-millisecond delay must not
     * make a reconnect loop spin).
     */
    private long reconnectMillis(long retryMillis, int attempt) {
        long d;
        if (retryMillis >= 0) {
            d = retryMillis;
        } else {
            d = reconnectDelayMillis << Math.min(Math.max(attempt - 1, 0), 10);
            d = Math.min(d, Math.max(MAX_BACKOFF_MILLIS, reconnectDelayMillis));
        }
        return Math.max(d, MIN_RECONNECT_MILLIS);
    }

    private static List<AuthChallenge> challenges(HttpResponse<?> resp) {
        int s = resp.statusCode();
        if (s != 401 && s != 403) {
            return List.of();
        }
        return AuthChallenge.parse(resp.headers().allValues("WWW-Authenticate"));
    }

    private static String mediaType(HttpResponse<?> resp) {
        String ct = resp.headers().firstValue("Content-Type").orElse("");
        int semi = ct.indexOf(';');
        String t = (semi >= 0 ? ct.substring(0, semi) : ct).trim().toLowerCase(Locale.ROOT);
        return t.chars().allMatch(c -> c > 0x20 && c < 0x7f) && t.length() <= 100 ? t : "(unreadable)";
    }

    private static boolean isJson(String mediaType) {
        return mediaType.equals("application/json") || mediaType.endsWith("+json");
    }

    private static void traceBody(String verb, String what, byte[] body) {
        if (body.length > 0 && WIRE.isLoggable(Level.TRACE)) {
            WIRE.log(Level.TRACE, what + " " + verb + ": " + new String(body, StandardCharsets.UTF_8));
        }
    }

    static boolean sameOrigin(URI a, URI b) {
        return a.getScheme() != null && b.getScheme() != null
                && a.getScheme().equalsIgnoreCase(b.getScheme())
                && a.getHost() != null && b.getHost() != null
                && a.getHost().equalsIgnoreCase(b.getHost())
                && effectivePort(a) == effectivePort(b)
                && a.getRawUserInfo() == null;
    }

    private static int effectivePort(URI u) {
        if (u.getPort() >= 0) {
            return u.getPort();
        }
        return "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
    }

    static String originOf(URI u) {
        String host = u.getHost();
        if (host != null && host.indexOf(':') >= 0 && !host.startsWith("[")) {
            host = "[" + host + "]";
        }
        return u.getScheme().toLowerCase(Locale.ROOT) + "://" + host + ":" + effectivePort(u);
    }

    /** Returns why a header is not acceptable (naming it, never its value), or {@code null} when it is. */
    static String headerProblem(String name, String value) {
        if (name == null || name.isEmpty()) {
            return "a header without a name";
        }
        for (int i = 0; i < name.length(); i++) {
            if (!isTokenChar(name.charAt(i))) {
                return "a header name that is not an HTTP token";
            }
        }
        String lower = name.toLowerCase(Locale.ROOT);
        if (OWNED_HEADERS.contains(lower)) {
            return "the header " + name + ", which the transport sets itself";
        }
        if (RESTRICTED_HEADERS.contains(lower)) {
            return "the header " + name + ", which the HTTP client does not allow";
        }
        if (value == null) {
            return "a null value for the header " + name;
        }
        if (!isSendableHeaderValue(value)) {
            return "an invalid value (control or non-Latin-1 character) for the header " + name;
        }
        return null;
    }

    /**
     * Whether a value can be sent as an HTTP header value: RFC 9110 field values are visible characters, SP and HTAB
     * (obs-text 0x80-0xFF tolerated), never a control character or DEL, which the JDK refuses with an
     * {@link IllegalArgumentException} quoting the value. Used for caller headers and for every value taken from
     * the server that is sent back (SSE event ids; session ids and the protocol version are stricter still).
     */
    static boolean isSendableHeaderValue(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 && c != '\t') || c == 0x7f || c > 0xff) {
                return false;
            }
        }
        return true;
    }

    private static boolean isTokenChar(char c) {
        if (c <= 0x20 || c >= 0x7f) {
            return false;
        }
        return "\"(),/:;<=>?@[\\]{}".indexOf(c) < 0;
    }

    static String describeConfig(URI endpoint, List<String[]> headers, boolean signer, String tls) {
        StringBuilder sb = new StringBuilder("[endpoint=");
        sb.append(originOf(endpoint));
        String path = endpoint.getRawPath();
        sb.append(path == null ? "" : path);
        if (endpoint.getRawQuery() != null) {
            sb.append("?<redacted>");
        }
        sb.append(", headers=[");
        for (int i = 0; i < headers.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(headers.get(i)[0]).append(": <redacted>");
        }
        sb.append("], signer=").append(signer ? "set" : "none");
        sb.append(", tls=").append(tls).append(']');
        return sb.toString();
    }

    // ------------------------------------------------------------------------------------------------------------
    // helpers

    /**
     * One logical exchange (a request with its redirects and resumptions, a GET stream, a DELETE) that any thread
     * can abort at once: the pending HTTP future is cancelled and the body being read is closed.
     */
    static final class Call {
        final RequestId awaitedId;
        final String what;
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition changed = lock.newCondition();
        private boolean aborted;
        private volatile boolean completed;
        private CompletableFuture<?> future;
        private StreamBody body;
        volatile JsonRpcMessage response;

        Call(RequestId awaitedId, String what) {
            this.awaitedId = awaitedId;
            this.what = what;
        }

        void attach(CompletableFuture<?> f) {
            lock.lock();
            try {
                if (!aborted) {
                    future = f;
                    return;
                }
            } finally {
                lock.unlock();
            }
            f.cancel(true);
        }

        void attach(StreamBody b) {
            lock.lock();
            try {
                if (!aborted) {
                    body = b;
                    return;
                }
            } finally {
                lock.unlock();
            }
            b.close();
        }

        /** Aborts: cancels the pending future and closes the body. Never blocks on I/O. */
        void abort() {
            CompletableFuture<?> f;
            StreamBody b;
            lock.lock();
            try {
                if (aborted) {
                    return;
                }
                aborted = true;
                f = future;
                b = body;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
            if (f != null) {
                f.cancel(true);
            }
            if (b != null) {
                b.close();
            }
        }

        /** Releases what is still open at the end of the call, without marking it aborted. */
        void release() {
            CompletableFuture<?> f;
            StreamBody b;
            lock.lock();
            try {
                f = future;
                b = body;
            } finally {
                lock.unlock();
            }
            if (f != null && !f.isDone()) {
                f.cancel(true);
            }
            if (b != null) {
                b.close();
            }
        }

        boolean aborted() {
            lock.lock();
            try {
                return aborted;
            } finally {
                lock.unlock();
            }
        }

        boolean completed() {
            return completed;
        }

        /**
         * Marks the awaited response delivered (from any stream) and ends the current exchange: a pending future is
         * cancelled and the body being read is closed.
         */
        void complete(JsonRpcMessage m) {
            StreamBody b;
            CompletableFuture<?> f;
            lock.lock();
            try {
                response = m;
                completed = true;
                b = body;
                f = future;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
            if (f != null && !f.isDone()) {
                f.cancel(true);
            }
            if (b != null) {
                b.close();
            }
        }

        /**
         * Waits {@code millis}, or less when the call is aborted or completed or {@code deadlineNanos} comes first.
         *
         * @return {@code false} when aborted
         */
        boolean sleep(long millis, long deadlineNanos) throws InterruptedException {
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
            if (deadlineNanos != Long.MAX_VALUE && deadlineNanos - end < 0) {
                end = deadlineNanos;
            }
            lock.lockInterruptibly();
            try {
                while (!aborted && !completed) {
                    long left = end - System.nanoTime();
                    if (left <= 0) {
                        break;
                    }
                    changed.awaitNanos(left);
                }
                return !aborted;
            } finally {
                lock.unlock();
            }
        }
    }

    /** A bounded set of recently seen ids (oldest evicted first). Thread-safe. */
    static final class SeenIds {
        private final ReentrantLock lock = new ReentrantLock();
        private final LinkedHashMap<RequestId, Boolean> ids;

        SeenIds(int capacity) {
            ids = new LinkedHashMap<>(16, 0.75f, false) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<RequestId, Boolean> eldest) {
                    return size() > capacity;
                }
            };
        }

        boolean add(RequestId id) {
            lock.lock();
            try {
                return ids.put(id, Boolean.TRUE) == null;
            } finally {
                lock.unlock();
            }
        }

        void clear() {
            lock.lock();
            try {
                ids.clear();
            } finally {
                lock.unlock();
            }
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // builder

    /**
     * Builds an {@link HttpTransport}. Not thread-safe; {@link #build()} may be called more than once and each
     * transport gets a snapshot of the settings.
     */
    public static final class Builder {
        private final URI endpoint;
        private final List<String[]> headers = new ArrayList<>();
        private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
        private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
        private RequestSigner signer;
        private Path certChain;
        private Path privateKey;
        private Path pkcs12;
        private char[] pkcs12Password;
        private Path trustedCertificates;
        private SSLContext sslContext;
        private int maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;
        private Duration reconnectDelay = Duration.ofMillis(DEFAULT_RETRY_MILLIS);

        private Builder(URI endpoint) {
            Objects.requireNonNull(endpoint, "endpoint");
            if (!endpoint.isAbsolute() || endpoint.getScheme() == null
                    || !(endpoint.getScheme().equalsIgnoreCase("http")
                    || endpoint.getScheme().equalsIgnoreCase("https"))) {
                throw new IllegalArgumentException("the endpoint must be an absolute http or https URI");
            }
            if (endpoint.getHost() == null || endpoint.getHost().isEmpty()) {
                throw new IllegalArgumentException("the endpoint has no host");
            }
            if (endpoint.getRawUserInfo() != null) {
                throw new IllegalArgumentException("the endpoint must not carry user info; send credentials with "
                        + "header(\"Authorization\", ...)");
            }
            if (endpoint.getPort() > 65535) {
                throw new IllegalArgumentException("the endpoint's port " + endpoint.getPort()
                        + " is out of range (1-65535)");
            }
            this.endpoint = endpoint;
        }

        /**
         * Adds a header sent with every request the transport makes (POST, GET, DELETE), for example
         * {@code Authorization}. The value is owned by the caller: it is never logged and never in a message. A
         * name may be added more than once (several values).
         *
         * @param name  the header name, an HTTP token
         * @param value the value: no control characters other than HTAB
         * @return this builder
         * @throws IllegalArgumentException if the name is not a token, is one the transport sets itself
         *                                  ({@code Accept}, {@code Content-Type}, {@code Mcp-Session-Id},
         *                                  {@code MCP-Protocol-Version}, {@code Last-Event-ID}) or one the JDK
         *                                  forbids ({@code Host}, {@code Content-Length}, ...), or the value is
         *                                  invalid; the message names the header, never the value
         */
        public Builder header(String name, String value) {
            String problem = headerProblem(name, value);
            if (problem != null) {
                throw new IllegalArgumentException("cannot add " + problem);
            }
            headers.add(new String[] {name, value});
            return this;
        }

        /**
         * Sets the bound for establishing a connection (TCP and TLS). Default 10 seconds.
         *
         * @param timeout a positive duration
         * @return this builder
         * @throws IllegalArgumentException if not positive
         */
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = positive(timeout, "connectTimeout");
            return this;
        }

        /**
         * Sets the stream idle timeout: the longest wait for the next byte of a response (its headers, a JSON body,
         * or an SSE stream, where comments count as bytes). It is separate from the request deadline. When a
         * request's stream is idle that long the request fails; when the GET stream is, it is reconnected. Default
         * 5 minutes.
         *
         * @param timeout a positive duration
         * @return this builder
         * @throws IllegalArgumentException if not positive
         */
        public Builder idleTimeout(Duration timeout) {
            this.idleTimeout = positive(timeout, "idleTimeout");
            return this;
        }

        /**
         * Sets the first reconnection delay used when the server sent no SSE {@code retry} (resuming a response
         * stream, reconnecting the GET stream); it doubles after each attempt without progress, up to 30 seconds.
         * A server's {@code retry} always wins. Any wait shorter than {@value HttpTransport#MIN_RECONNECT_MILLIS} ms
         * (this delay, or a server's {@code retry: 0}) is raised to that floor. Default 1 second.
         *
         * @param delay a positive duration
         * @return this builder
         * @throws IllegalArgumentException if not positive
         */
        public Builder reconnectDelay(Duration delay) {
            this.reconnectDelay = positive(delay, "reconnectDelay");
            return this;
        }

        /**
         * Sets a signer called for every request the transport makes; see {@link RequestSigner}.
         *
         * @param signer the signer, or {@code null} for none (the default)
         * @return this builder
         */
        public Builder requestSigner(RequestSigner signer) {
            this.signer = signer;
            return this;
        }

        /**
         * Presents a TLS client certificate (mutual TLS) read from PEM files when {@link #build()} runs: the
         * certificate chain (leaf first) and its private key as unencrypted PKCS#8 ({@code BEGIN PRIVATE KEY}; RSA,
         * EC, Ed25519 or Ed448). The key never leaves the process and is never logged or put in a message. Server
         * certificates are checked against the JDK's trust store unless {@link #trustedCertificatesPem} is set.
         *
         * @param certificateChain the PEM certificate chain file
         * @param pkcs8PrivateKey  the PEM PKCS#8 private key file
         * @return this builder
         */
        public Builder clientIdentityPem(Path certificateChain, Path pkcs8PrivateKey) {
            this.certChain = Objects.requireNonNull(certificateChain, "certificateChain");
            this.privateKey = Objects.requireNonNull(pkcs8PrivateKey, "pkcs8PrivateKey");
            this.pkcs12 = null;
            clearPassword();
            return this;
        }

        /**
         * Presents a TLS client certificate (mutual TLS) from a PKCS#12 key store read when {@link #build()} runs.
         * The password is copied; clear your array after the call if you like.
         *
         * @param keyStore the PKCS#12 file
         * @param password its password (also used for the key entry)
         * @return this builder
         */
        public Builder clientIdentityPkcs12(Path keyStore, char[] password) {
            this.pkcs12 = Objects.requireNonNull(keyStore, "keyStore");
            clearPassword();
            this.pkcs12Password = Objects.requireNonNull(password, "password").clone();
            this.certChain = null;
            this.privateKey = null;
            return this;
        }

        /**
         * Trusts the certificates in a PEM file (instead of the JDK's trust store) for server certificates, for
         * example a private CA. Combines with a client identity.
         *
         * @param pemFile the PEM file with one or more certificates
         * @return this builder
         */
        public Builder trustedCertificatesPem(Path pemFile) {
            this.trustedCertificates = Objects.requireNonNull(pemFile, "pemFile");
            return this;
        }

        /**
         * Uses the caller's TLS context (key and trust material) as is. Exclusive with the client identity and
         * trusted certificate settings.
         *
         * @param context the context, or {@code null} for the JDK default (the default)
         * @return this builder
         */
        public Builder sslContext(SSLContext context) {
            this.sslContext = context;
            return this;
        }

        /**
         * Sets the largest accepted message: a JSON body or one SSE event (and one SSE line). Default 16 MiB.
         *
         * @param bytes a positive size in bytes
         * @return this builder
         * @throws IllegalArgumentException if not positive
         */
        public Builder maxMessageSize(int bytes) {
            if (bytes <= 0) {
                throw new IllegalArgumentException("maxMessageSize must be positive");
            }
            this.maxMessageBytes = bytes;
            return this;
        }

        /**
         * Builds the transport. TLS material given as files is read now.
         *
         * @return a new transport, not yet opened
         * @throws IllegalStateException if {@link #sslContext} is combined with a client identity or trusted
         *                               certificates
         * @throws McpTransportException if a certificate, key or key store cannot be read (the message names the
         *                               file and the problem, never key material)
         */
        public HttpTransport build() {
            boolean fileTls = certChain != null || pkcs12 != null || trustedCertificates != null;
            if (sslContext != null && fileTls) {
                throw new IllegalStateException("sslContext cannot be combined with clientIdentityPem, "
                        + "clientIdentityPkcs12 or trustedCertificatesPem");
            }
            SSLContext ssl = sslContext;
            if (fileTls) {
                ssl = TlsMaterial.build(certChain, privateKey, pkcs12, pkcs12Password, trustedCertificates);
            }
            return new HttpTransport(this, ssl);
        }

        String tlsDescription() {
            if (sslContext != null) {
                return "caller context";
            }
            String id = certChain != null ? "PEM identity" : pkcs12 != null ? "PKCS#12 identity" : "default";
            return trustedCertificates != null ? id + " + trusted PEM" : id;
        }

        private void clearPassword() {
            if (pkcs12Password != null) {
                Arrays.fill(pkcs12Password, '\0');
                pkcs12Password = null;
            }
        }

        private static Duration positive(Duration d, String what) {
            Objects.requireNonNull(d, what);
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(what + " must be positive");
            }
            if (d.compareTo(Duration.ofDays(365)) > 0) {
                throw new IllegalArgumentException(what + " must be at most 365 days, got " + d);
            }
            return d;
        }

        /** Describes the settings; header values and the endpoint's query are redacted. */
        @Override
        public String toString() {
            return "HttpTransport.Builder" + describeConfig(endpoint, headers, signer != null, tlsDescription());
        }
    }
}
