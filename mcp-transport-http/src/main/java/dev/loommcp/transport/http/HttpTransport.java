package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.Exchange.LOG;
import static dev.loommcp.transport.http.HeaderRules.VERSION_HEADER;

import dev.loommcp.McpClosedException;
import dev.loommcp.McpException;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.Deadline;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.spi.SendContext;
import dev.loommcp.spi.TransportContext;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import org.jspecify.annotations.Nullable;

/**
 * The Streamable HTTP transport of MCP 2025-03-26 .. 2025-11-25 (spec "Transports", "Streamable HTTP"; SPEC-NOTES
 * section 5.2) and of MCP 2026-07-28 (stateless), on {@link HttpClient} with automatic redirects off.
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
 *   <li>The {@code Mcp-Session-Id} the server returns to a request sent without a session (the client's
 *       {@code initialize}) is sent on every later request, and so is {@code MCP-Protocol-Version} once the client
 *       {@linkplain #handshakeCompleted tells} the version. A 404 for any request that carried the session (a POST,
 *       the GET that resumes a response stream, the GET stream) marks the session expired and fails that send with
 *       {@link dev.loommcp.McpSessionExpiredException}; the client then starts a new session itself (and may send
 *       the request again). Until the answer to the next {@code initialize} (the one MCP method the transport
 *       knows) no other message goes out: each is refused unsent
 *       ({@link dev.loommcp.McpSessionExpiredException#wasSent()} {@code false}), never sent without the session.
 *       The {@code DELETE} of {@link #close()} ignores a 404 (the session is gone already).</li>
 *   <li>After the handshake it opens the optional GET stream for messages the server starts on its own (405, 400,
 *       or 404 without a session, mean none is offered) and reconnects it with backoff, at most
 *       {@value #MAX_STREAM_ATTEMPTS} times in a row without receiving anything.</li>
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
 *       fine) bounded by {@link #CLOSE_TIMEOUT} (3 s), and shuts the HTTP client down.</li>
 *   <li>A server that offers only the HTTP+SSE transport of 2024-11-05: when the client's {@code initialize} is
 *       refused with 400, 404 or 405, a {@code GET} on the same URL that announces an {@code endpoint} makes the
 *       transport carry the session that way ({@link SseTransport}); see
 *       {@link Builder#legacySseFallback(boolean)}.</li>
 * </ul>
 *
 * <p>The modern era (MCP 2026-07-28), for every message whose {@link SendContext#routing() routing} is present
 * (the client computes it; its absence means the legacy era above, unchanged):
 * <ul>
 *   <li>Each POST carries {@code Accept: application/json, text/event-stream}, {@code Content-Type:
 *       application/json}, {@code MCP-Protocol-Version}, {@code Mcp-Method}, {@code Mcp-Name} when the message has
 *       a routing name, and {@code Mcp-Param-<name>} for each designated tool argument. {@code Mcp-Name} and
 *       {@code Mcp-Param-*} values that are not plain header-safe ASCII (non-ASCII, a control character including
 *       TAB, CR and LF, leading or trailing whitespace), or that look like the sentinel, go as
 *       {@code =?base64?<base64 of the UTF-8 bytes>?=}; the empty string is an empty header value.</li>
 *   <li>Stateless: no {@code Mcp-Session-Id} is sent or taken, no GET stream, no {@code DELETE}, no resumption. A
 *       response stream (notifications for the request, then its response; comments ignored; a server request is
 *       dropped) that ends before the response fails the request at once with {@link McpTransportException}.
 *       Cancelling a request aborts its exchange (the server sees the connection close).</li>
 *   <li>Errors: a non-2xx answer whose body is a JSON-RPC error (also with {@code id: null}) is handed to the
 *       client as the request's answer ({@code -32020}, {@code -32021}, {@code -32022}, {@code -32601}...), except
 *       401 and 403 (authorization) and 5xx (a server failure), which fail with {@link McpHttpStatusException}, as
 *       does any non-2xx without such a body. A 2xx whose body is not a JSON-RPC answer fails with
 *       {@link McpProtocolException}.</li>
 *   <li>A request without a deadline ({@link Deadline#NONE}, such as a {@code subscriptions/listen} stream) is
 *       bounded by no transport timer but the connect timeout: no header wait, no idle timeout.</li>
 * </ul>
 *
 * <p>Timeouts: the connect timeout bounds establishing a connection; the idle timeout bounds the wait for the next
 * byte of a response (response headers, JSON bodies, SSE streams; any byte, SSE comments included, resets it) and is
 * separate from the request deadline, which the client enforces by cancelling the exchange. No wait of a send outlives
 * its deadline either: when the deadline passes while the transport waits (for response headers, the next byte, a
 * reconnection delay) the send fails with {@link McpTimeoutException}, never with a transport failure, so a call
 * always times out as a timeout whichever timer notices first. Every reconnection (resumption, GET stream) waits at
 * least {@link #MIN_RECONNECT} (100 ms), whatever the server's {@code retry}, and at most {@link #MAX_SERVER_RETRY}
 * (30 s) for a server's {@code retry}; a call that times out while waiting to resume its response stream says so
 * in its {@link McpTimeoutException}.
 *
 * <p>Thread-safety: an instance is used by one client; {@link #send} may be called from many threads at once.
 * Threads: HTTP client work runs on virtual threads named {@code mcp-http-<n>}, the GET stream on one named
 * {@code mcp-http-get-<n>}; none outlives {@link #close()}. A message's exchange runs on the calling thread when
 * the caller waits for the answer, else on a thread of the send ({@link SendContext#fork}, {@code mcp-http-send-<n>}),
 * which the core's request scope owns: close aborts its exchange, so it ends promptly.
 *
 * <p>Secrets: caller header values, signer output, an authorization provider's credentials and key material are
 * never logged and never put in exception messages; {@link #toString()} redacts header values and the endpoint's
 * query, and says whether a signer and an authorization provider are set, never what they are.
 */
