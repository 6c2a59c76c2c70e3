package dev.loommcp.transport.http;

import dev.loommcp.McpTransportException;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An HTTP exchange of the HTTP transports (Streamable HTTP, HTTP+SSE) ended with a status they do not accept: an error
 * status (4xx, 5xx), a redirect it does not follow (anything but 307 and 308, a 307/308 to another origin, or more
 * than five hops), or an unexpected success status. The message names the HTTP method, the JSON-RPC method and
 * request id where there is one, and the status; never a header value (a {@code Retry-After} is shown as the wait
 * it was parsed to) nor anything the client sent.
 *
 * <p>For 401 and 403 the parsed {@code WWW-Authenticate} challenges are kept ({@link #wwwAuthenticate()}), for the
 * authorization flow (MCP spec "Authorization", RFC 9728 {@code resource_metadata}).
 *
 * <p>The message ends with a short excerpt of the answer's body when it had a readable one (at most 200 characters
 * of text on one line, control characters escaped, an HTML page reduced to its {@code <title>} or its text): a
 * proxy's error page says more than its status. The body is the server's text, never the client's.
 *
 * <p>A request the server refused with 429 (Too Many Requests) or 503 with {@code Retry-After} that the transport
 * did not send again fails with the subclass {@link McpRateLimitedException}.
 *
 * <p>Immutable and thread-safe.
 */
public sealed class McpHttpStatusException extends McpTransportException permits McpRateLimitedException {

    /** The HTTP status code of the response (part of the serialized form). */
    private final int statusCode;
    private final transient List<AuthChallenge> challenges;

    /**
     * Creates the exception.
     *
     * @param statusCode the HTTP status code
     * @param message    what failed, naming the status
     * @param challenges the parsed {@code WWW-Authenticate} challenges (empty unless 401 or 403), not {@code null}
     */
    public McpHttpStatusException(int statusCode, String message, List<AuthChallenge> challenges) {
        super(message);
        this.statusCode = statusCode;
        this.challenges = List.copyOf(Objects.requireNonNull(challenges, "challenges"));
    }

    /**
     * Returns the HTTP status code.
     *
     * @return the status, for example 401, 404, 500 or 302
     */
    public int statusCode() {
        return statusCode;
    }

    /**
     * Returns {@link #statusCode()}.
     *
     * @return the status code
     */
    @Override
    public java.util.OptionalInt httpStatus() {
        return java.util.OptionalInt.of(statusCode);
    }

    /**
     * Returns the {@code WWW-Authenticate} challenges of a 401 or 403 answer.
     *
     * @return the challenges in header order; empty for other statuses or when the server sent none
     */
    public List<AuthChallenge> wwwAuthenticate() {
        return challenges == null ? List.of() : challenges;
    }

    /**
     * Returns the parameters of the first {@code Bearer} challenge, or of the first challenge when there is no
     * {@code Bearer} one: the usual place of {@code resource_metadata}, {@code scope} and {@code error}.
     *
     * @return the parameters (names in lower case); empty when there is no challenge
     */
    public Map<String, String> authParameters() {
        List<AuthChallenge> all = wwwAuthenticate();
        for (AuthChallenge c : all) {
            if (c.scheme().equalsIgnoreCase("Bearer")) {
                return c.parameters();
            }
        }
        return all.isEmpty() ? Map.of() : all.get(0).parameters();
    }
}
