package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.Exchange.LOG;

import dev.loommcp.McpClosedException;
import dev.loommcp.McpException;
import dev.loommcp.McpSessionExpiredException;
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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import org.jspecify.annotations.Nullable;

/**
 * The HTTP+SSE transport of MCP 2024-11-05 (spec 2024-11-05 "Transports", "HTTP with SSE"), for servers that
 * still offer only {@code GET /sse} and {@code POST /messages}, on {@link HttpClient} with automatic redirects off.
 *
 * <pre>{@code
 * McpClient client = McpClient.newBuilder(SseTransport.newBuilder(URI.create("http://127.0.0.1:3001/sse"))
 *                 .header("Authorization", "Bearer " + token)     // never logged
 *                 .build())
 *         .build();
 * }</pre>
 *
 * <p>What it does on the wire:
 * <ul>
 *   <li>{@link #open} sends {@code GET} with {@code Accept: text/event-stream} to the SSE URL and waits for the
 *       server's {@code endpoint} event: a URI reference resolved against the SSE URL. An endpoint of another
 *       origin (scheme, host or port) is refused with {@link McpTransportException} (the client's messages, with
 *       its caller headers, go only to the SSE URL's origin). The session is whatever the endpoint carries (its
 *       query, typically {@code ?sessionId=...}); the transport uses the endpoint exactly as resolved.</li>
 *   <li>Each message the client sends is POSTed to that endpoint on a thread of its send
 *       ({@link SendContext#fork}); the server accepts it with 202 (any 2xx; its body is not read). Every message
 *       of the server, the responses included, arrives as a {@code message} event on the one GET stream.</li>
 *   <li>Deadlines and cancellation are the client's: a call that times out or is cancelled fails at once and the
 *       client sends {@code notifications/cancelled}; a POST in flight is bounded by the call's deadline and
 *       aborted with it.</li>
 *   <li>A lost GET stream (it ended, broke, or carried an event over the {@linkplain Builder#maxMessageSize size
 *       limit}, which cannot be skipped) ends the session: protocol 2024-11-05 has no resumption. The calls in
 *       flight fail at once with {@link McpSessionExpiredException} (an {@link McpTransportException}) naming why;
 *       the client then starts a new session (a new GET stream, a new {@code endpoint}, {@code initialize}) and
 *       sends again only the requests that are safe to repeat, exactly as after an expired Streamable HTTP
 *       session. When no call was in flight, the next call fails that way and starts the new session. Nothing
 *       reconnects in the background: server notifications are not received while no stream is open. A stream
 *       lost before the first handshake fails the calls in flight with {@link McpTransportException}. A request's
 *       POST answered 404 (the server no longer knows the session, as after its restart) ends the stream the same
 *       way.</li>
 *   <li>The GET stream has no idle timeout (the protocol has no keep-alive, and a reconnection would be a new
 *       session); the connect timeout bounds connecting, and {@link #open} waits for the {@code endpoint} event at
 *       most until its deadline or, without one, the connect timeout plus the idle timeout.</li>
 *   <li>Memory: an SSE event or line over the size limit fails the stream (as above) instead of being buffered;
 *       notifications and responses being POSTed at once are bounded ({@value #MAX_ONE_WAY_IN_FLIGHT}; beyond
 *       that they are dropped with a WARNING).</li>
 *   <li>{@link #close()} ends the GET stream (the server ends the session), lets notifications already queued go
 *       out for up to 2 s, aborts every POST (their threads, the sends' own, then end promptly), and ends its own
 *       threads, each wait bounded.</li>
 * </ul>
 *
 * <p>The protocol version is the one the server answers {@code initialize} with (2024-11-05, typically); the
 * transport sends no {@code MCP-Protocol-Version} header and no {@code Mcp-Session-Id}. Redirects, caller headers,
 * the {@link RequestSigner}, the {@link AuthorizationProvider} and TLS work as in {@link HttpTransport}.
 * {@link HttpTransport} falls back to this transport by itself ({@link HttpTransport.Builder#legacySseFallback}).
 *
 * <p>Thread-safety: an instance is used by one client; {@link #send} may be called from many threads at once.
 * Threads: the GET stream is read on a virtual thread named {@code mcp-http-sse-<n>}, each POST runs on one named
 * {@code mcp-http-send-<n>}, HTTP client work on {@code mcp-http-<n>}; none outlives {@link #close()}.
 *
 * <p>Secrets: caller header values, the endpoint's query (the session) and credentials are never logged and never
 * in messages.
 */
public final class SseTransport implements McpTransport {