public final class HttpTransport implements McpTransport {

    // The parts (none refers back to this class): Exchange (one HTTP exchange: request, signer, redirects, abort,
    // failure mapping), ResponseStream (JSON and SSE bodies, resumption), Inbound (delivery to the sink, dedupe,
    // the calls awaiting a response), GetStream (the GET stream's supervisor), Sender (POSTing the client's
    // messages; a 404 expires the session and reports McpSessionExpiredException, the client starts the new one),
    // HttpSession
    // (id and version, one immutable value in one AtomicReference), SessionDelete (the bounded DELETE of close),
    // HttpSettings and HeaderRules.

    /** The most redirects (307/308, same origin) followed for one request. */
    public static final int MAX_REDIRECTS = HttpSettings.MAX_REDIRECTS;
    /** The most consecutive reconnection attempts without progress, for resumption and for the GET stream. */
    public static final int MAX_STREAM_ATTEMPTS = HttpSettings.MAX_STREAM_ATTEMPTS;
    /**
     * The shortest wait before any reconnection (resuming a response stream, reconnecting the GET stream), whatever
     * the server's SSE {@code retry} or the configured reconnect delay: 100 ms.
     */
    public static final Duration MIN_RECONNECT = Duration.ofMillis(HttpSettings.MIN_RECONNECT_MILLIS);
    /**
     * The longest wait before a reconnection that a server's SSE {@code retry} can ask for: 30 s. A larger
     * {@code retry} (a server once sent 999,999,999 ms) is cut to it; a call whose deadline passes while it waits
     * to resume its response stream times out saying so.
     */
    public static final Duration MAX_SERVER_RETRY = Duration.ofMillis(HttpSettings.MAX_SERVER_RETRY_MILLIS);
    /** The bound of the {@code DELETE} sent by {@link #close()} and of each of close's other waits: 3 s. */
    public static final Duration CLOSE_TIMEOUT = Duration.ofMillis(HttpSettings.CLOSE_TIMEOUT_MILLIS);

    private final HttpSettings settings;
    private final String origin;

