package dev.loommcp.transport.unix;

import dev.loommcp.transport.http.HttpConnector;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.net.http.HttpClient;
import java.util.Objects;

/**
 * Carries the Streamable HTTP transport over a unix domain socket: endpoints {@code unix:<socket path>} and
 * {@code unix:<socket path>:<http path>}. Found by {@link dev.loommcp.transport.http.HttpTransport#newBuilder(URI)}
 * through {@link java.util.ServiceLoader} when this module is present; never used for {@code http}/{@code https}.
 *
 * <pre>{@code
 * HttpTransport transport = HttpTransport.newBuilder("unix:/run/app/mcp.sock:/mcp")
 *         .header("Authorization", "Bearer " + token)
 *         .build();
 * }</pre>
 *
 * <p>Syntax: {@code unix:} followed by the absolute path of the socket file; then, optionally, a colon and the HTTP
 * path the server serves MCP at (default {@code /}), with an optional query. So {@code unix:/run/app.sock} POSTs to
 * {@code /} and {@code unix:/run/app.sock:/mcp?tenant=a} to {@code /mcp?tenant=a} (the convention nginx uses for
 * {@code http://unix:/path:/uri}). {@code unix:///run/app.sock} (an empty authority) is accepted too. The socket
 * path ends at its first colon: a colon inside it is written {@code %3A}; other characters a URI does not allow
 * (a space) are percent-encoded as usual. Requests carry {@code Host: localhost}. A relative path, a host
 * ({@code unix://host/...}) and a fragment are refused.
 *
 * <p>Everything the transport does over TCP works the same (JSON and SSE answers, the GET stream, resumption with
 * {@code Last-Event-ID}, sessions, both protocol eras, caller headers, the request signer, deadlines, cancellation);
 * redirects are followed only within the socket. HTTP/1.1 only; TLS settings are refused (the socket file's
 * permissions guard it). A socket that is missing, not a socket, refused or not permitted fails the request with a
 * {@link dev.loommcp.McpTransportException} naming the path and the reason. {@link #endpoint(Path, String)} builds an
 * endpoint from a path.
 *
 * <p>Threads: each transport's client runs a small pool of platform daemon threads named
 * {@code mcp-unix-<n>-<id>} (Jetty's selector and callbacks; the selector blocks in native code, so it never runs
 * on a virtual thread) and a timer thread {@code mcp-unix-timer-<n>}; they end when the transport closes.
 *
 * <p>{@code vsock:} endpoints are not supported: the JDK has no API for AF_VSOCK sockets.
 *
 * <p>Thread-safe; stateless.
 */
public final class UnixConnector implements HttpConnector {

    /** Creates the connector (the service loader does this). */
    public UnixConnector() {
    }

    /**
     * Builds the endpoint for a socket file and an HTTP path, encoding the socket path as the syntax needs (a colon
     * as {@code %3A}, a space as {@code %20}).
     *
     * @param socket   the socket file; made absolute against the working directory if relative
     * @param httpPath the HTTP path (and query) the server serves MCP at, starting with {@code /}, such as
     *                 {@code /mcp}; already URI-encoded where needed
     * @return the endpoint, such as {@code unix:/run/app.sock:/mcp}
     * @throws NullPointerException     if an argument is {@code null}
     * @throws IllegalArgumentException if the HTTP path does not start with {@code /} or the result is not a valid
     *                                  endpoint
     */
    public static URI endpoint(Path socket, String httpPath) {
        Objects.requireNonNull(socket, "socket");
        Objects.requireNonNull(httpPath, "httpPath");
        String raw;
        try {
            raw = new URI("unix", null, socket.toAbsolutePath().toString(), null).getRawPath();
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("cannot encode the socket path: " + e.getReason(), e);
        }
        URI uri = URI.create("unix:" + raw.replace(":", "%3A") + ":" + httpPath);
        UnixEndpoint.parse(uri);
        return uri;
    }

    /**
     * Returns {@code unix}.
     *
     * @return {@code "unix"}
     */
    @Override
    public String scheme() {
        return "unix";
    }

    /**
     * Parses a {@code unix:} endpoint.
     *
     * @param endpoint the endpoint
     * @return the route: the request URI {@code http://localhost<http path>} and the origin
     *         {@code unix:<socket path>}
     * @throws IllegalArgumentException if the endpoint does not follow the syntax above; the message says how
     */
    @Override
    public Route route(URI endpoint) {
        UnixEndpoint e = UnixEndpoint.parse(Objects.requireNonNull(endpoint, "endpoint"));
        return new Route(e.requestUri(), e.origin());
    }

    /**
     * Starts a Jetty HTTP client that connects to the endpoint's socket.
     *
     * @param endpoint the endpoint
     * @param options  the transport's settings
     * @return the client
     * @throws IllegalArgumentException          if the endpoint is not valid
     * @throws dev.loommcp.McpTransportException if Jetty's client cannot be started
     */
    @Override
    public HttpClient newClient(URI endpoint, Options options) {
        UnixEndpoint e = UnixEndpoint.parse(Objects.requireNonNull(endpoint, "endpoint"));
        return JettyHttpClient.start(e.socket(), e.origin(), Objects.requireNonNull(options, "options"));
    }
}
