package dev.loommcp.transport.http;

import dev.loommcp.Deadline;
import dev.loommcp.spi.JsonRpcFraming;
import dev.loommcp.spi.TransportThreads;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;

/**
 * A transport's settings, fixed when it is built, with the limits of the transport and the arithmetic of its waits
 * (idle wait, header timeout, reconnection backoff). Immutable; thread-safe.
 */
final class HttpSettings {

    static final int MAX_REDIRECTS = 5;
    static final int MAX_STREAM_ATTEMPTS = 5;
    static final long MIN_RECONNECT_MILLIS = 100;
    /** The longest reconnection wait a server's SSE {@code retry} can ask for. */
    static final long MAX_SERVER_RETRY_MILLIS = 30_000;
    static final long CLOSE_TIMEOUT_MILLIS = 3_000;
    /** How long close() lets queued notifications and responses (a notifications/cancelled) go out. */
    static final long ONE_WAY_FLUSH_MILLIS = 2_000;

    static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(5);
    static final int DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
    static final long DEFAULT_RETRY_MILLIS = 1_000;
    static final long MAX_BACKOFF_MILLIS = 30_000;
    static final int MAX_ERROR_BODY_BYTES = 64 * 1024;
    static final int SEEN_IDS = 4096;
    /** How close to a send's deadline a transport timer that fires counts as the deadline (timers are not exact). */
    static final long TIMER_SLACK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    /** The endpoint as the user gave it. */
    final URI endpoint;
    /**
     * The URI requests carry: the endpoint itself for http(s), the connector's {@linkplain HttpConnector.Route#requestUri
     * request URI} for another scheme.
     */
    final URI target;
    /** The connector of a non-TCP endpoint, or {@code null} (http and https: the JDK's client). */
    final HttpConnector connector;
    /**
     * The endpoint's {@code scheme://host:port} (or the connector's origin, such as {@code unix:/run/app.sock}),
     * without path, query or credentials: safe to log.
     */
    final String origin;
    /** The caller's headers, in order. */
    final Headers headers;
    final Duration connectTimeout;
    final Duration idleTimeout;
    /** The request signer, or {@code null}. */
    final RequestSigner signer;
    /** The authorization provider, or {@code null}. */
    final AuthorizationProvider authorization;
    /** The TLS context, or {@code null} for the JDK's default. */
    final SSLContext sslContext;
    final int maxMessageBytes;
    final long reconnectDelayMillis;
    final String tlsDescription;
    /** The client's JSON-RPC framing, set once when the transport opens (the core's until then). */
    volatile JsonRpcFraming framing = JsonRpcFraming.standard();
    /** The client's threads, set once when the transport opens (the core's until then). */
    volatile TransportThreads threads = TransportThreads.standard();

    HttpSettings(URI endpoint, HttpConnector connector, HttpConnector.Route route, Headers headers,
                 Duration connectTimeout, Duration idleTimeout, RequestSigner signer, AuthorizationProvider authorization, SSLContext sslContext,
                 int maxMessageBytes, Duration reconnectDelay, String tlsDescription) {
        this.endpoint = endpoint;
        this.connector = connector;
        this.target = route == null ? endpoint : route.requestUri();
        this.origin = route == null ? originOf(endpoint) : route.origin();
        this.headers = headers;
        this.connectTimeout = connectTimeout;
        this.idleTimeout = idleTimeout;
        this.signer = signer;
        this.authorization = authorization;
        this.sslContext = sslContext;
        this.maxMessageBytes = maxMessageBytes;
        this.reconnectDelayMillis = reconnectDelay.toMillis();
        this.tlsDescription = tlsDescription;
    }

    /**
     * The key of the core's era verdicts, cached results and task stores for this server: the origin, the request path
     * (scheme and host in lower case) and, when there is one, the SHA-256 of the raw query (two endpoints that differ
     * only by {@code ?tenant=} are two servers; the query itself may carry a secret and is never in the key).
     */
    String serverKey() {
        String path = target.getRawPath();
        String query = target.getRawQuery();
        return origin.toLowerCase(Locale.ROOT) + (path == null ? "" : path)
                + (query == null ? "" : "?sha256:" + sha256(query));
    }

