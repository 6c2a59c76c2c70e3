package dev.loommcp.auth;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Where {@link McpOAuth} keeps tokens (per protected resource and issuer) and client registrations (per issuer).
 * {@link InMemoryTokenStore} is the default; {@link FileTokenStore} keeps them across processes (the CLI's
 * {@code --token-cache}).
 *
 * <p>Resources are the canonical URIs of MCP servers (RFC 8707: scheme and host in lower case, no fragment); issuers
 * are compared exactly.
 *
 * <p>Implementations must be thread-safe and each operation atomic. The {@code remove...} operations compare and
 * delete: they remove only when the stored value equals the one given, so a client that finds its refresh token
 * rejected never deletes the good credentials another process (or thread) has just stored in its place.
 *
 * <p>Stores shared by several processes or machines (a fleet of replicas: {@code dev.loommcp.store.jdbc}) also
 * implement the operations a fleet needs, which have defaults so that a store written for one process keeps
 * working: {@link #replaceTokens(String, TokenSet, TokenSet) compare-and-set} replacement of a token set,
 * {@link #registerIfAbsent put-if-absent} registration (N replicas starting together keep one registration), the
 * {@link #leaseRefresh refresh lease} with its fencing token ({@link RefreshLease}), and a
 * {@link #forPrincipal per-principal view} for backends acting for several users (tokens keyed by principal,
 * resource and issuer). {@link McpOAuth} uses them: a refresh runs under the lease, and a caller that finds the lease
 * held waits (within its call's deadline) for the holder's tokens instead of presenting the same refresh token.
 *
 * <p>Failures of a persistent store are {@link UncheckedIOException}s naming the file, never quoting a secret; a store
 * on a database throws {@link UncheckedIOException} too (its cause the driver's exception, the message naming the
 * operation, never a value).
 */
public interface TokenStore {

    /**
     * Returns the tokens of one resource from one issuer.
     *
     * @param resource the resource
     * @param issuer   the issuer
     * @return the tokens, or empty
     */
    Optional<TokenSet> tokens(String resource, String issuer);

    /**
     * Returns the issuers holding tokens for a resource, the most recently saved first (so a new process can use a
     * stored token before it has discovered the resource's authorization server).
     *
     * @param resource the resource
     * @return the issuers, possibly empty
     */
    List<String> issuers(String resource);

    /**
     * Stores (replaces) the tokens of a resource; the issuer is {@link TokenSet#issuer()}.
     *
     * @param resource the resource
     * @param tokens   the tokens
     */
    void saveTokens(String resource, TokenSet tokens);

    /**
     * Removes the tokens of a resource from {@code expected.issuer()} if they still equal {@code expected}.
     *
     * @param resource the resource
     * @param expected the tokens the caller found invalid
     * @return whether they were removed
     */
    boolean removeTokens(String resource, TokenSet expected);

    /**
     * Removes every token of a resource, from every issuer (logout).
     *
     * @param resource the resource
     * @return how many token sets were removed
     */
    int removeAllTokens(String resource);

    /**
     * Returns the client registration at an issuer.
     *
     * @param issuer the issuer
     * @return the registration, or empty
     */
    Optional<ClientRegistration> registration(String issuer);

    /**
     * Stores (replaces) the registration at {@link ClientRegistration#issuer()}.
     *
     * @param registration the registration
     */
    void saveRegistration(ClientRegistration registration);

    /**
     * Removes the registration at {@code expected.issuer()} if it still equals {@code expected}.
     *
     * @param expected the registration the caller found invalid
     * @return whether it was removed
     */
    boolean removeRegistration(ClientRegistration expected);

    /**
     * Replaces the tokens of a resource from {@code expected.issuer()} with {@code fresh} if the store still holds
     * exactly {@code expected} (compare-and-set), so a caller whose refresh lost a race never overwrites the
     * winner's tokens. {@code fresh} must be from the same issuer.
     *
     * <p>The default reads and then saves: it is atomic only against callers in one process that serialize through
     * the caller's own lock (as {@link McpOAuth} does per resource). {@link InMemoryTokenStore} and
     * {@link FileTokenStore} override it with one atomic step; a store shared between processes must.
     *
     * @param resource the resource
     * @param expected the tokens the caller holds
     * @param fresh    the tokens to store instead
     * @return whether they were replaced ({@code false}: the store holds other tokens or none; nothing changed)
     * @throws IllegalArgumentException if {@code fresh} is from another issuer than {@code expected}
     * @throws UncheckedIOException     if a persistent store cannot be read or written
     */
    default boolean replaceTokens(String resource, TokenSet expected, TokenSet fresh) {
        requireSameIssuer(expected, fresh);
        if (!tokens(resource, expected.issuer()).filter(expected::equals).isPresent()) {
            return false;
        }
        saveTokens(resource, fresh);
        return true;
    }

    /**
     * Replaces tokens as {@link #replaceTokens(String, TokenSet, TokenSet)} does, and only while {@code lease} is the
     * latest grant of its key (fencing): a holder whose lease has been granted to another holder since gets
     * {@code false} and stores nothing. A lease that expired but was granted to no one since still fences (the
     * tokens its holder obtained are not lost). The resource and issuer are the lease's.
     *
     * <p>The default (a store without leases, whose {@link #leaseRefresh} grants fence 0) ignores the fence.
     *
     * @param lease    the caller's lease
     * @param expected the tokens the caller holds
     * @param fresh    the tokens to store instead
     * @return whether they were replaced
     * @throws IllegalArgumentException if {@code expected} or {@code fresh} is from another issuer than the lease's
     * @throws UncheckedIOException     if a persistent store cannot be read or written
     */
    default boolean replaceTokens(RefreshLease lease, TokenSet expected, TokenSet fresh) {
        requireLeaseIssuer(lease, expected);
        return replaceTokens(lease.resource(), expected, fresh);
    }

    /**
     * Stores a registration unless the store already holds one at {@link ClientRegistration#issuer()} (put if
     * absent), and returns the one it holds afterwards: {@code registration} itself, or the one another caller (a
     * replica starting at the same time) stored first, which the caller should use instead of its own.
     *
     * <p>The default reads and then saves (not atomic between processes); {@link InMemoryTokenStore} and
     * {@link FileTokenStore} override it with one atomic step, as a shared store must.
     *
     * @param registration the registration the caller obtained
     * @return the registration the store holds at that issuer
     * @throws UncheckedIOException if a persistent store cannot be read or written
     */
    default ClientRegistration registerIfAbsent(ClientRegistration registration) {
        Objects.requireNonNull(registration, "registration");
        Optional<ClientRegistration> held = registration(registration.issuer());
        if (held.isPresent()) {
            return held.get();
        }
        saveRegistration(registration);
        return registration;
    }

    /**
     * Asks for the right to refresh the tokens of a resource from an issuer for {@code length}: granted when no other
     * holder's lease of the same key runs (one that expired is taken over), or when {@code holder} holds it already
     * (then it is extended and gets a new fence). Does not wait.
     *
     * <p>The default grants every request with fence {@code 0} (no exclusion beyond the caller's own lock): right
     * for a store used by one process. {@link InMemoryTokenStore} excludes between the {@link McpOAuth} instances
     * sharing it, {@link FileTokenStore} between the processes sharing its file; a store shared between machines (on a database: the time from the database, never a replica's
     * clock) must exclude between them.
     *
     * @param resource the resource
     * @param issuer   the issuer
     * @param holder   the caller's holder id (unique per holder)
     * @param length   how long the lease runs, positive
     * @return the lease, or empty while another holder's lease runs
     * @throws IllegalArgumentException if {@code length} is not positive
     * @throws UncheckedIOException     if a persistent store cannot be read or written
     */
    default Optional<RefreshLease> leaseRefresh(String resource, String issuer, String holder, Duration length) {
        requirePositive(length);
        return Optional.of(new RefreshLease(resource, issuer, holder, 0, Instant.now().plus(length)));
    }

    /**
     * Ends a lease early (its holder finished: refreshed, failed or gave up), so that a waiting holder is granted it
     * at once; nothing happens when the lease was granted to another holder since. The default does nothing.
     *
     * @param lease the lease
     * @return whether the lease was ended (the default: {@code true})
     * @throws UncheckedIOException if a persistent store cannot be read or written
     */
    default boolean releaseRefresh(RefreshLease lease) {
        Objects.requireNonNull(lease, "lease");
        return true;
    }

    /**
     * A view of this store for one principal (a user or tenant of a backend acting for several): its tokens and
     * leases are keyed by principal, resource and issuer, so two principals never see each other's tokens; client
     * registrations are per issuer and shared (they identify the application, not a user). Give each principal's
     * {@link McpOAuth} its view.
     *
     * <p>The default keeps a principal's tokens under the resource key {@code principal + " " + resource} of this
     * store (a resource URI never holds a space), so it works for every store; a store with a principal column
     * (the JDBC store) overrides it. The view of the empty principal is this store.
     *
     * @param principal the principal (an application's user or tenant id), not blank unless empty
     * @return the view; thread-safe as this store is
     * @throws IllegalArgumentException if {@code principal} contains a space or is blank but not empty
     */
    default TokenStore forPrincipal(String principal) {
        return PrincipalView.of(this, principal);
    }

    private static void requireSameIssuer(TokenSet expected, TokenSet fresh) {
        Objects.requireNonNull(expected, "expected");
        Objects.requireNonNull(fresh, "fresh");
        if (!expected.issuer().equals(fresh.issuer())) {
            throw new IllegalArgumentException("the fresh tokens are from another issuer than the expected ones");
        }
    }

    private static void requireLeaseIssuer(RefreshLease lease, TokenSet expected) {
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(expected, "expected");
        if (!lease.issuer().equals(expected.issuer())) {
            throw new IllegalArgumentException("the tokens are from another issuer than the lease's");
        }
    }

    private static void requirePositive(Duration length) {
        Objects.requireNonNull(length, "length");
        if (length.isNegative() || length.isZero()) {
            throw new IllegalArgumentException("the lease length must be positive, was " + length);
        }
    }
}
