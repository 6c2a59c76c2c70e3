package dev.loommcp.auth.internal;

import dev.loommcp.auth.McpAuthorizationException;
import dev.loommcp.internal.net.ContentCoding;
import dev.loommcp.Deadline;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The HTTP requests of the OAuth client (metadata GETs, registration and token POSTs) on {@code java.net.http}: no
 * redirects followed (a 3xx is returned as it is), each bounded by the configured request timeout and the caller's
 * deadline, bodies read up to {@value #MAX_BODY_BYTES} bytes. Every destination is {@linkplain #checkDestination
 * checked} first: https (plain http only on a loopback host) and the user's {@code allowedDestinations}. Never logs a
 * body, a header value or a query. Thread-safe.
 */
public final class AuthHttp implements AutoCloseable {

    /** The largest response body read: {@value} bytes (metadata and token responses are small). */
    public static final int MAX_BODY_BYTES = 1024 * 1024;
    static final ObjectMapper JSON = JsonMapper.builder().build();

    private final HttpClient client;
    private final boolean owned;
    private final Duration timeout;
    private final Predicate<URI> allowed;

    /**
     * @param client  the HTTP client, or {@code null} to create one (closed by {@link #close()})
     * @param timeout each request's timeout
     */
    public AuthHttp(HttpClient client, Duration timeout) {
        this(client, timeout, null);
    }

    /**
     * @param client  the HTTP client, or {@code null} to create one (closed by {@link #close()})
     * @param timeout each request's timeout
     * @param allowed where requests may go, or {@code null} for anywhere (after the https rule)
     */
    public AuthHttp(HttpClient client, Duration timeout, Predicate<URI> allowed) {
        this.owned = client == null;
        this.client = client != null ? client : HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(timeout).build();
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.allowed = allowed;
    }

    /**
     * Checks a destination before anything is sent there (or handed to the user's browser): it must be https, or
     * http on a loopback host, and the {@code allowedDestinations} predicate, if any, must accept it.
     *
     * @param uri  the destination
     * @param what what goes there, for the message (such as "the request")
     * @throws McpAuthorizationException if refused; the message names the URI (origin and path) and the rule, and
     *                                   carries the predicate's exception as the cause when it threw one
     */
    public void checkDestination(URI uri, String what) {
        try {
            Urls.requireSecure(uri, what + " to");
        } catch (IllegalArgumentException e) {
            throw new McpAuthorizationException(e.getMessage());
        }
        if (allowed == null) {
            return;
        }
        boolean ok;
        try {
            ok = allowed.test(uri);
        } catch (RuntimeException e) {
            throw new McpAuthorizationException(what + " to " + describe(uri) + " is refused: allowedDestinations "
                    + "failed (" + SafeText.reason(e) + ")", e);
        }
        if (!ok) {
            throw new McpAuthorizationException(what + " to " + describe(uri) + " is refused by "
                    + "allowedDestinations");
        }
    }

    /** An HTTP answer: status, headers and the body (at most {@value #MAX_BODY_BYTES} bytes). */
    public record Response(URI uri, int status, HttpHeaders headers, byte[] body) {

        /** @return the body as JSON, or {@code null} when it is not a JSON document */
        public JsonNode json() {
            try {
                return body.length == 0 ? null : JSON.readTree(body);
            } catch (RuntimeException e) {
                return null;
            }
        }

        /** @return whether the status is 2xx */
        public boolean ok() {
            return status >= 200 && status < 300;
        }
    }

    /**
     * GETs a URI (with {@code Accept: application/json}).
     *
     * @throws IOException          on a network failure or timeout (the message names the origin and path only)
     * @throws InterruptedException if interrupted
     */
    public Response get(URI uri, Map<String, String> headers, Deadline deadline)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).GET().header("Accept", "application/json");
        headers.forEach(b::header);
        return send(b, uri, deadline);
    }

    /**
     * POSTs an {@code application/x-www-form-urlencoded} body (the parameters in their order, UTF-8).
     *
     * @throws IOException          on a network failure or timeout
     * @throws InterruptedException if interrupted
     */
    public Response postForm(URI uri, Map<String, String> form, Map<String, String> headers, Deadline deadline)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri)
                .POST(HttpRequest.BodyPublishers.ofString(formBody(form)))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Accept", "application/json");
        headers.forEach(b::header);
        return send(b, uri, deadline);
    }

    /**
     * POSTs a JSON body.
     *
     * @throws IOException          on a network failure or timeout
     * @throws InterruptedException if interrupted
     */
    public Response postJson(URI uri, JsonNode body, Map<String, String> headers, Deadline deadline)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri)
                .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json");
        headers.forEach(b::header);
        return send(b, uri, deadline);
    }

    /** Encodes form parameters ({@code null} values are left out), in order. */
    public static String formBody(Map<String, String> form) {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, String> e : form.entrySet()) {
            if (e.getValue() == null) {
                continue;
            }
            if (!sb.isEmpty()) {
                sb.append('&');
            }
            sb.append(formEncode(e.getKey())).append('=').append(formEncode(e.getValue()));
        }
        return sb.toString();
    }

    /** {@code application/x-www-form-urlencoded} encoding of one part (also what HTTP Basic client auth uses). */
    public static String formEncode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** A URI fit for messages and logs: origin and path, no query, no user info. */
    public static String describe(URI uri) {
        String port = uri.getPort() < 0 ? "" : ":" + uri.getPort();
        return uri.getScheme() + "://" + uri.getHost() + port + (uri.getRawPath() == null ? "" : uri.getRawPath());
    }

    private Response send(HttpRequest.Builder b, URI uri, Deadline deadline)
            throws IOException, InterruptedException {
        checkDestination(uri, "the request");
        Duration t = timeout;
        if (!deadline.isNone()) {
            Duration left = deadline.remaining();
            if (left.isNegative() || left.isZero()) {
                throw new HttpTimeoutException("the deadline passed before the request to " + describe(uri));
            }
            if (left.compareTo(t) < 0) {
                t = left;
            }
        }
        b.timeout(t);
        HttpResponse<InputStream> resp;
        try {
            resp = client.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (HttpTimeoutException e) {
            throw new HttpTimeoutException("no answer from " + describe(uri) + " within " + t.toMillis() + " ms");
        } catch (IOException e) {
            throw new IOException("the request to " + describe(uri) + " failed (" + SafeText.reason(e) + ")", e);
        }
        // a compressed answer (a proxy may compress whatever was asked) is decoded; the bound is on the decoded bytes
        String coding = ContentCoding.of(resp.headers().firstValue("Content-Encoding").orElse(null));
        if (coding != null && ContentCoding.isUnsupported(coding)) {
            resp.body().close();
            throw new IOException("the answer of " + describe(uri) + ": " + ContentCoding.unsupported(coding));
        }
        try (InputStream in = coding == null ? resp.body() : ContentCoding.decode(resp.body(), coding)) {
            byte[] body;
            try {
                body = in.readNBytes(MAX_BODY_BYTES + 1);
            } catch (java.util.zip.ZipException | java.io.EOFException e) {
                throw new IOException("the " + coding + "-encoded answer of " + describe(uri) + " is corrupt", e);
            }
            if (body.length > MAX_BODY_BYTES) {
                throw new IOException("the answer of " + describe(uri) + " is larger than " + MAX_BODY_BYTES
                        + " bytes");
            }
            return new Response(uri, resp.statusCode(), resp.headers(), body);
        }
    }

    /** Closes the HTTP client if this object created it. */
    @Override
    public void close() {
        if (owned) {
            client.close();
        }
    }
}