    private final AtomicBoolean opened = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Whether the client completed a handshake before: a later one is a new session after an expiry. */
    private final AtomicBoolean handshakeSeen = new AtomicBoolean();
    private volatile ExecutorService executor;

    /** The session: id and protocol version, replaced as a whole, read once per exchange. */
    private final AtomicReference<HttpSession> session = new AtomicReference<>(HttpSession.NONE);
    private final Exchange exchange;
    private final Inbound inbound;
    private final GetStream getStream;
    private final Sender sender;
    /** The fallback to the HTTP+SSE transport of 2024-11-05, or {@code null} when turned off. */
    private final LegacyFallback fallback;

    private HttpTransport(Builder b, HttpSettings settings) {
        this.settings = settings;
        this.origin = settings.origin;
        this.exchange = new Exchange(settings, closed);
        this.inbound = new Inbound(closed);
        ResponseStream responses = new ResponseStream(settings, exchange, inbound, session);
        this.getStream = new GetStream(settings, exchange, responses, inbound, session, opened, closed);
        this.sender = new Sender(exchange, responses, inbound, session, closed, settings);
        this.fallback = b.legacySseFallback ? new LegacyFallback(settings, exchange) : null;
    }

    /**
     * Starts a builder for the given MCP endpoint.
     *
     * <p>An endpoint of another scheme is carried by the {@link HttpConnector} that serves it, found with
     * {@link java.util.ServiceLoader}: {@code unix:/run/app.sock:/mcp} (a unix domain socket) with the module
     * {@code dev.loommcp.transport.unix} (artifact {@code mcp-transport-unix}) present; see that module for the
     * syntax. http and https endpoints never load a connector.
     *
     * @param endpoint the server's MCP endpoint, an absolute {@code http} or {@code https} URI without user info;
     *                 it is used exactly as given, path and query included, nothing appended; or an endpoint of a
     *                 connector's scheme
     * @return the builder
     * @throws NullPointerException     if {@code endpoint} is {@code null}
     * @throws IllegalArgumentException if the URI is not absolute, not http(s), has no host or carries user info;
     *                                  for another scheme, if no connector serves it (for {@code unix:} the
     *                                  message names the module to add) or the connector refuses the endpoint
     */
    public static Builder newBuilder(URI endpoint) {
        return new Builder(draft(endpoint));
    }

    /** The settings draft of {@link #newBuilder(URI)} (and of {@link SseTransport#newBuilder(URI)}). */
    static SettingsDraft draft(URI endpoint) {
        Objects.requireNonNull(endpoint, "endpoint");
        String scheme = endpoint.getScheme();
        if (scheme == null || scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https")) {
            return new SettingsDraft(endpoint, null);
        }
        return new SettingsDraft(endpoint, Connectors.find(scheme));
    }

    /**
     * Starts a builder for an endpoint served by the given connector (for example one that is not registered as
     * a service); see {@link HttpConnector}.
     *
     * @param endpoint  the endpoint, of the connector's scheme
     * @param connector the connector that carries the transport's exchanges
     * @return the builder
     * @throws NullPointerException     if an argument is {@code null}
     * @throws IllegalArgumentException if the endpoint's scheme is not the connector's, or the connector refuses
     *                                  the endpoint (the message says why)
     */
    public static Builder newBuilder(URI endpoint, HttpConnector connector) {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(connector, "connector");
        if (endpoint.getScheme() == null || !endpoint.getScheme().equalsIgnoreCase(connector.scheme())) {
            throw new IllegalArgumentException("the endpoint's scheme is not " + connector.scheme() + ":");
        }
        return new Builder(new SettingsDraft(endpoint, connector));
    }

    /**
     * Starts a builder for the given MCP endpoint; see {@link #newBuilder(URI)}.
     *
     * @param endpoint the endpoint URL
     * @return the builder
     * @throws IllegalArgumentException if the text is not a valid URI or not acceptable as an endpoint
     */
    public static Builder newBuilder(String endpoint) {
        return newBuilder(URI.create(Objects.requireNonNull(endpoint, "endpoint")));
    }

