package dev.loommcp.transport.http;

import dev.loommcp.Deadline;
import java.net.URI;
import java.util.Objects;

/**
 * One HTTP request an {@link AuthorizationProvider} is asked to authorize. Immutable and thread-safe.
 *
 * @param endpoint the transport's MCP endpoint (the protected resource: what tokens are keyed by), as configured
 * @param method   the HTTP method: {@code POST}, {@code GET} or {@code DELETE}
 * @param uri      the exact URI the request goes to (the endpoint, or a same-origin redirect target): what a DPoP
 *                 proof's {@code htu} names
 * @param attempt  how many times this request was already refused with 401/403 and sent again: 0 the first time, at
 *                 most {@link AuthorizationProvider#MAX_RETRIES}
 * @param deadline when the request's caller stops waiting ({@link Deadline#NONE} for the GET stream, which has none)
 */
public record AuthorizationRequest(URI endpoint, String method, URI uri, int attempt, Deadline deadline) {

    /**
     * Creates a request description.
     *
     * @throws NullPointerException     if an argument is {@code null}
     * @throws IllegalArgumentException if {@code attempt} is negative
     */
    public AuthorizationRequest {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(deadline, "deadline");
        if (attempt < 0) {
            throw new IllegalArgumentException("attempt must not be negative");
        }
    }
}