    /** The transport's own headers of every POST: no session, no version (the endpoint URL carries the session). */
    private static final Headers POST_HEADERS = HttpSession.NONE.postHeaders();

    /** How many notifications and responses may be POSTed at once before more are dropped. */
    public static final int MAX_ONE_WAY_IN_FLIGHT = Sender.MAX_ONE_WAY_IN_FLIGHT;

    private final HttpSettings settings;
    private final String origin;
    private final AtomicBoolean opened = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Exchange exchange;
    private final Inbound inbound;
    private final SseConnection connection;
    private volatile ExecutorService executor;
    /** Set when the HTTP client belongs to another transport (the fallback of {@link HttpTransport}). */
    private final boolean sharedClient;

    /** The POSTs in flight: close aborts them (their threads are the sends', {@link SendContext#fork}). */
    private final Set<Call> active = ConcurrentHashMap.newKeySet();
    /** Set once close aborts every POST: a POST registered after that is refused as closed. */
    private volatile boolean aborting;
    /** The notifications and responses POSTed on threads of their own, bounded; close lets them finish. */
    private final InFlight oneWayInFlight = new InFlight();
    private final AtomicLong droppedOneWay = new AtomicLong();

    SseTransport(HttpSettings settings, HttpClient client) {
        this.settings = settings;
        this.origin = settings.origin;
        this.exchange = new Exchange(settings, closed);
        this.inbound = new Inbound(closed);
        this.sharedClient = client != null;
        if (client != null) {
            exchange.attach(client);
        }
        this.connection = new SseConnection(settings, exchange, inbound, closed);
    }

    /**
     * Starts a builder for the server's SSE URL (the one its documentation names, typically ending in {@code /sse}).
     *
     * @param sseUrl the SSE URL, an absolute {@code http} or {@code https} URI without user info, used exactly as
     *               given (path and query); or an endpoint of an {@link HttpConnector}'s scheme ({@code unix:})
     * @return the builder
     * @throws NullPointerException     if {@code sseUrl} is {@code null}
     * @throws IllegalArgumentException as {@link HttpTransport#newBuilder(URI)}
     */
    public static Builder newBuilder(URI sseUrl) {
        return new Builder(HttpTransport.draft(sseUrl));
    }

    /**
     * Starts a builder for the server's SSE URL; see {@link #newBuilder(URI)}.
     *
     * @param sseUrl the SSE URL
     * @return the builder
     * @throws IllegalArgumentException if the text is not a valid URI or not acceptable
     */
    public static Builder newBuilder(String sseUrl) {
        return newBuilder(URI.create(Objects.requireNonNull(sseUrl, "sseUrl")));
    }

    /**
     * Returns the SSE URL, exactly as given to the builder.
     *
     * @return the URL
     */
    public URI sseUrl() {
        return settings.endpoint;
    }

    /**
     * Returns the endpoint the server announced on the current GET stream, for diagnostics. It holds the session
     * (its query): treat it as a credential, do not log it.
     *
     * @return the endpoint, or empty while no stream with an endpoint is open
     */
    public Optional<URI> messageEndpoint() {
        return Optional.ofNullable(connection.endpoint());
    }

    /**
     * Opens the GET stream and waits for the server's {@code endpoint} event.
     *
     * @throws McpTransportException if the GET fails (an HTTP status, an answer that is not an SSE stream, the
     *                               stream ending before the endpoint, an endpoint of another origin or not a URI
     *                               reference), naming what was wrong
     * @throws McpTimeoutException   if the endpoint did not come before the context's open deadline (or the
     *                               connect timeout plus the idle timeout without one)
     * @throws McpClosedException    if {@link #close()} was called before or meanwhile
     * @throws IllegalStateException if called twice
     * @throws InterruptedException  if the calling thread is interrupted (the GET is aborted)
     */
    @Override
    public void open(TransportContext context) throws InterruptedException {
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
        inbound.attach(context.withSink(connection.sink(context.sink())));
        if (!sharedClient) {
            ExecutorService ex = Executors.newThreadPerTaskExecutor(settings.threads.factory("http"));
            this.executor = ex;
            exchange.attach(HttpTransport.newClient(settings, ex));
        }
        if (closed.get()) {
            shutDownClient();
            throw exchange.closedNow("closed while opening");
        }
        Deadline bound = Deadline.after(settings.connectTimeout.plus(settings.idleTimeout));
        connection.connect(context.openDeadline().earliest(bound));
        LOG.log(Level.DEBUG, () -> "HTTP+SSE transport opened for " + origin);
    }

