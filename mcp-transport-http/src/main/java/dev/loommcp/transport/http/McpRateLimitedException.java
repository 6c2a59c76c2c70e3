package dev.loommcp.transport.http;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The server refused a request with HTTP 429 (Too Many Requests), or with 503 (Service Unavailable) and a
 * {@code Retry-After}, and the transport did not send it again: the wait the server asked for would pass the call's
 * deadline, is longer than 60 s, or the request was refused
 * 5 times. Such a refusal means the server did not process the request (RFC 6585
 * section 4, RFC 9110 section 15.6.4), so the transport first waits and sends it again by itself, within the call's
 * deadline; this exception is what is left when it cannot. {@link #retryAfter()} is the server's {@code Retry-After}
 * (RFC 9110 section 10.2.3, delta-seconds or an HTTP date), for a caller that wants to wait longer than the call
 * could.
 *
 * <p>Immutable and thread-safe.
 */
public final class McpRateLimitedException extends McpHttpStatusException {

    /** The server's Retry-After, or {@code null} when it sent none (or one that is not valid). */
    private final Duration retryAfter;
    private final int attempts;

    /**
     * Creates the exception.
     *
     * @param statusCode the HTTP status, 429 or 503
     * @param message    what failed, naming the status, the Retry-After and why it was not sent again
     * @param retryAfter the server's {@code Retry-After} as a wait from the answer (zero for a date in the past), or
     *                   {@code null} when it sent none
     * @param attempts   how many times the request was sent, at least 1
     */
    public McpRateLimitedException(int statusCode, String message, @Nullable Duration retryAfter, int attempts) {
        super(statusCode, message, List.of());
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1");
        }
        if (retryAfter != null && retryAfter.isNegative()) {
            throw new IllegalArgumentException("retryAfter must not be negative");
        }
        this.retryAfter = retryAfter;
        this.attempts = attempts;
    }

    /**
     * Returns how long the server asked to wait before sending the request again, as of its last answer.
     *
     * @return the wait (zero when its date passed already); empty when the server sent no valid {@code Retry-After}
     */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }

    /**
     * Returns how many times the request was sent, the last answer included.
     *
     * @return at least 1; at most 5
     */
    public int attempts() {
        return attempts;
    }
}
