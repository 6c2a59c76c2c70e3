package dev.loommcp.auth.internal;

import dev.loommcp.auth.McpAuthorizationException;
import dev.loommcp.Deadline;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The loopback redirect receiver behind {@code LoopbackReceiver} (RFC 8252 section 7.3): a minimal HTTP/1.1 server
 * bound to the IPv4 literal {@code 127.0.0.1} (exactly the host of the redirect URI it advertises, whatever the JVM's
 * address preference) on a random port, answering {@code GET /callback}. Several authorizations may run at once (one
 * provider authorizing two servers, each with its own {@code state}): the first callback carrying a waiting
 * authorization's {@code state} completes that one (a small HTML page tells the user they may close the window), in
 * whatever order the redirects arrive; any other request gets a 400 page (404 off {@code /callback}) and changes
 * nothing. Each wait is bounded by its caller's deadline; {@link #close()} stops the server and fails every running
 * authorization.
 *
 * <p>Connections are served concurrently, each on its own daemon platform thread
 * ({@code mcp-auth-loopback-connection}), at most {@value #MAX_CONNECTIONS} at once (with every slot taken, a new
 * connection replaces the oldest); each must send its request head within {@value #HEAD_TIMEOUT_MS} ms (and at most
 * {@value #MAX_HEAD_BYTES} bytes) or is closed, so a local program that connects and stalls cannot keep the browser's
 * redirect from being handled. Every answer closes
 * its connection. The accepting thread is a daemon platform thread named {@code mcp-auth-loopback}. Thread-safe.
 */
public final class Loopback {

    /** The most connections served at once: {@value}. */
    static final int MAX_CONNECTIONS = 8;
    /** How long a connection may take to send its request line and headers, in milliseconds: {@value}. */
    static final int HEAD_TIMEOUT_MS = 10_000;
    /** The largest request head read: {@value} bytes. */
    static final int MAX_HEAD_BYTES = 16 * 1024;
    private static final String PATH = "/callback";
    /** The address bound and advertised (RFC 8252 section 7.3: the IPv4 loopback literal, not a name). */
    private static final String HOST = "127.0.0.1";

    private final ServerSocket server;
    private final Consumer<URI> openUrl;
    private final URI redirectUri;
    /** The running authorizations by their {@code state}. */
    private final ConcurrentHashMap<String, CompletableFuture<URI>> pending = new ConcurrentHashMap<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Semaphore slots = new Semaphore(MAX_CONNECTIONS);
    /** The connections being served, oldest first. */
    private final Deque<Socket> connections = new ConcurrentLinkedDeque<>();
    private final int headTimeoutMs;

    /** An HTTP answer to send: status, title and text of the page. */
    private record Answer(int status, String reason, String title, String text) {
    }

    private Loopback(ServerSocket server, Consumer<URI> openUrl, int headTimeoutMs) {
        this.server = server;
        this.headTimeoutMs = headTimeoutMs;
        this.openUrl = openUrl;
        this.redirectUri = URI.create("http://" + HOST + ":" + server.getLocalPort() + PATH);
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
        return open(openUrl, HEAD_TIMEOUT_MS);
    }

    /** {@link #open(Consumer)} with another bound on reading a request head (tests). */
    static Loopback open(Consumer<URI> openUrl, int headTimeoutMs) throws IOException {
        Objects.requireNonNull(openUrl, "openUrl");
        ServerSocket socket = new ServerSocket();
        try {
            socket.bind(new InetSocketAddress(ipv4Loopback(), 0), 16);
        } catch (IOException e) {
            socket.close();
            throw new IOException("cannot listen on " + HOST + " (" + e.getMessage() + ")", e);
        }
        Loopback lb = new Loopback(socket, openUrl, headTimeoutMs);
        Thread.ofPlatform().daemon().name("mcp-auth-loopback").start(lb::acceptLoop);
        return lb;
    }

    /** The IPv4 literal 127.0.0.1 (no name service lookup). */
    private static InetAddress ipv4Loopback() {
        try {
            return InetAddress.getByAddress(HOST, new byte[] {127, 0, 0, 1});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // a 4-byte address is always accepted
        }
    }

    /** @return {@code http://127.0.0.1:<port>/callback} */
    public URI redirectUri() {
        return redirectUri;
    }

    /** @return the address and port the server socket is bound to (the redirect URI's host and port) */
    InetSocketAddress boundAddress() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    /**
     * Runs one authorization: hands the URL to the callback and waits for the redirect carrying {@code state}.
     * Other authorizations (with other states) may run at the same time; each completes with its own redirect.
     *
     * @param authorizationUrl the authorization URL
     * @param state            the expected state
     * @param deadline         the wait's bound ({@link Deadline#NONE}: until {@link #close()})
     * @return the redirect URI received (query included)
     * @throws IllegalStateException     if closed, or another running authorization has the same state
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
        CompletableFuture<URI> result = new CompletableFuture<>();
        if (pending.putIfAbsent(state, result) != null) {
            throw new IllegalStateException("an authorization with the same state is already running on this "
                    + "loopback receiver");
        }
        try {
            if (closed.get()) {
                throw new IllegalStateException("the loopback receiver is closed");
            }
            try {
                openUrl.accept(authorizationUrl);
            } catch (RuntimeException e) {
                throw new IOException("showing the authorization URL failed (" + SafeText.reason(e) + ")", e);
            }
            if (deadline.isNone()) {
                return result.get();
            }
            long left = deadline.remainingNanos();
            if (left <= 0) {
                throw new TimeoutException();
            }
            return result.get(left, TimeUnit.NANOSECONDS);
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
            pending.remove(state, result);
        }
    }

    private void acceptLoop() {
        while (!closed.get()) {
            Socket c;
            try {
                c = server.accept();
            } catch (IOException e) {
                if (!closed.get()) {
                    System.getLogger("dev.loommcp.auth").log(System.Logger.Level.WARNING,
                            () -> "the loopback receiver " + redirectUri + " stopped accepting: " + e.getMessage());
                }
                return;
            }
            if (!slots.tryAcquire() && !evictOldest()) {
                closeQuietly(c);
                continue;
            }
            connections.add(c);
            if (closed.get()) {
                release(c); // close() may have missed it
                continue;
            }
            try {
                Thread.ofPlatform().daemon().name("mcp-auth-loopback-connection").start(() -> serve(c));
            } catch (RuntimeException | OutOfMemoryError e) {
                release(c);
            }
        }
    }

    /**
     * With every slot taken, drops the connection waiting longest (a new connection is far more likely to be the
     * browser than one that has sent no complete request yet) and takes its slot once its thread let it go.
     */
    private boolean evictOldest() {
        Socket oldest = connections.peekFirst();
        if (oldest != null) {
            closeQuietly(oldest);
        }
        try {
            return slots.tryAcquire(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void serve(Socket c) {
        try {
            if (closed.get()) {
                return;
            }
            String target = readTarget(c);
            if (target != null) {
                write(c, answer(target));
            }
        } catch (IOException e) {
            // a client that went away, stalled past the timeout, or sent garbage: nothing to answer
        } finally {
            release(c);
        }
    }

    private void release(Socket c) {
        connections.remove(c);
        closeQuietly(c);
        slots.release();
    }

    /**
     * Reads the request head within the head timeout and returns the target of a {@code GET}, or
     * {@code null} after answering anything else.
     */
    private String readTarget(Socket c) throws IOException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(headTimeoutMs);
        InputStream in = new BufferedInputStream(c.getInputStream());
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0; // how much of "\r\n\r\n" was just read
        while (matched < 4) {
            long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
            if (left <= 0) {
                throw new SocketTimeoutException("no request head in time");
            }
            c.setSoTimeout((int) Math.max(1, left));
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed before the request head ended");
            }
            head.write(b);
            if (head.size() > MAX_HEAD_BYTES) {
                write(c, new Answer(431, "Request Header Fields Too Large", "Request too large",
                        "This address only receives authorization redirects."));
                return null;
            }
            matched = (b == '\r' && (matched == 0 || matched == 2)) || (b == '\n' && (matched == 1 || matched == 3))
                    ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        String line = text.substring(0, text.indexOf("\r\n"));
        String[] parts = line.split(" ", -1);
        if (parts.length != 3 || !parts[2].startsWith("HTTP/1.") || !parts[1].startsWith("/")) {
            write(c, new Answer(400, "Bad Request", "Bad request", "This address only receives authorization "
                    + "redirects."));
            return null;
        }
        if (!"GET".equals(parts[0])) {
            write(c, new Answer(404, "Not Found", "Not found", "This address only receives authorization redirects."));
            return null;
        }
        return parts[1];
    }

    /** What a GET of {@code target} gets; completes the running authorization whose state it carries. */
    private Answer answer(String target) {
        URI uri;
        try {
            uri = new URI("http://" + HOST + ":" + server.getLocalPort() + target);
        } catch (URISyntaxException e) {
            return new Answer(400, "Bad Request", "Bad request", "This address only receives authorization "
                    + "redirects.");
        }
        if (!PATH.equals(uri.getRawPath())) {
            return new Answer(404, "Not Found", "Not found", "This address only receives authorization redirects.");
        }
        String state = Urls.queryParameters(uri).get("state");
        CompletableFuture<URI> waiting = state == null ? null : pending.get(state);
        String query = uri.getRawQuery();
        if (waiting == null || !waiting.complete(URI.create(redirectUri + (query == null ? "" : "?" + query)))) {
            return new Answer(400, "Bad Request", "Unexpected authorization response",
                    "No authorization is waiting for this response. You can close this window.");
        }
        return new Answer(200, "OK", "Authorization received",
                "You can close this window and return to the application.");
    }

    private static void write(Socket c, Answer a) throws IOException {
        byte[] body = ("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>" + a.title()
                + "</title></head><body><h1>" + a.title() + "</h1><p>" + a.text() + "</p></body></html>")
                .getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 " + a.status() + " " + a.reason() + "\r\n"
                + "Content-Type: text/html; charset=utf-8\r\n"
                + "Cache-Control: no-store\r\n"
                + "Referrer-Policy: no-referrer\r\n"
                + "Content-Length: " + body.length + "\r\n"
                + "Connection: close\r\n\r\n";
        OutputStream out = c.getOutputStream();
        out.write(head.getBytes(StandardCharsets.ISO_8859_1));
        out.write(body);
        out.flush();
        c.shutdownOutput();
    }

    private static void closeQuietly(Socket c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // nothing to do
        }
    }

    /** Stops the server, drops open connections and fails every running authorization. Idempotent. */
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (CompletableFuture<URI> waiting : pending.values()) {
            waiting.completeExceptionally(new IOException("the loopback receiver was closed"));
        }
        try {
            server.close();
        } catch (IOException ignored) {
            // closing a listening socket: nothing to recover
        }
        for (Socket c : connections) {
            closeQuietly(c);
        }
    }
}