    /**
     * Queues one message and returns: it is POSTed to the announced endpoint on a thread of the send
     * ({@link SendContext#fork}; nothing is sent when its request has ended already); a request's answer
     * comes on the GET stream. A request's failure reaches the sink's
     * {@link dev.loommcp.spi.TransportSink#onSendFailed onSendFailed}: {@link McpHttpStatusException} when the POST
     * is refused, {@link McpTransportException} on I/O failure, {@link McpTimeoutException} when the deadline
     * passes during the POST, {@link McpSessionExpiredException} when the GET stream was lost (see the class
     * description). A notification or response that fails is logged at DEBUG and dropped, unless the context asks
     * to {@linkplain SendContext#awaitDelivery() await the delivery}: then it is POSTed on the calling thread,
     * which returns once the 2xx arrived and throws what went wrong.
     *
     * @throws McpClosedException       when the transport is closed
     * @throws IllegalStateException    when the transport was never opened
     * @throws IllegalArgumentException when the message cannot be encoded
     * @throws InterruptedException     when the thread awaiting a delivery is interrupted (the POST is aborted)
     */
    @Override
    public void send(JsonRpcMessage message, SendContext context) throws InterruptedException {
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(context, "context");
        if (closed.get()) {
            throw exchange.closedNow("cannot send");
        }
        if (!opened.get()) {
            throw new IllegalStateException("transport not opened");
        }
        byte[] body = settings.framing.encode(message);
        String what = what(message);
        if (message instanceof JsonRpcMessage.Request r) {
            startRequest(r, body, context, what);
        } else if (context.awaitDelivery()) {
            post(body, context, what, connection.current(what, context.deadline()));
        } else {
            startOneWay(body, context, what);
        }
    }

    private void startRequest(JsonRpcMessage.Request r, byte[] body, SendContext ctx, String what) {
        SseConnection.Pending pending = connection.expect(r.id());
        ctx.onCancel(() -> connection.forget(r.id(), pending));
        Thread t;
        try {
            t = ctx.fork("http-send", () -> runRequest(r, body, ctx, what, pending));
        } catch (IllegalStateException e) {
            connection.forget(r.id(), pending); // the request has ended already: nobody waits for its answer
            LOG.log(Level.DEBUG, () -> what + " not sent: its request has ended already");
            return;
        }
        ctx.onCancel(t::interrupt); // the core's scope interrupts it too; a context of another kind may not
    }

    /** A request's POST on a thread of its own; its answer comes on the GET stream. */
    private void runRequest(JsonRpcMessage.Request r, byte[] body, SendContext ctx, String what,
                            SseConnection.Pending pending) {
        SseConnection.Stream stream = null;
        try {
            stream = connection.forRequest(what, ctx.deadline());
            pending.sentOn(stream);
            post(body, ctx, what, stream);
            connection.checkStillOpen(r.id(), pending, stream);
        } catch (McpHttpStatusException e) {
            if (e.statusCode() == 404 && stream != null && !closed.get()) {
                connection.sessionUnknown(r.id(), pending, stream, e);
            } else if (!ctx.isCancelled()) {
                connection.fail(r.id(), pending, e);
            }
        } catch (McpException e) {
            if (!ctx.isCancelled()) {
                connection.fail(r.id(), pending, exchange.closedOr(e));
            }
        } catch (InterruptedException e) {
            if (!ctx.isCancelled()) {
                connection.fail(r.id(), pending, exchange.closedOr(
                        new McpTransportException(what + " interrupted")));
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, what + " to " + origin + " failed unexpectedly", e);
            connection.fail(r.id(), pending, new McpTransportException(what + " failed: " + e, e));
        }
    }

    private void startOneWay(byte[] body, SendContext ctx, String what) {
        if (!oneWayInFlight.tryEnter(MAX_ONE_WAY_IN_FLIGHT)) {
            long n = droppedOneWay.incrementAndGet();
            if (n == 1 || n % 1000 == 0) {
                LOG.log(Level.WARNING, "server at {0} accepts no messages: {1} POSTs are still in flight; {2} "
                        + "notifications or responses dropped so far", origin, MAX_ONE_WAY_IN_FLIGHT, n);
            }
            return;
        }
        try {
            ctx.fork("http-send", () -> runOneWay(body, ctx, what));
        } catch (IllegalStateException e) {
            oneWayInFlight.exit();
            LOG.log(Level.DEBUG, () -> what + " not sent: its request has ended already");
        }
    }

