package dev.loommcp.auth.internal;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.loommcp.auth.McpAuthorizationException;
import dev.loommcp.spi.Deadline;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The loopback redirect receiver behind {@code LoopbackReceiver} (RFC 8252 section 7.3): a JDK HTTP server on
 * {@code 127.0.0.1:<random port>} answering {@code GET /callback}. While an authorization runs, the first callback
 * carrying its {@code state} completes it (a small HTML page tells the user they may close the window); any other
 * request gets a 400 page (404 off {@code /callback}) and changes nothing. One authorization at a time; the wait is
 * bounded by the caller's deadline; {@link #close()} stops the server and fails a running authorization. The server
 * runs on daemon platform threads named {@code mcp-auth-loopback}. Thread-safe.
 */
public final class Loopback {

    private static final String PATH = "/callback";

    private final HttpServer server;
    private final ExecutorService executor;
    private final Consumer<URI> openUrl;
    private final URI redirectUri;
    private final AtomicReference<Pending> pending = new AtomicReference<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    /** A running authorization: the state it waits for and where the redirect goes. */
    private record Pending(String state, CompletableFuture<URI> result) {
    }

    private Loopback(HttpServer server, ExecutorService executor, Consumer<URI> openUrl) {
        this.server = server;
        this.executor = executor;
        this.openUrl = openUrl;
        this.redirectUri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + PATH);
    }

    /**
     * Opens a receiver on a random free port of 127.0.0.1.
     *
     * @param openUrl called with each authorization URL
     * @return the receiver, listening
     * @throws IOException          if no port could be bound
     * @throws NullPointerException if {@code openUrl} is {@code null}
     */
    public static Loopback open(Consumer<URI> openUrl) throws IOException {
        Objects.requireNonNull(openUrl, "openUrl");
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
        ExecutorService executor = Executors.newSingleThreadExecutor(
                Thread.ofPlatform().daemon().name("mcp-auth-loopback").factory());
        Loopback lb = new Loopback(server, executor, openUrl);
        server.createContext("/", lb::handle);
        server.setExecutor(executor);
        // the server's dispatcher thread inherits the daemon flag of the thread that starts it
        IOException[] failure = new IOException[1];
        Thread starter = Thread.ofPlatform().daemon().name("mcp-auth-loopback-start").start(() -> {
            try {
                server.start();
            } catch (RuntimeException e) {
                failure[0] = new IOException("the loopback receiver could not start", e);
            }
        });
        try {
            starter.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            lb.close();
            throw new IOException("interrupted while starting the loopback receiver");
        }
        if (failure[0] != null) {
            lb.close();
            throw failure[0];
        }
        return lb;
    }

    /** @return {@code http://127.0.0.1:<port>/callback} */
    public URI redirectUri() {
        return redirectUri;
    }

    /**
     * Runs one authorization: hands the URL to the callback and waits for the redirect carrying {@code state}.
     *
     * @param authorizationUrl the authorization URL
     * @param state            the expected state
     * @param deadline         the wait's bound ({@link Deadline#NONE}: until {@link #close()})
     * @return the redirect URI received (query included)
     * @throws IllegalStateException     if closed, or another authorization is running
     * @throws McpAuthorizationException if the deadline passed first
     * @throws IOException               if the receiver was closed while waiting, or the callback failed
     * @throws InterruptedException      if interrupted
     */
    public URI authorize(URI authorizationUrl, String state, Deadline deadline)
            throws IOException, InterruptedException {
        Objects.requireNonNull(authorizationUrl, "authorizationUrl");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(deadline, "deadline");
        if (closed.get()) {
            throw new IllegalStateException("the loopback receiver is closed");
        }
        Pending p = new Pending(state, new CompletableFuture<>());
        if (!pending.compareAndSet(null, p)) {
            throw new IllegalStateException("another authorization is running on this loopback receiver");
        }
        try {
            if (closed.get()) {
                throw new IllegalStateException("the loopback receiver is closed");
            }
            try {
                openUrl.accept(authorizationUrl);
            } catch (RuntimeException e) {
                throw new IOException("showing the authorization URL failed (" + e.getClass().getSimpleName() + ")",
                        e);
            }
            if (deadline.isNone()) {
                return p.result().get();
            }
            long left = deadline.remainingNanos();
            if (left <= 0) {
                throw new TimeoutException();
            }
            return p.result().get(left, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new McpAuthorizationException("the authorization was not completed in time (no redirect reached "
                    + redirectUri + ")");
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof IOException io) {
                throw new IOException(io.getMessage(), io);
            }
            throw new IOException("the loopback receiver failed", c);
        } finally {
            pending.compareAndSet(p, null);
        }
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            URI uri = ex.getRequestURI();
            if (!"GET".equals(ex.getRequestMethod()) || !PATH.equals(uri.getRawPath())) {
                answer(ex, 404, "Not found", "This address only receives authorization redirects.");
                return;
            }
            Pending p = pending.get();
            String state = Urls.queryParameters(uri).get("state");
            if (p == null || state == null || !p.state().equals(state) || p.result().isDone()) {
                answer(ex, 400, "Unexpected authorization response",
                        "No authorization is waiting for this response. You can close this window.");
                return;
            }
            String query = uri.getRawQuery();
            URI full = URI.create(redirectUri + (query == null ? "" : "?" + query));
            p.result().complete(full);
            answer(ex, 200, "Authorization received",
                    "You can close this window and return to the application.");
        }
    }

    private static void answer(HttpExchange ex, int status, String title, String text) throws IOException {
        byte[] body = ("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>" + title + "</title></head><body><h1>"
                + title + "</h1><p>" + text + "</p></body></html>").getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
        ex.getResponseHeaders().set("Cache-Control", "no-store");
        ex.getResponseHeaders().set("Referrer-Policy", "no-referrer");
        ex.sendResponseHeaders(status, body.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
        }
    }

    /** Stops the server and fails a running authorization. Idempotent. */
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        Pending p = pending.get();
        if (p != null) {
            p.result().completeExceptionally(new IOException("the loopback receiver was closed"));
        }
        server.stop(0);
        executor.shutdownNow();
    }
}