    private static String sha256(String text) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from the JDK", e);
        }
    }

    /**
     * These settings with another request URI: the legacy HTTP+SSE transport POSTs to the endpoint its SSE stream
     * announced (same origin, checked by the caller). Framing and threads are the ones set so far.
     */
    HttpSettings withTarget(URI newTarget) {
        HttpSettings s = new HttpSettings(this, newTarget);
        s.framing = framing;
        s.threads = threads;
        return s;
    }

    /** A copy of {@code base} whose requests go to {@code target}; the origin (for logs) stays the base's. */
    private HttpSettings(HttpSettings base, URI target) {
        this.endpoint = base.endpoint;
        this.connector = base.connector;
        this.target = target;
        this.origin = base.origin;
        this.headers = base.headers;
        this.connectTimeout = base.connectTimeout;
        this.idleTimeout = base.idleTimeout;
        this.signer = base.signer;
        this.authorization = base.authorization;
        this.sslContext = base.sslContext;
        this.maxMessageBytes = base.maxMessageBytes;
        this.reconnectDelayMillis = base.reconnectDelayMillis;
        this.tlsDescription = base.tlsDescription;
    }

    /**
     * The wait for the next byte of a call's response: none for an {@linkplain Call#unbounded unbounded} call, else
     * {@link #waitNanos(Deadline)}.
     */
    long waitNanos(Call call, Deadline deadline) {
        return call.unbounded ? Long.MAX_VALUE : waitNanos(deadline);
    }

    /** The wait for the next byte of a response: the idle timeout, or less when the deadline comes first. */
    long waitNanos(Deadline deadline) {
        long idle = idleNanos();
        if (deadline.isNone()) {
            return idle;
        }
        return Math.max(1, Math.min(idle, deadline.remainingNanos()));
    }

    /**
     * Bounds a request until its response headers: connecting (connect timeout) plus one idle period, and a little
     * past the deadline, so that the transport's own wait for the headers reports the deadline first.
     */
    Duration headerTimeout(Deadline deadline) {
        long idle = saturatedAdd(idleNanos(), connectTimeout.toNanos());
        if (!deadline.isNone()) {
            idle = Math.min(idle, saturatedAdd(deadline.remainingNanos(), TIMER_SLACK_NANOS));
        }
        return Duration.ofNanos(idle);
    }

    private static long saturatedAdd(long a, long b) {
        long r = a + b;
        return r < 0 ? Long.MAX_VALUE : r;
    }

    long idleNanos() {
        return idleTimeout.toNanos();
    }

    /**
     * The wait before reconnection attempt {@code attempt} (1-based): the server's {@code retry} when it sent one
     * ({@code retryMillis >= 0}, at most {@link #MAX_SERVER_RETRY_MILLIS}), else the configured delay doubling per
     * attempt up to {@link #MAX_BACKOFF_MILLIS};
     * never less than {@link #MIN_RECONNECT_MILLIS} (a server's {@code retry: 0} or a sub-millisecond delay must not
     * make a reconnect loop spin).
     */
    long reconnectMillis(long retryMillis, int attempt) {
        long d;
        if (retryMillis >= 0) {
            d = retryMillis; // at most MAX_SERVER_RETRY_MILLIS (SseParser)
        } else {
            d = reconnectDelayMillis << Math.min(Math.max(attempt - 1, 0), 10);
            d = Math.min(d, Math.max(MAX_BACKOFF_MILLIS, reconnectDelayMillis));
        }
        return Math.max(d, MIN_RECONNECT_MILLIS);
    }

    /** The endpoint's kind and place, made once: {@link #info()}. */
    private volatile dev.loommcp.spi.TransportInfo info;

    /**
     * The endpoint's kind and place for {@code McpTransport.info()}: TCP with host and port for http(s) (the scheme's
     * default port when none is named), UNIX with the socket path of a {@code unix:} endpoint (from the
     * {@link #origin}, which is {@code unix:<socket path>}), OTHER for any other connector's scheme.
     */
    dev.loommcp.spi.TransportInfo info() {
        dev.loommcp.spi.TransportInfo i = info;
        if (i == null) {
            String scheme = endpoint.getScheme() == null ? "" : endpoint.getScheme().toLowerCase(java.util.Locale.ROOT);
            if (scheme.equals("http") || scheme.equals("https")) {
                int port = endpoint.getPort() > 0 ? endpoint.getPort() : scheme.equals("https") ? 443 : 80;
                i = new dev.loommcp.spi.TransportInfo(dev.loommcp.spi.TransportInfo.Kind.TCP, endpoint.getHost(), port);
            } else if (scheme.equals("unix") && origin.startsWith("unix:")) {
                i = new dev.loommcp.spi.TransportInfo(dev.loommcp.spi.TransportInfo.Kind.UNIX,
                        origin.substring("unix:".length()), null);
            } else {
                i = dev.loommcp.spi.TransportInfo.other();
            }
            info = i;
        }
        return i;
    }

    /**
     * Describes the settings: endpoint without query, header names with redacted values, whether a signer and an
     * authorization provider are set (never what they are or return), and TLS.
     */
    String describe() {
        return describeConfig(origin, target, headers, signer != null, authorization != null,
                tlsDescription);
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

    /**
     * @param origin the endpoint's origin (safe to log)
     * @param target the URI requests go to (neither its path nor its query is shown, only whether it has them)
     */
    static String describeConfig(String origin, URI target, Headers headers, boolean signer,
                                 boolean authorization, String tls) {
        StringBuilder sb = new StringBuilder("[endpoint=");
        sb.append(origin);
        // the path is not shown either: some servers take a secret there (https://host/mcp/<token>/sse), and the
        // transport cannot tell such a segment from a plain one
        String path = target.getRawPath();
        if (path != null && !path.isEmpty() && !path.equals("/")) {
            sb.append("/<path redacted>");
        }
        if (target.getRawQuery() != null) {
            sb.append("?<redacted>");
        }
        sb.append(", headers=").append(headers); // names only: every value is redacted
        sb.append(", signer=").append(signer ? "set" : "none");
        sb.append(", authorization=").append(authorization ? "set" : "none");
        sb.append(", tls=").append(tls).append(']');
        return sb.toString();
    }
}
