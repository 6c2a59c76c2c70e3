package dev.loommcp.auth;

import java.time.Instant;
import java.util.Objects;

/**
 * The right to refresh one token set, granted by {@link TokenStore#leaseRefresh}: while it runs no other holder (a
 * thread, a process or another replica sharing the store) is granted the lease of the same principal, resource and
 * issuer, so exactly one of them presents a refresh token (an authorization server that rotates refresh tokens and
 * detects reuse revokes the whole token family when one is presented twice: RFC 6819 section 5.2.2.3, RFC 9700
 * section 4.14.2). A lease expires at {@link #until()} by itself, so a holder that died stops blocking the others.
 *
 * <p>{@link #fence()} grows with every grant of the same key (a fencing token): a store refuses
 * {@link TokenStore#replaceTokens(RefreshLease, TokenSet, TokenSet)} from a holder whose lease was granted to another
 * holder since, so the late write of a holder that paused past its lease fails instead of overwriting newer tokens.
 * Immutable; {@code toString()} shows no secret (a lease holds none).
 *
 * @param resource the protected resource (canonical URI)
 * @param issuer   the authorization server's issuer
 * @param holder   who holds it (an id unique per holder, chosen by the caller)
 * @param fence    the fencing token: greater than that of every earlier grant of the same key; {@code 0} for a store
 *                 that does not exclude other processes (the default of {@link TokenStore#leaseRefresh})
 * @param until    when it expires, on the store's clock
 */
public record RefreshLease(String resource, String issuer, String holder, long fence, Instant until) {

    /**
     * Checks the components.
     *
     * @throws NullPointerException if a component is {@code null}
     */
    public RefreshLease {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(issuer, "issuer");
        Objects.requireNonNull(holder, "holder");
        Objects.requireNonNull(until, "until");
    }
}
