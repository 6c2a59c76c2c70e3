package dev.loommcp.auth.internal;

import dev.loommcp.auth.ClientRegistration;
import dev.loommcp.auth.RefreshLease;
import dev.loommcp.auth.TokenSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The content of a token store: token sets per resource and issuer (per resource, the most recently saved first) and
 * client registrations per issuer. {@code InMemoryTokenStore} keeps one for its lifetime; the file store reads one
 * from its file for each operation and writes it back ({@link StoreFile}).
 *
 * <p>Thread-safe: each operation holds a lock (never across I/O: there is none) and is atomic. The {@code remove}
 * operations compare and delete: they remove only a value {@link Object#equals equal} to the given one.
 * {@link #toString()} shows counts only, never a token or secret.
 */
public final class StoreState {

    private final ReentrantLock lock = new ReentrantLock();
    /** Resource to its token sets, the most recently saved first; no empty lists. */
    private final Map<String, List<TokenSet>> tokens = new LinkedHashMap<>();
    private final Map<String, ClientRegistration> registrations = new LinkedHashMap<>();
    /** Refresh leases by {@link #leaseKey}: the latest grant of each key (kept after release for its fence). */
    private final Map<String, RefreshLease> leases = new LinkedHashMap<>();

    /** Creates an empty state. */
    public StoreState() {
    }

    /**
     * Returns the tokens of one resource from one issuer.
     *
     * @param resource the resource
     * @param issuer   the issuer
     * @return the tokens, or empty
     * @throws NullPointerException if an argument is {@code null}
     */
    public Optional<TokenSet> tokens(String resource, String issuer) {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(issuer, "issuer");
        return locked(() -> {
            for (TokenSet t : tokens.getOrDefault(resource, List.of())) {
                if (t.issuer().equals(issuer)) {
                    return Optional.of(t);
                }
            }
            return Optional.empty();
        });
    }

    /**
     * Returns the issuers holding tokens for a resource, the most recently saved first.
     *
     * @param resource the resource
     * @return an immutable list, possibly empty
     * @throws NullPointerException if {@code resource} is {@code null}
     */
    public List<String> issuers(String resource) {
        Objects.requireNonNull(resource, "resource");
        return locked(() -> tokens.getOrDefault(resource, List.of()).stream().map(TokenSet::issuer).toList());
    }

    /**
     * Stores the tokens of a resource (replacing those of the same issuer) as the most recently saved.
     *
     * @param resource the resource
     * @param set      the tokens
     * @throws NullPointerException if an argument is {@code null}
     */
    public void saveTokens(String resource, TokenSet set) {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(set, "tokens");
        locked(() -> {
            List<TokenSet> list = tokens.computeIfAbsent(resource, k -> new ArrayList<>());
            list.removeIf(t -> t.issuer().equals(set.issuer()));
            list.addFirst(set);
            return null;
        });
    }

    /**
     * Removes the tokens of a resource from {@code expected.issuer()} if they equal {@code expected}.
     *
     * @param resource the resource
     * @param expected the tokens the caller found invalid
     * @return whether they were removed
     * @throws NullPointerException if an argument is {@code null}
     */
    public boolean removeTokens(String resource, TokenSet expected) {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(expected, "expected");
        return locked(() -> {
            List<TokenSet> list = tokens.get(resource);
            if (list == null || !list.remove(expected)) {
                return false;
            }
            if (list.isEmpty()) {
                tokens.remove(resource);
            }
            return true;
        });
    }

    /**
     * Removes every token set of a resource.
     *
     * @param resource the resource
     * @return how many were removed
     * @throws NullPointerException if {@code resource} is {@code null}
     */
    public int removeAllTokens(String resource) {
        Objects.requireNonNull(resource, "resource");
        return locked(() -> {
            List<TokenSet> removed = tokens.remove(resource);
            return removed == null ? 0 : removed.size();
        });
    }

    /**
     * Returns the client registration at an issuer.
     *
     * @param issuer the issuer
     * @return the registration, or empty
     * @throws NullPointerException if {@code issuer} is {@code null}
     */
    public Optional<ClientRegistration> registration(String issuer) {
        Objects.requireNonNull(issuer, "issuer");
        return locked(() -> Optional.ofNullable(registrations.get(issuer)));
    }

    /**
     * Stores (replaces) the registration at {@link ClientRegistration#issuer()}.
     *
     * @param registration the registration
     * @throws NullPointerException if {@code registration} is {@code null}
     */
    public void saveRegistration(ClientRegistration registration) {
        Objects.requireNonNull(registration, "registration");
        locked(() -> {
            registrations.put(registration.issuer(), registration);
            return null;
        });
    }

    /**
     * Removes the registration at {@code expected.issuer()} if it equals {@code expected}.
     *
     * @param expected the registration the caller found invalid
     * @return whether it was removed
     * @throws NullPointerException if {@code expected} is {@code null}
     */
    public boolean removeRegistration(ClientRegistration expected) {
        Objects.requireNonNull(expected, "expected");
        return locked(() -> registrations.remove(expected.issuer(), expected));
    }

    /**
     * Replaces the tokens of a resource from {@code expected.issuer()} with {@code fresh} if the state holds exactly
     * {@code expected}, in one step.
     *
     * @param resource the resource
     * @param expected the tokens the caller holds
     * @param fresh    the tokens to store instead (same issuer)
     * @return whether they were replaced
     * @throws IllegalArgumentException if {@code fresh} is from another issuer
     * @throws NullPointerException     if an argument is {@code null}
     */
    public boolean replaceTokens(String resource, TokenSet expected, TokenSet fresh) {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(expected, "expected");
        Objects.requireNonNull(fresh, "fresh");
        if (!expected.issuer().equals(fresh.issuer())) {
            throw new IllegalArgumentException("the fresh tokens are from another issuer than the expected ones");
        }
        return locked(() -> {
            List<TokenSet> list = tokens.get(resource);
            if (list == null || !list.contains(expected)) {
                return false;
            }
            list.remove(expected);
            list.addFirst(fresh);
            return true;
        });
    }

    /**
     * Replaces tokens as {@link #replaceTokens(String, TokenSet, TokenSet)} does while {@code lease} is the latest
     * grant of its key.
     *
     * @param lease    the caller's lease
     * @param expected the tokens the caller holds
     * @param fresh    the tokens to store instead
     * @return whether they were replaced
     * @throws IllegalArgumentException if a token set is from another issuer than the lease's
     */
    public boolean replaceTokens(RefreshLease lease, TokenSet expected, TokenSet fresh) {
        Objects.requireNonNull(lease, "lease");
        if (!lease.issuer().equals(expected.issuer())) {
            throw new IllegalArgumentException("the tokens are from another issuer than the lease's");
        }
        return locked(() -> {
            RefreshLease latest = leases.get(leaseKey(lease.resource(), lease.issuer()));
            return latest != null && latest.fence() == lease.fence() && latest.holder().equals(lease.holder())
                    && !latest.until().equals(RELEASED) // a released lease no longer writes
                    && replaceTokens(lease.resource(), expected, fresh);
        });
    }

    /**
     * Grants the refresh lease of a resource and issuer unless another holder's runs (see
     * {@code TokenStore.leaseRefresh}); fences count from 1 per key.
     *
     * @param resource the resource
     * @param issuer   the issuer
     * @param holder   the holder
     * @param length   the length, positive
     * @return the lease, or empty
     * @throws IllegalArgumentException if {@code length} is not positive
     */
    public Optional<RefreshLease> leaseRefresh(String resource, String issuer, String holder, Duration length) {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(issuer, "issuer");
        checkLeaseRequest(holder, length);
        return locked(() -> {
            String key = leaseKey(resource, issuer);
            RefreshLease latest = leases.get(key);
            Instant now = Instant.now();
            if (latest != null && !latest.holder().equals(holder) && latest.until().isAfter(now)) {
                return Optional.empty();
            }
            RefreshLease granted = new RefreshLease(resource, issuer, holder, latest == null ? 1 : latest.fence() + 1,
                    now.plus(length));
            leases.put(key, granted);
            return Optional.of(granted);
        });
    }

    /**
     * Ends a lease early if it is the latest grant of its key (it keeps its fence, expired).
     *
     * @param lease the lease
     * @return whether it was ended
     */
    public boolean releaseRefresh(RefreshLease lease) {
        Objects.requireNonNull(lease, "lease");
        return locked(() -> {
            String key = leaseKey(lease.resource(), lease.issuer());
            RefreshLease latest = leases.get(key);
            if (latest == null || latest.fence() != lease.fence() || !latest.holder().equals(lease.holder())
                    || latest.until().equals(RELEASED)) {
                return false; // granted to another since, or released already
            }
            leases.put(key, new RefreshLease(lease.resource(), lease.issuer(), lease.holder(), lease.fence(),
                    RELEASED));
            return true;
        });
    }

    /**
     * Checks a lease request's holder and length (a caller's mistake, never the store's).
     *
     * @throws IllegalArgumentException if the holder is blank or the length not positive or over a year
     */
    public static void checkLeaseRequest(String holder, Duration length) {
        Objects.requireNonNull(holder, "holder");
        Objects.requireNonNull(length, "length");
        if (holder.isBlank()) {
            throw new IllegalArgumentException("the lease holder must not be blank");
        }
        if (length.isNegative() || length.isZero()) {
            throw new IllegalArgumentException("the lease length must be positive, was " + length);
        }
        if (length.compareTo(MAX_LEASE) > 0) {
            throw new IllegalArgumentException("the lease length must be at most " + MAX_LEASE + ", was " + length);
        }
    }

    /** The end a released lease keeps (with its fence): it neither runs nor writes. */
    private static final Instant RELEASED = Instant.EPOCH;
    /** The longest lease (a lease is renewed while its holder lives; a year is far beyond any use). */
    private static final Duration MAX_LEASE = Duration.ofDays(366);

    private static String leaseKey(String resource, String issuer) {
        return resource.length() + ":" + resource + issuer;
    }

    /**
     * Stores a registration unless one is held at its issuer; returns the one held afterwards.
     *
     * @param registration the registration
     * @return the registration held at its issuer
     * @throws NullPointerException if {@code registration} is {@code null}
     */
    public ClientRegistration registerIfAbsent(ClientRegistration registration) {
        Objects.requireNonNull(registration, "registration");
        return locked(() -> registrations.computeIfAbsent(registration.issuer(), k -> registration));
    }

    /** A copy of the token sets per resource (lists most recent first), in the order resources were first saved. */
    Map<String, List<TokenSet>> allTokens() {
        return locked(() -> {
            Map<String, List<TokenSet>> copy = new LinkedHashMap<>();
            tokens.forEach((r, l) -> copy.put(r, List.copyOf(l)));
            return copy;
        });
    }

    /** A copy of the refresh leases (the latest grant of each key, ended ones too: they keep the fence). */
    List<RefreshLease> allLeases() {
        return locked(() -> List.copyOf(leases.values()));
    }

    /** Adds a lease read from a file. */
    void putLease(RefreshLease lease) {
        locked(() -> leases.put(leaseKey(lease.resource(), lease.issuer()), lease));
    }

    /** A copy of the registrations, in the order they were first saved. */
    List<ClientRegistration> allRegistrations() {
        return locked(() -> List.copyOf(registrations.values()));
    }

    /** Adds a token set read from a file after those of its resource already read (file order: most recent first). */
    void appendTokens(String resource, TokenSet set) {
        locked(() -> {
            tokens.computeIfAbsent(resource, k -> new ArrayList<>()).addLast(set);
            return null;
        });
    }

    private <T> T locked(Supplier<T> op) {
        lock.lock();
        try {
            return op.get();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return locked(() -> "StoreState[resources=" + tokens.size() + ", tokenSets="
                + tokens.values().stream().mapToInt(List::size).sum() + ", registrations=" + registrations.size() + "]");
    }
}
