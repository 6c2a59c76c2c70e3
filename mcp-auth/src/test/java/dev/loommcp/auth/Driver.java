package dev.loommcp.auth;

import dev.loommcp.Deadline;
import dev.loommcp.transport.http.AuthChallenge;
import dev.loommcp.transport.http.AuthorizationFailure;
import dev.loommcp.transport.http.AuthorizationProvider;
import dev.loommcp.transport.http.AuthorizationRequest;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sends {@code POST /mcp} the way the HTTP transport's hook does (credentials, send, onResponse, and on 401/403
 * onChallenge then resend, at most {@link AuthorizationProvider#MAX_RETRIES} times), so the engine can be driven
 * against the in-test servers without an MCP session. The transport's own hook tests live in mcp-transport-http.
 */
final class Driver implements AutoCloseable {

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER).build();

    /** Returns the final status. */
    int post(AuthorizationProvider provider, URI endpoint) throws IOException, InterruptedException {
        return post(provider, endpoint, Deadline.after(Duration.ofSeconds(60)));
    }

    /** Returns the final status; the requests carry {@code deadline}. */
    int post(AuthorizationProvider provider, URI endpoint, Deadline deadline) throws IOException, InterruptedException {
        for (int attempt = 0; ; attempt++) {
            AuthorizationRequest r = new AuthorizationRequest(endpoint, "POST", endpoint, attempt, deadline);
            Map<String, String> creds = provider.credentials(r);
            HttpRequest.Builder b = HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(60))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"));
            creds.forEach(b::header);
            HttpResponse<String> resp = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
            provider.onResponse(r, resp.statusCode(), resp.headers());
            int status = resp.statusCode();
            if ((status == 401 || status == 403) && attempt < AuthorizationProvider.MAX_RETRIES
                    && provider.onChallenge(r, new AuthorizationFailure(status,
                    AuthChallenge.parse(resp.headers().allValues("WWW-Authenticate")), resp.headers()))) {
                continue;
            }
            return status;
        }
    }

    /** A provider that counts the calls entering {@code inner}'s credentials and onChallenge, then delegates. */
    static AuthorizationProvider counting(AuthorizationProvider inner, AtomicInteger inCredentials,
                                          AtomicInteger inChallenge) {
        return new AuthorizationProvider() {
            @Override
            public Map<String, String> credentials(AuthorizationRequest r) throws InterruptedException {
                inCredentials.incrementAndGet();
                return inner.credentials(r);
            }

            @Override
            public boolean onChallenge(AuthorizationRequest r, AuthorizationFailure f) throws InterruptedException {
                inChallenge.incrementAndGet();
                return inner.onChallenge(r, f);
            }

            @Override
            public void onResponse(AuthorizationRequest r, int status, java.net.http.HttpHeaders headers) {
                inner.onResponse(r, status, headers);
            }
        };
    }

    @Override
    public void close() {
        client.close();
    }
}