    /**
     * Returns the endpoint, exactly as given to the builder.
     *
     * @return the endpoint URI
     */
    public URI endpoint() {
        return settings.endpoint;
    }

    /**
     * Returns the current session id, for diagnostics and telemetry (interceptors read it through
     * {@code McpInterceptor.Chain.connection()}). A 2026-era exchange has none.
     *
     * @return the {@code Mcp-Session-Id} the server assigned, or empty when it assigned none (yet)
     */
    @Override
    public Optional<String> sessionId() {
        return Optional.ofNullable(session.get().id());
    }

    // ------------------------------------------------------------------------------------------------------------
    // SPI

    /**
     * Prepares the HTTP client; no request is sent yet.
     *
     * @throws McpClosedException    if {@link #close()} was called before or while opening (nothing is left open)
     * @throws IllegalStateException if called twice
     * @throws McpTransportException if the HTTP client cannot be started, or a {@link HttpConnector}'s client follows
     *                               redirects (nothing is left open)
     */
    @Override
    public void open(TransportContext context) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(context.sink(), "sink");
        if (closed.get()) {
            throw exchange.closedNow("cannot open");
        }
        if (!opened.compareAndSet(false, true)) {
            throw new IllegalStateException("transport already opened");
        }
        settings.framing = context.framing();
        settings.threads = context.threads();
        inbound.attach(fallback == null ? context : fallback.attach(context));
        ExecutorService ex = Executors.newThreadPerTaskExecutor(settings.threads.factory("http"));
        this.executor = ex;
        HttpClient client = newClient(settings, ex);
        exchange.attach(client);
        if (closed.get()) {
            // close() ran while we were building the client and found nothing to shut down: do it here
            client.shutdownNow();
            ex.shutdownNow();
            throw exchange.closedNow("closed while opening");
        }
        LOG.log(Level.DEBUG, () -> "HTTP transport opened for " + origin);
    }

    /**
     * The HTTP client of a transport with {@code settings}: the connector's, or the JDK's for http and https; on
     * failure {@code ex} is shut down.
     */
    static HttpClient newClient(HttpSettings settings, ExecutorService ex) {
        HttpClient client;
        try {
            client = settings.connector != null
                    ? settings.connector.newClient(settings.endpoint, new HttpConnector.Options(
                    settings.connectTimeout, ex, "mcp-" + settings.connector.scheme()))
                    : jdkClient(settings, ex);
        } catch (RuntimeException e) {
            ex.shutdownNow();
            throw e instanceof McpException m ? m : new McpTransportException("cannot start the HTTP client for "
                    + settings.origin + " (" + e.getClass().getSimpleName() + ")", e);
        }
        if (client.followRedirects() != HttpClient.Redirect.NEVER) {
            // the transport follows same-origin 307/308 itself; a client that follows redirects would resend
            // bodies and credentials to wherever a server points
            HttpClient.Redirect follows = client.followRedirects();
            client.shutdownNow();
            ex.shutdownNow();
            throw new McpTransportException("the HttpConnector for " + settings.connector.scheme()
                    + ": endpoints returned an HttpClient whose followRedirects() is " + follows
                    + "; it must be NEVER (the transport follows same-origin redirects itself)");
        }
        return client;
    }

    /** The JDK's HTTP client, for http and https endpoints. */
    private static HttpClient jdkClient(HttpSettings settings, ExecutorService ex) {
        HttpClient.Builder b = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(settings.connectTimeout)
                .executor(ex)
                .version("https".equalsIgnoreCase(settings.endpoint.getScheme())
                        ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1);
        if (settings.sslContext != null) {
            b.sslContext(settings.sslContext);
        }
        return b.build();
    }

    /**
     * Queues one message and returns: a request's exchange (POST, then its JSON or SSE answer, resumed if it breaks,
     * until the response was delivered to the sink) runs on a thread of the send, {@code mcp-http-send-<n>} started by
     * {@link SendContext#fork} (owned by the request's scope), aborted through the context's cancel; when the request
     * has ended already nothing is sent. When the context says that the
     * {@linkplain SendContext#callerWaits() caller waits} for the answer anyway and neither an
     * {@link AuthorizationProvider} nor a {@link RequestSigner} is set (user code that may block past the deadline),
     * the exchange runs on the calling thread instead, and this method returns once the answer was delivered or its
     * failure reported: the deadline, the context's cancel and {@link #close()} end it as promptly, and an interrupt
     * ends it and returns with the interrupt flag set. Its failure reaches the sink's
     * {@link dev.loommcp.spi.TransportSink#onSendFailed onSendFailed}: {@link dev.loommcp.McpSessionExpiredException}
     * on HTTP 404 for a request sent in a session, or for any request while the session is expired (refused unsent;
     * only {@code initialize} goes out then, without a session, and takes the session id its answer returns),
     * {@link McpHttpStatusException} on an unaccepted status or redirect, {@link McpTransportException} on I/O failure,
     * idle timeout or a stream that cannot be resumed, {@link McpProtocolException} when the answer is malformed or
     * lacks the response, {@link McpTimeoutException} when the deadline passes during the exchange (in the modern era,
     * see the class description: no session, no resumption, the error mapping there). A notification or response is
     * POSTed on a thread of the send (also {@link SendContext#fork}; dropped when the request it belongs to has ended
     * already) and a failure is logged at DEBUG and dropped, unless the context asks to
     * {@linkplain SendContext#awaitDelivery() await the delivery}: then it is POSTed on the calling thread, which
     * returns once the 202 arrived and throws what went wrong (the exceptions above). Messages are sent in the order of
     * the calls for one-way messages the core awaits; {@link #close()} lets queued notifications go out first.
     *
     * @throws McpClosedException       when the transport is closed
     * @throws IllegalStateException    when the transport was never opened (and is not closed)
     * @throws IllegalArgumentException when the context's routing cannot be sent as headers (a protocol version or
     *                                  method that is not visible ASCII, a parameter name that is not a token)
     * @throws InterruptedException     when the thread awaiting a delivery is interrupted (the POST is aborted)
     */
    @Override
    public void send(JsonRpcMessage message, SendContext context) throws InterruptedException {
        if (fallback != null && fallback.active() != null) {
            fallback.active().send(message, context);
            return;
        }
        byte[] body = encode(message, context);
        Dialect dialect = sender.dialect(context);
        Headers fixed = dialect.fixedHeaders(context);
        if (fallback != null && dialect.mayFallBack() && !handshakeSeen.get() && session.get().id() == null) {
            fallback.candidate(message, context);
        }
        if (message instanceof JsonRpcMessage.Request r) {
            sender.startRequest(r, body, context, dialect, fixed);
        } else {
            sender.startOneWay(body, context, oneWayWhat(message), dialect, fixed);
        }
    }

    /**
     * The blocking exchange behind {@link #send}, on the calling thread: a request is POSTed and its answer read
     * until the response was delivered; a notification or response is POSTed and its 202 accepted. Throws what
     * {@link #send} reports through the sink.
     */
    void exchange(JsonRpcMessage message, SendContext context) throws InterruptedException {
        byte[] body = encode(message, context);
        Dialect dialect = sender.dialect(context);
        Headers fixed = dialect.fixedHeaders(context);
        if (message instanceof JsonRpcMessage.Request r) {
            sender.exchange(r, body, context, dialect, fixed, false);
        } else {
            sender.sendOneWay(body, context, oneWayWhat(message), dialect, fixed);
        }
    }

    /** What a notification or response POST is called in logs and messages. */
    private static String oneWayWhat(JsonRpcMessage message) {
        return switch (message) {
            case JsonRpcMessage.Notification n -> "POST " + n.method();
            case JsonRpcMessage.Response r -> "POST response (id " + r.id() + ")";
            case JsonRpcMessage.ErrorResponse e -> "POST error response (id " + e.id() + ")";
            case JsonRpcMessage.Request r -> "POST " + r.method();
        };
    }

    /** The sender, for tests. */
    Sender sender() {
        return sender;
    }

    private byte[] encode(JsonRpcMessage message, SendContext context) {
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(context, "context");
        if (closed.get()) {
            throw exchange.closedNow("cannot send");
        }
        if (!opened.get()) {
            throw new IllegalStateException("transport not opened");
        }
        return settings.framing.encode(message);
    }

    /**
     * Records the negotiated version (sent as {@code MCP-Protocol-Version} from now on) and opens the optional GET
     * stream in the background. Called again for each new session after an expiry: the old session's GET stream
     * is then stopped (bounded) and one is opened in the new session.
     */
    @Override
    public void handshakeCompleted(String protocolVersion) {
        if (fallback != null && fallback.active() != null) {
            fallback.active().handshakeCompleted(protocolVersion);
            return;
        }
        if (protocolVersion != null && HeaderRules.isVisibleAscii(protocolVersion)) {
            session.updateAndGet(s -> s.withProtocolVersion(protocolVersion));
        } else if (protocolVersion != null) {
            // it goes into a header: a value the HTTP client would refuse must never reach a request
            LOG.log(Level.WARNING, "server at {0} negotiated a protocol version that cannot be sent as {1}; "
                    + "not sending it", origin, VERSION_HEADER);
        }
        if (!handshakeSeen.compareAndSet(false, true)) {
            getStream.sessionRestarted();
            LOG.log(Level.DEBUG, "new session with {0} started", origin); // the core says so at INFO
        } else {
            getStream.handshakeDone();
        }
    }

    /** Returns the endpoint's origin ({@code scheme://host:port}), without path, query or credentials. */
    /**
     * Returns the endpoint's kind and place: {@code TCP} with the host and port (the scheme's default port when the
     * endpoint names none) for http and https; {@code UNIX} with the socket file's path for a {@code unix:} endpoint;
     * {@code OTHER} for another connector's scheme.
     *
     * @return the info
     */
    @Override
    public dev.loommcp.spi.TransportInfo info() {
        return settings.info();
    }

    @Override
    public String describe() {
        return origin;
    }

    /**
     * Returns {@code true}: each request is one POST with its own response (MCP 2026-07-28 "Streamable HTTP"), so
     * a modern-era request is cancelled by aborting its exchange, and tools' {@code x-mcp-header} annotations apply.
     *
     * @return {@code true}
     */
    @Override
    public boolean exchangePerRequest() {
        return true;
    }

    /**
     * Returns the endpoint's full identity, the key of the core's era verdicts and cached {@code server/discover}
     * results (and of task stores): {@code scheme://host:port/path} (scheme and host in lower case), then, when the
     * endpoint has a query, {@code ?sha256:} and the hex SHA-256 of the raw query, so that two endpoints that differ
     * only in their query ({@code ?tenant=a}, {@code ?tenant=b}) are two servers while a secret in the query never
     * appears in clear (the key may be stored on disk by a task store). The fragment is not sent and not part of
     * it; an endpoint cannot carry user info.
     *
     * @return the key, always present
     */
    @Override
    public java.util.Optional<String> serverKey() {
        return java.util.Optional.of(settings.serverKey());
    }

    /**
     * Returns how many HTTP exchanges (POSTs and their response streams) the transport holds open right now:
     * a diagnostic, zero when idle and after {@link #close()}.
     *
     * @return the number of exchanges in flight
     */
    public int activeExchangeCount() {
        return sender.activeCount();
    }

    /**
     * Closes the transport: stops the GET stream, lets the notifications and responses already queued (a
     * {@code notifications/cancelled} on its way) go out for up to 2 seconds, aborts every exchange still in flight
     * (the threads of the sends, which the core's request scopes own and wait for, then end promptly), sends
     * {@code DELETE} with the session id if there is one (any answer accepted, bounded by {@link #CLOSE_TIMEOUT}), and
     * shuts the HTTP client and its threads down. Idempotent; safe from any thread. If the calling thread is
     * interrupted the DELETE is skipped, the other waits still run to their bounds, and the interrupt status is
     * restored before returning. The flush is bounded by 2 seconds and each of its four other waits (the GET stream's
     * thread, the DELETE, including a {@link RequestSigner} that blocks, the HTTP client's and the executor's
     * termination) by about 3 seconds, so {@code close()} returns within about 14 seconds at worst, and at once when
     * nothing is in flight.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        // an interrupted closer still waits (bounded) for what it stops; the interrupt is restored at the end
        boolean interrupted = Thread.interrupted();
        try {
            if (fallback != null) {
                interrupted |= fallback.close();
            }
            interrupted |= getStream.stop();
            HttpClient c = exchange.client();
            if (c == null) {
                return;
            }
            // a notifications/cancelled (or an answer) already queued goes out before the exchanges are aborted
            interrupted |= sender.awaitOneWay(Deadline.after(Duration.ofMillis(HttpSettings.ONE_WAY_FLUSH_MILLIS)));
            // the threads of the sends are the core's request scopes' (SendContext.fork): aborting their exchanges
            // ends them promptly, and each scope waits for its own
            sender.abortAll();
            sender.reportDrops(); // the drops of a burst that no ended POST reported
            HttpSession last = session.get();
            if (last.id() != null && !interrupted) {
                interrupted |= SessionDelete.sendBounded(settings, exchange, last);
            }
            c.shutdownNow();
            interrupted |= BoundedWait.run(() -> c.awaitTermination(CLOSE_TIMEOUT),
                    "the HTTP client", origin);
            ExecutorService ex = executor;
            ex.shutdownNow();
            interrupted |= BoundedWait.run(() -> ex.awaitTermination(HttpSettings.CLOSE_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS),
                    "the HTTP transport's threads", origin);
            LOG.log(Level.DEBUG, () -> "HTTP transport closed for " + origin);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Describes the transport: the endpoint's origin (its path and query redacted: either may hold a secret),
     * header names with redacted values, whether a signer and an authorization provider are set, and TLS.
     */
    @Override
    public String toString() {
        return "HttpTransport" + settings.describe();
    }

    // ------------------------------------------------------------------------------------------------------------
    // builder

    /**
     * Builds an {@link HttpTransport}. Not thread-safe; {@link #build()} may be called more than once and each
     * transport gets a snapshot of the settings.
     */
    public static final class Builder {
        private final SettingsDraft draft;
        private boolean legacySseFallback = true;

        private Builder(SettingsDraft draft) {
            this.draft = draft;
        }

        /**
         * Adds a header sent with every request the transport makes (POST, GET, DELETE), for example
         * {@code Authorization}. The value is owned by the caller: it is never logged and never in a message. A
         * name may be added more than once (several values).
         *
         * @param name  the header name, an HTTP token
         * @param value the value: visible ASCII, spaces and HTAB (the JDK's HTTP/1.1 client writes header lines as
         *              US-ASCII, so any other character would reach the server altered)
         * @return this builder
         * @throws IllegalArgumentException if the name is not a token, is one the transport sets itself
         *                                  ({@code Accept}, {@code Content-Type}, {@code Mcp-Session-Id},
         *                                  {@code MCP-Protocol-Version}, {@code Last-Event-ID}, {@code Mcp-Method},
         *                                  {@code Mcp-Name}, {@code Mcp-Param-*}) or one the JDK
         *                                  forbids ({@code Host}, {@code Content-Length}, ...), or the value is
         *                                  invalid; the message names the header, never the value
         */
        public Builder header(String name, String value) {
            draft.header(name, value);
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
            draft.connectTimeout(timeout);
            return this;
        }

        /**
         * Sets the stream idle timeout: the longest wait for the next byte of a response (a JSON body, or an SSE
         * stream, where comments count as bytes). The wait for a response's headers, which includes connecting, is
         * bounded by the {@linkplain #connectTimeout connect timeout} plus this. It is separate from the request
         * deadline, which ends every wait that comes first. When a request's stream is idle that long the request
         * fails; when the GET stream is, it is reconnected. Default 5 minutes.
         *
         * @param timeout a positive duration
         * @return this builder
         * @throws IllegalArgumentException if not positive
         */
        public Builder idleTimeout(Duration timeout) {
            draft.idleTimeout(timeout);
            return this;
        }

        /**
         * Sets the first reconnection delay used when the server sent no SSE {@code retry} (resuming a response
         * stream, reconnecting the GET stream); it doubles after each attempt without progress, up to 30 seconds.
         * A server's {@code retry} always wins. Any wait shorter than {@link HttpTransport#MIN_RECONNECT}
         * (this delay, or a server's {@code retry: 0}) is raised to that floor. Default 1 second.
         *
         * @param delay a positive duration
         * @return this builder
         * @throws IllegalArgumentException if not positive
         */
        public Builder reconnectDelay(Duration delay) {
            draft.reconnectDelay(delay);
            return this;
        }

        /**
         * Sets a signer called for every request the transport makes; see {@link RequestSigner}.
         *
         * @param signer the signer, or {@code null} for none (the default)
         * @return this builder
         */
        public Builder requestSigner(@Nullable RequestSigner signer) {
            draft.requestSigner(signer);
            return this;
        }

        /**
         * Sets the authorization provider asked for every request's credentials and handed every 401/403 answer,
         * for OAuth-protected servers (MCP "Authorization"); see {@link AuthorizationProvider}. The module
         * {@code dev.loommcp.auth} provides one ({@code McpOAuth}).
         *
         * @param provider the provider, or {@code null} for none (the default: no credentials are added, and 401
         *                 and 403 fail with {@link McpHttpStatusException})
         * @return this builder
         */
        public Builder authorization(@Nullable AuthorizationProvider provider) {
            draft.authorization(provider);
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
            draft.clientIdentityPem(certificateChain, pkcs8PrivateKey);
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
            draft.clientIdentityPkcs12(keyStore, password);
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
            draft.trustedCertificatesPem(pemFile);
            return this;
        }

        /**
         * Uses the caller's TLS context (key and trust material) as is. Exclusive with the client identity and
         * trusted certificate settings.
         *
         * @param context the context, or {@code null} for the JDK default (the default)
         * @return this builder
         */
        public Builder sslContext(@Nullable SSLContext context) {
            draft.sslContext(context);
            return this;
        }

        /**
         * Sets the largest accepted message: a JSON body or one SSE event (and one SSE line). Default 16 MiB. For a
         * compressed answer ({@code Content-Encoding} gzip or deflate) the limit applies to the decoded bytes.
         *
         * @param bytes a positive size in bytes
         * @return this builder
         * @throws IllegalArgumentException if not positive
         */
        public Builder maxMessageSize(int bytes) {
            draft.maxMessageSize(bytes);
            return this;
        }

        /**
         * Sets whether the transport falls back to the HTTP+SSE transport of protocol 2024-11-05
         * ({@link SseTransport}) for a server that offers only that one, as the spec's "Backwards compatibility"
         * (2025-03-26 and later, "Transports") describes: when the first request of the legacy era, sent before any
         * handshake and without a session (the client's {@code initialize}), is refused with HTTP 400, 404 or 405, a
         * {@code GET} with {@code Accept: text/event-stream} goes to the same endpoint; when it opens an SSE stream
         * that announces an {@code endpoint}, that request is sent again over it and the transport carries the whole
         * session that way from then on (the server's protocol version, typically 2024-11-05, is negotiated as
         * usual). When the GET gives no such stream, the request fails with the original HTTP status, the GET's
         * failure added as suppressed. Modern-era requests (MCP 2026-07-28) never fall back. Default {@code true}.
         *
         * @param enabled whether to fall back
         * @return this builder
         */
        public Builder legacySseFallback(boolean enabled) {
            this.legacySseFallback = enabled;
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
            return new HttpTransport(this, draft.settings());
        }

        /** Describes the settings; header values and the endpoint's path and query are redacted. */
        @Override
        public String toString() {
            return "HttpTransport.Builder" + draft.describe();
        }
    }
}
