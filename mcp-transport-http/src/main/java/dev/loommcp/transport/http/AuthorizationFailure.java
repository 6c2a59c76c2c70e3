package dev.loommcp.transport.http;

import java.net.http.HttpHeaders;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A 401 or 403 answer handed to {@link AuthorizationProvider#onChallenge}. Immutable and thread-safe.
 *
 * @param status     the HTTP status: 401 or 403
 * @param challenges the parsed {@code WWW-Authenticate} challenges, in order (RFC 6750 / RFC 9728 / RFC 9449
 *                   parameters such as {@code error}, {@code scope}, {@code resource_metadata}); empty when none
 *                   could be read
 * @param headers    all response headers (for {@code DPoP-Nonce}, say); names compare without case
 */
public record AuthorizationFailure(int status, List<AuthChallenge> challenges, HttpHeaders headers) {

    /**
     * Creates a failure description.
     *
     * @throws NullPointerException if an argument is {@code null}
     */
    public AuthorizationFailure {
        challenges = List.copyOf(Objects.requireNonNull(challenges, "challenges"));
        Objects.requireNonNull(headers, "headers");
    }

    /**
     * Returns the first challenge of a scheme.
     *
     * @param scheme the scheme, compared without case ({@code Bearer}, {@code DPoP})
     * @return the challenge, or empty when the answer has none of that scheme
     */
    public Optional<AuthChallenge> challenge(String scheme) {
        for (AuthChallenge c : challenges) {
            if (c.scheme().equalsIgnoreCase(scheme)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }
}
