package dev.loommcp.transport.http;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * A service provider that carries the {@link HttpTransport}'s HTTP exchanges over something other than TCP, for
 * endpoints of its own URI scheme (the module {@code dev.loommcp.transport.unix} provides {@code unix:}). The
 * transport's behaviour (sessions, SSE, resumption, both eras, headers, signer, deadlines, abort) is the same over
 * every connector: a connector only supplies the {@link HttpClient} its exchanges run on.
 *
 * <p>{@link HttpTransport#newBuilder(URI)} finds a connector for a scheme other than {@code http} and {@code https}
 * with {@link java.util.ServiceLoader} (a module declares {@code provides dev.loommcp.transport.http.HttpConnector};
 * on the class path, {@code META-INF/services}); {@link HttpTransport#newBuilder(URI, HttpConnector)} takes one
 * explicitly. Plain {@code http}/{@code https} endpoints never consult a connector.
 *
 * <p>The client a connector returns must support what the transport uses, and only that: {@link
 * HttpClient#sendAsync(java.net.http.HttpRequest, java.net.http.HttpResponse.BodyHandler)} (requests carry the
 * {@linkplain Route#requestUri() request URI} or a same-origin redirect of it, a method, headers, an optional byte
 * body and an optional {@linkplain java.net.http.HttpRequest#timeout() timeout} for the response headers; the body
 * handler's subscriber gets the response body with back-pressure, and cancelling the returned future aborts the
 * exchange), {@link HttpClient#shutdownNow()} and {@link HttpClient#awaitTermination(Duration)}. It must not follow
 * redirects ({@link HttpClient#followRedirects()} {@code NEVER}): the transport follows same-origin 307/308 itself, and
 * a client that followed redirects would resend request bodies and credentials wherever a server points; the
 * transport refuses another client when it opens (a {@link dev.loommcp.McpTransportException}). A failure to
 * connect should complete the future with a {@link java.net.ConnectException} whose message names the target and
 * the reason (it is shown to the user: never a secret), or with a {@link dev.loommcp.McpTransportException}.
 *
 * <p>Implementations must be thread-safe and have a public no-argument constructor (for the service loader).
 */
public interface HttpConnector {

    /**
     * Returns the URI scheme this connector serves, in lower case, such as {@code unix}: never {@code http} or
     * {@code https}.
     *
     * @return the scheme
     */
    String scheme();

    /**
     * Checks an endpoint of this connector's scheme and says where its requests go.
     *
     * @param endpoint the endpoint as the user gave it, of this connector's scheme
     * @return the route
     * @throws IllegalArgumentException if the endpoint is not valid for this connector; the message names what is
     *                                  wrong
     */
    Route route(URI endpoint);

    /**
     * Creates the HTTP client of one transport, when the transport opens; the transport shuts it down when it closes.
     *
     * @param endpoint the endpoint, already accepted by {@link #route}
     * @param options  the transport's settings the client must honour
     * @return a new client, ready to send
     * @throws dev.loommcp.McpTransportException if the client cannot be started
     */
    HttpClient newClient(URI endpoint, Options options);

    /**
     * Where an endpoint's requests go.
     *
     * @param requestUri the absolute {@code http} URI the transport's requests carry (its host is the {@code Host}
     *                   header, its path and query the request target), for example {@code http://localhost/mcp};
     *                   redirects are resolved against it and followed only within its origin
     * @param origin     how the transport names the endpoint in logs and messages, for example
     *                   {@code unix:/run/app.sock}: no credentials, no query
     */
    record Route(URI requestUri, String origin) {

        /**
         * Checks the parts.
         *
         * @throws NullPointerException     if a part is {@code null}
         * @throws IllegalArgumentException if {@code requestUri} is not an absolute {@code http} URI with a host
         */
        public Route {
            Objects.requireNonNull(requestUri, "requestUri");
            Objects.requireNonNull(origin, "origin");
            if (!"http".equalsIgnoreCase(requestUri.getScheme()) || requestUri.getHost() == null) {
                throw new IllegalArgumentException("a connector's request URI must be an absolute http URI with a "
                        + "host");
            }
        }
    }

    /**
     * The settings of the transport a connector's client serves.
     *
     * @param connectTimeout the bound for establishing a connection
     * @param executor       the transport's executor (virtual threads named {@code mcp-http-<n>}); a client may run
     *                       its callbacks there, but must not park a thread in a blocking native call on it
     * @param threadPrefix   the prefix for names of any platform threads the client starts ({@code mcp-}...), so
     *                       that thread dumps and leak checks attribute them to the transport
     */
    record Options(Duration connectTimeout, Executor executor, String threadPrefix) {

        /**
         * Checks the parts.
         *
         * @throws NullPointerException if a part is {@code null}
         */
        public Options {
            Objects.requireNonNull(connectTimeout, "connectTimeout");
            Objects.requireNonNull(executor, "executor");
            Objects.requireNonNull(threadPrefix, "threadPrefix");
        }
    }
}
