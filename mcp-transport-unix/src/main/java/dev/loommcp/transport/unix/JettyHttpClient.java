package dev.loommcp.transport.unix;

import dev.loommcp.McpTransportException;
import dev.loommcp.transport.http.HttpConnector;
import java.io.IOException;
import java.net.Authenticator;
import java.net.ConnectException;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Path;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.http.HttpCookieStore;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.io.Transport;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * A {@link HttpClient} whose exchanges run on Jetty's HTTP client over one unix domain socket: what the Streamable
 * HTTP transport needs of a client ({@link HttpConnector}) and no more. Requests keep their URI
 * ({@code http://localhost/...}) for the request line and {@code Host} header; the connection goes to the socket.
 * Redirects are never followed here, cookies never stored, responses never decoded (no {@code Accept-Encoding}),
 * 401 answers handed back as they are: like the JDK's client as the transport configures it.
 *
 * <p>Thread-safe. Threads: a pool of platform daemon threads named {@code mcp-unix-<n>-<id>} and one timer thread
 * {@code mcp-unix-timer-<n>}, all ended by {@link #shutdownNow()}.
 */
final class JettyHttpClient extends HttpClient {

    private static final AtomicInteger CLIENTS = new AtomicInteger();
    /** Jetty's selector takes one thread for the client's life; callbacks are short (they hand bytes over). */
    private static final int MAX_THREADS = 8;
    private static final int IDLE_THREAD_MILLIS = 30_000;
    private static final long STOP_MILLIS = 2_000;
    /** High enough that no exchange waits for a connection: each open SSE stream holds one. */
    private static final int MAX_CONNECTIONS = 4096;

    private final org.eclipse.jetty.client.HttpClient jetty;
    private final Transport transport;
    private final Path socket;
    private final String origin;
    private final Duration connectTimeout;
    private final Executor executor;
    private final Scheduler scheduler;
    private final AtomicBoolean shutdown = new AtomicBoolean();

    private JettyHttpClient(org.eclipse.jetty.client.HttpClient jetty, Scheduler scheduler, Path socket,
                            String origin, HttpConnector.Options options) {
        this.jetty = jetty;
        this.scheduler = scheduler;
        this.socket = socket;
        this.origin = origin;
        this.transport = new Transport.TCPUnix(socket);
        this.connectTimeout = options.connectTimeout();
        this.executor = options.executor();
    }

    /**
     * Starts Jetty's client for one transport.
     *
     * @throws McpTransportException if it cannot be started (its threads are stopped again)
     */
    static JettyHttpClient start(Path socket, String origin, HttpConnector.Options options) {
        int n = CLIENTS.incrementAndGet();
        String prefix = options.threadPrefix() + "-" + n;
        QueuedThreadPool pool = new QueuedThreadPool(MAX_THREADS, 2, IDLE_THREAD_MILLIS);
        pool.setName(prefix);
        pool.setDaemon(true);
        pool.setStopTimeout(STOP_MILLIS);
        pool.setReservedThreads(0);
        ScheduledExecutorScheduler scheduler = new ScheduledExecutorScheduler(options.threadPrefix() + "-timer-" + n,
                true);
        ClientConnector connector = new ClientConnector();
        connector.setExecutor(pool);
        connector.setScheduler(scheduler);
        connector.setSelectors(1);
        connector.setConnectTimeout(options.connectTimeout());
        org.eclipse.jetty.client.HttpClient jetty =
                new org.eclipse.jetty.client.HttpClient(new HttpClientTransportOverHTTP(connector));
        jetty.setExecutor(pool);
        jetty.setScheduler(scheduler);
        jetty.setFollowRedirects(false);
        jetty.setHttpCookieStore(new HttpCookieStore.Empty());
        jetty.setIdleTimeout(0); // the transport bounds every wait itself (idle timeout, deadlines)
        jetty.setConnectTimeout(options.connectTimeout().toMillis());
        jetty.setMaxConnectionsPerDestination(MAX_CONNECTIONS);
        jetty.setUserAgentField(null);
        jetty.getContentDecoderFactories().clear();
        jetty.getProtocolHandlers().clear();
        try {
            jetty.start();
        } catch (Exception e) {
            stopQuietly(jetty);
            throw new McpTransportException("cannot start the HTTP client for " + origin + " ("
                    + e.getClass().getSimpleName() + ")", e);
        }
        return new JettyHttpClient(jetty, scheduler, socket, origin, options);
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request,
                                                            HttpResponse.BodyHandler<T> handler) {
        if (shutdown.get()) {
            return CompletableFuture.failedFuture(new IOException("the HTTP client for " + origin + " is shut down"));
        }
        Request jr = jetty.newRequest(request.uri())
                .transport(transport)
                .method(request.method())
                .followRedirects(false)
                .headers(h -> request.headers().map().forEach((name, values) -> values.forEach(v -> h.add(name, v))));
        byte[] body = JettyExchange.bodyOf(request);
        if (body != null) {
            jr.body(new org.eclipse.jetty.client.BytesRequestContent(body));
        }
        JettyExchange<T> exchange = new JettyExchange<>(this, request, jr, handler);
        request.timeout().ifPresent(exchange::headerTimeout);
        exchange.send();
        return exchange.future();
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler,
                                                            HttpResponse.PushPromiseHandler<T> pushPromiseHandler) {
        return sendAsync(request, handler); // HTTP/1.1: no push promises
    }

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
            throws IOException, InterruptedException {
        CompletableFuture<HttpResponse<T>> f = sendAsync(request, handler);
        try {
            return f.get();
        } catch (InterruptedException e) {
            f.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
    }

    /** Schedules {@code task} on the client's timer. */
    Scheduler.Task schedule(Runnable task, Duration delay) {
        return scheduler.schedule(task, Math.max(1, delay.toNanos()), TimeUnit.NANOSECONDS);
    }

    /**
     * Says why an exchange failed before its request went out: a connect failure names the socket and the reason;
     * anything else is returned as it is.
     */
    Throwable connectFailure(Throwable failure) {
        if (failure instanceof TimeoutException || failure instanceof java.net.SocketTimeoutException) {
            return new HttpConnectTimeoutException("connecting to " + origin + " timed out");
        }
        if (failure instanceof IOException) {
            ConnectException c = new ConnectException("cannot connect to unix socket " + socket + ": "
                    + SocketDiagnosis.reason(socket, failure));
            c.initCause(failure);
            return c;
        }
        return failure;
    }

    /** A response header timer fired. */
    HttpTimeoutException headerTimeout() {
        return new HttpTimeoutException("no response headers from " + origin + " in time");
    }

    String origin() {
        return origin;
    }

    /** Whether the client was shut down: failures then are the closing's. */
    boolean isShutdown() {
        return shutdown.get();
    }

    // ----------------------------------------------------------------------------------------------------------
    // lifecycle

    @Override
    public void shutdown() {
        shutdownNow();
    }

    /** Stops Jetty's client: aborts every exchange, closes every connection and ends its threads (bounded). */
    @Override
    public void shutdownNow() {
        if (shutdown.compareAndSet(false, true)) {
            stopQuietly(jetty);
        }
    }

    @Override
    public boolean awaitTermination(Duration duration) throws InterruptedException {
        long end = System.nanoTime() + duration.toNanos();
        while (!isTerminated()) {
            if (System.nanoTime() - end >= 0) {
                return false;
            }
            Thread.sleep(10); // Jetty's stop already waited for its threads; this only covers a stop still running
        }
        return true;
    }

    @Override
    public boolean isTerminated() {
        return shutdown.get() && jetty.isStopped();
    }

    @Override
    public void close() {
        shutdownNow();
    }

    private static void stopQuietly(org.eclipse.jetty.client.HttpClient jetty) {
        try {
            jetty.stop();
        } catch (Exception e) {
            System.getLogger("dev.loommcp.transport.unix").log(System.Logger.Level.DEBUG,
                    () -> "stopping Jetty's HTTP client failed: " + e);
        }
    }

    // ----------------------------------------------------------------------------------------------------------
    // settings the transport never asks for, answered as the JDK's client configured alike would

    @Override
    public Optional<CookieHandler> cookieHandler() {
        return Optional.empty();
    }

    @Override
    public Optional<Duration> connectTimeout() {
        return Optional.of(connectTimeout);
    }

    @Override
    public Redirect followRedirects() {
        return Redirect.NEVER;
    }

    @Override
    public Optional<ProxySelector> proxy() {
        return Optional.empty();
    }

    /** There is no TLS over the socket; the JDK's default context is returned for the API's sake. */
    @Override
    public SSLContext sslContext() {
        try {
            return SSLContext.getDefault();
        } catch (NoSuchAlgorithmException e) {
            throw new UnsupportedOperationException("no TLS over a unix socket", e);
        }
    }

    @Override
    public SSLParameters sslParameters() {
        return new SSLParameters();
    }

    @Override
    public Optional<Authenticator> authenticator() {
        return Optional.empty();
    }

    @Override
    public Version version() {
        return Version.HTTP_1_1;
    }

    @Override
    public Optional<Executor> executor() {
        return Optional.of(executor);
    }

    @Override
    public String toString() {
        return "JettyHttpClient[" + origin + "]";
    }
}
