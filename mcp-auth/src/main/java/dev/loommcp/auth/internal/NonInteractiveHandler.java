package dev.loommcp.auth.internal;

import dev.loommcp.auth.AuthorizationCodeHandler;
import dev.loommcp.auth.McpAuthorizationException;
import dev.loommcp.Deadline;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Objects;

/**
 * {@link AuthorizationCodeHandler#nonInteractive}: GETs the authorization URL without following redirects and returns
 * the {@code Location} of the 302/303 answer (resolved against the URL). Each authorization uses its own short-lived
 * HTTP client, closed before it returns. Thread-safe.
 */
public final class NonInteractiveHandler implements AuthorizationCodeHandler {

    /** The wait for the authorization server when the caller has no deadline: {@value} seconds. */
    static final long DEFAULT_TIMEOUT_SECONDS = 30;

    private final URI redirectUri;

    private NonInteractiveHandler(URI redirectUri) {
        this.redirectUri = redirectUri;
    }

    /**
     * @param redirectUri the redirect URI
     * @return the handler
     * @throws NullPointerException     if {@code redirectUri} is {@code null}
     * @throws IllegalArgumentException if it is not absolute
     */
    public static AuthorizationCodeHandler create(URI redirectUri) {
        Objects.requireNonNull(redirectUri, "redirectUri");
        if (!redirectUri.isAbsolute()) {
            throw new IllegalArgumentException("the redirect URI must be absolute");
        }
        return new NonInteractiveHandler(redirectUri);
    }

    @Override
    public URI redirectUri() {
        return redirectUri;
    }

    @Override
    public URI authorize(URI authorizationUrl, String state, Deadline deadline)
            throws IOException, InterruptedException {
        Duration timeout = Duration.ofSeconds(DEFAULT_TIMEOUT_SECONDS);
        if (!deadline.isNone()) {
            Duration left = deadline.remaining();
            if (left.isNegative() || left.isZero()) {
                throw new McpAuthorizationException("the deadline passed before the authorization could start");
            }
            if (left.compareTo(timeout) < 0) {
                timeout = left;
            }
        }
        String where = AuthHttp.describe(authorizationUrl);
        HttpResponse<Void> resp;
        try (HttpClient client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(timeout).build()) {
            HttpRequest req = HttpRequest.newBuilder(authorizationUrl).GET().timeout(timeout).build();
            resp = client.send(req, HttpResponse.BodyHandlers.discarding());
        } catch (HttpTimeoutException e) {
            throw new McpAuthorizationException("the authorization endpoint " + where + " did not answer within "
                    + timeout.toMillis() + " ms");
        } catch (IOException e) {
            throw new IOException("the authorization request to " + where + " failed (" + SafeText.reason(e)
                    + ")", e);
        }
        int status = resp.statusCode();
        if (status != 302 && status != 303 && status != 301 && status != 307) {
            throw new IOException("the authorization endpoint " + where + " answered HTTP " + status
                    + " instead of a redirect");
        }
        String location = resp.headers().firstValue("Location").orElse(null);
        if (location == null || location.isBlank()) {
            throw new IOException("the authorization endpoint " + where + " redirected without a Location");
        }
        try {
            return authorizationUrl.resolve(location.trim());
        } catch (IllegalArgumentException e) {
            throw new IOException("the authorization endpoint " + where + " redirected to an invalid Location");
        }
    }

    @Override
    public String toString() {
        return "NonInteractiveHandler[" + redirectUri + "]";
    }
}
