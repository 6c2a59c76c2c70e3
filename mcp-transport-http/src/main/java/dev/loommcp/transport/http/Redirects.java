package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.HttpSettings.MAX_REDIRECTS;

import java.net.URI;
import java.net.http.HttpResponse;
import java.util.List;

/**
 * The step that follows same-origin 307 and 308 redirects, at most {@link HttpSettings#MAX_REDIRECTS} times, with the
 * same method, body and headers; any other 3xx, or a redirect to another origin, fails with
 * {@link McpHttpStatusException} naming the status. The response it returns is not a redirect.
 */
final class Redirects implements Step {

    private final HttpSettings settings;
    private final Step next;

    Redirects(HttpSettings settings, Step next) {
        this.settings = settings;
        this.next = next;
    }

    @Override
    public HttpResponse<StreamBody> send(Call call, URI uri, Headers headers) throws InterruptedException {
        URI at = uri;
        for (int hop = 0; ; hop++) {
            call.hop = hop;
            HttpResponse<StreamBody> resp = next.send(call, at, headers);
            int status = resp.statusCode();
            if (status < 300 || status >= 400) {
                return resp;
            }
            resp.body().close();
            at = target(call, at, resp, hop);
        }
    }

    /** Where a redirect points, or the failure that says why it is not followed. */
    private URI target(Call call, URI from, HttpResponse<StreamBody> resp, int hop) {
        int status = resp.statusCode();
        if (status != 307 && status != 308) {
            throw new McpHttpStatusException(status, call.what + " was redirected with HTTP " + status
                    + "; only 307 and 308 within the endpoint's origin are followed", List.of());
        }
        String location = resp.headers().firstValue("Location").orElse(null);
        if (location == null || location.isBlank()) {
            throw new McpHttpStatusException(status, call.what + " was redirected with HTTP " + status
                    + " without a Location", List.of());
        }
        URI next;
        try {
            next = from.resolve(location.trim());
        } catch (IllegalArgumentException e) {
            throw new McpHttpStatusException(status, call.what + " was redirected with HTTP " + status
                    + " to an invalid Location", List.of());
        }
        if (!HttpSettings.sameOrigin(next, settings.target)) {
            throw new McpHttpStatusException(status, call.what + " was redirected with HTTP " + status
                    + " to another origin; not followed", List.of());
        }
        if (hop >= MAX_REDIRECTS) {
            throw new McpHttpStatusException(status, call.what + " was redirected more than " + MAX_REDIRECTS
                    + " times (last HTTP " + status + ")", List.of());
        }
        return next;
    }
}