    /** A notification or response POSTed on a thread of its own: a failure is logged and dropped. */
    private void runOneWay(byte[] body, SendContext ctx, String what) {
        try {
            SseConnection.Stream stream = connection.currentOrNull();
            if (stream == null) {
                // nothing to deliver it to: a notification for a session that is gone means nothing
                LOG.log(Level.DEBUG, () -> what + " not delivered: no SSE stream is open");
                return;
            }
            post(body, ctx, what, stream);
        } catch (McpException e) {
            LOG.log(Level.DEBUG, () -> what + " not delivered: " + e.getMessage());
        } catch (InterruptedException e) {
            LOG.log(Level.DEBUG, () -> what + " not delivered: interrupted");
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, what + " to " + origin + " failed unexpectedly", e);
        } finally {
            oneWayInFlight.exit();
        }
    }

    /** POSTs one message to the stream's endpoint and accepts its 2xx, bounded by the context's deadline. */
    private void post(byte[] body, SendContext ctx, String what, SseConnection.Stream stream)
            throws InterruptedException {
        Call call = new Call(null, what);
        active.add(call);
        ctx.onCancel(call::abort);
        try {
            if (aborting) {
                throw exchange.closedNow("cannot send");
            }
            stream.post().postOneWay(call, body, POST_HEADERS, false, ctx.deadline());
        } catch (McpException e) {
            throw exchange.closedOr(e);
        } finally {
            active.remove(call);
            call.release();
        }
    }

    private static String what(JsonRpcMessage message) {
        return switch (message) {
            case JsonRpcMessage.Request r -> "POST " + r.method() + " (id " + r.id() + ")";
            case JsonRpcMessage.Notification n -> "POST " + n.method();
            case JsonRpcMessage.Response r -> "POST response (id " + r.id() + ")";
            case JsonRpcMessage.ErrorResponse e -> "POST error response (id " + e.id() + ")";
        };
    }

    /** Marks the start of a session: a stream lost from now on ends a session the client can renew. */
    @Override
    public void handshakeCompleted(String protocolVersion) {
        connection.handshakeCompleted();
    }

    /** Returns the SSE URL's origin ({@code scheme://host:port}), without path, query or credentials. */
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
     * Returns the SSE URL's origin and path, the key of the core's era verdicts: never the query.
     *
     * @return the key, always present
     */
    @Override
    public java.util.Optional<String> serverKey() {
        return java.util.Optional.of(settings.serverKey());
    }

    /**
     * Returns how many POSTs are in flight right now: a diagnostic, zero when idle and after {@link #close()}.
     *
     * @return the number of POSTs in flight
     */
    public int activeExchangeCount() {
        return active.size();
    }

    /**
     * Closes the transport: ends the GET stream, lets notifications already queued go out for up to 2 seconds, aborts
     * every POST still in flight (their threads are the sends', {@link SendContext#fork}: they then end promptly), and
     * shuts the HTTP client and its threads down (3 seconds each at most). Idempotent; safe from any thread. An
     * interrupt of the calling thread does not cut the waits short; its status is restored before returning.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        boolean interrupted = Thread.interrupted();
        try {
            interrupted |= connection.close();
            interrupted |= oneWayInFlight.awaitIdle(
                    Deadline.after(Duration.ofMillis(HttpSettings.ONE_WAY_FLUSH_MILLIS)));
            // the threads of the sends are the core's request scopes' (SendContext.fork): aborting their POSTs ends
            // them promptly, and each scope waits for its own
            aborting = true;
            for (Call c : active) {
                c.abort();
            }
            interrupted |= shutDownClient();
            LOG.log(Level.DEBUG, () -> "HTTP+SSE transport closed for " + origin);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Shuts the HTTP client and its executor down, bounded; whether the calling thread was interrupted. */
    private boolean shutDownClient() {
        if (sharedClient) {
            return false;
        }
        boolean interrupted = false;
        HttpClient c = exchange.client();
        if (c != null) {
            c.shutdownNow();
            interrupted |= BoundedWait.run(() -> c.awaitTermination(HttpTransport.CLOSE_TIMEOUT), "the HTTP client",
                    origin);
        }
        ExecutorService ex = executor;
        if (ex != null) {
            ex.shutdownNow();
            interrupted |= BoundedWait.run(() -> ex.awaitTermination(HttpSettings.CLOSE_TIMEOUT_MILLIS,
                    TimeUnit.MILLISECONDS), "the HTTP+SSE transport's threads", origin);
        }
        return interrupted;
    }

    /** Describes the transport: SSE URL without query, header names with redacted values, signer, TLS. */
    @Override
    public String toString() {
        return "SseTransport" + settings.describe();
    }

    /**
     * Builds an {@link SseTransport}; the settings mean what they mean for {@link HttpTransport.Builder}. Not
     * thread-safe; {@link #build()} may be called more than once.
     */
    public static final class Builder {
        private final SettingsDraft http;

        private Builder(SettingsDraft http) {
            this.http = http;
        }

        /**
         * Adds a header sent with the GET and with every POST; see {@link HttpTransport.Builder#header}.
         *
         * @param name  the header name
         * @param value the value, never logged
         * @return this builder
         * @throws IllegalArgumentException as {@link HttpTransport.Builder#header}
         */
        public Builder header(String name, String value) {
            http.header(name, value);
            return this;
        }

        /**
         * Sets the bound for establishing a connection; default 10 seconds.
         *
         * @param timeout a positive duration
         * @return this builder
         * @throws IllegalArgumentException if not positive
         */
        public Builder connectTimeout(Duration timeout) {
            http.connectTimeout(timeout);
            return this;
        }

        /**
         * Sets the idle timeout of POST answers (and, with the connect timeout, the bound of the wait for the
         * {@code endpoint} event when the open has no deadline); the GET stream itself has none. Default 5 minutes.
         *
         * @param timeout a positive duration
         * @return this builder
         * @throws IllegalArgumentException if not positive
         */
        public Builder idleTimeout(Duration timeout) {
            http.idleTimeout(timeout);
            return this;
        }

        /**
         * Sets a request signer; see {@link HttpTransport.Builder#requestSigner}.
         *
         * @param signer the signer, or {@code null} for none (the default)
         * @return this builder
         */
        public Builder requestSigner(@Nullable RequestSigner signer) {
            http.requestSigner(signer);
            return this;
        }

        /**
         * Sets the authorization provider; see {@link HttpTransport.Builder#authorization}.
         *
         * @param provider the provider, or {@code null} for none (the default)
         * @return this builder
         */
        public Builder authorization(@Nullable AuthorizationProvider provider) {
            http.authorization(provider);
            return this;
        }

        /**
         * Presents a TLS client certificate from PEM files; see {@link HttpTransport.Builder#clientIdentityPem}.
         *
         * @param certificateChain the PEM certificate chain file
         * @param pkcs8PrivateKey  the PEM PKCS#8 private key file
         * @return this builder
         */
        public Builder clientIdentityPem(Path certificateChain, Path pkcs8PrivateKey) {
            http.clientIdentityPem(certificateChain, pkcs8PrivateKey);
            return this;
        }

        /**
         * Presents a TLS client certificate from a PKCS#12 key store; see
         * {@link HttpTransport.Builder#clientIdentityPkcs12}.
         *
         * @param keyStore the PKCS#12 file
         * @param password its password (copied)
         * @return this builder
         */
        public Builder clientIdentityPkcs12(Path keyStore, char[] password) {
            http.clientIdentityPkcs12(keyStore, password);
            return this;
        }

        /**
         * Trusts the certificates of a PEM file for server certificates; see
         * {@link HttpTransport.Builder#trustedCertificatesPem}.
         *
         * @param pemFile the PEM file
         * @return this builder
         */
        public Builder trustedCertificatesPem(Path pemFile) {
            http.trustedCertificatesPem(pemFile);
            return this;
        }

        /**
         * Uses the caller's TLS context; see {@link HttpTransport.Builder#sslContext}.
         *
         * @param context the context, or {@code null} for the JDK default
         * @return this builder
         */
        public Builder sslContext(@Nullable SSLContext context) {
            http.sslContext(context);
            return this;
        }

        /**
         * Sets the largest accepted SSE event (and line), in bytes. An event over it ends the GET stream, and with
         * it the session (see {@link SseTransport}). Default 16 MiB.
         *
         * @param bytes a positive size in bytes
         * @return this builder
         * @throws IllegalArgumentException if not positive
         */
        public Builder maxMessageSize(int bytes) {
            http.maxMessageSize(bytes);
            return this;
        }

        /**
         * Builds the transport. TLS material given as files is read now.
         *
         * @return a new transport, not yet opened
         * @throws IllegalStateException as {@link HttpTransport.Builder#build()}
         * @throws McpTransportException if TLS material cannot be read
         */
        public SseTransport build() {
            return new SseTransport(http.settings(), null);
        }

        /** Describes the settings; header values and the URL's query are redacted. */
        @Override
        public String toString() {
            return "SseTransport.Builder" + http.describe();
        }
    }
}
