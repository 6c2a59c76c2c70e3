package dev.loommcp.auth.internal;

import dev.loommcp.auth.ClientRegistration;
import dev.loommcp.auth.TokenSet;
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

    /** A copy of the token sets per resource (lists most recent first), in the order resources were first saved. */
    Map<String, List<TokenSet>> allTokens() {
        return locked(() -> {
            Map<String, List<TokenSet>> copy = new LinkedHashMap<>();
            tokens.forEach((r, l) -> copy.put(r, List.copyOf(l)));
            return copy;
        });
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
