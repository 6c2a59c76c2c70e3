package dev.loommcp.auth;

import java.util.List;
import java.util.Optional;

/**
 * A {@link TokenStore} in memory, for one process: the default of {@link McpOAuth}. Thread-safe.
 */
public final class InMemoryTokenStore implements TokenStore {

    private final dev.loommcp.auth.internal.StoreState state = new dev.loommcp.auth.internal.StoreState();

    /** Creates an empty store. */
    public InMemoryTokenStore() {
    }

    @Override
    public Optional<TokenSet> tokens(String resource, String issuer) {
        return state.tokens(resource, issuer);
    }

    @Override
    public List<String> issuers(String resource) {
        return state.issuers(resource);
    }

    @Override
    public void saveTokens(String resource, TokenSet tokens) {
        state.saveTokens(resource, tokens);
    }

    @Override
    public boolean removeTokens(String resource, TokenSet expected) {
        return state.removeTokens(resource, expected);
    }

    @Override
    public int removeAllTokens(String resource) {
        return state.removeAllTokens(resource);
    }

    @Override
    public Optional<ClientRegistration> registration(String issuer) {
        return state.registration(issuer);
    }

    @Override
    public void saveRegistration(ClientRegistration registration) {
        state.saveRegistration(registration);
    }

    @Override
    public boolean removeRegistration(ClientRegistration expected) {
        return state.removeRegistration(expected);
    }

    /**
     * {@inheritDoc}
     *
     * <p>In one atomic step.
     */
    @Override
    public boolean replaceTokens(String resource, TokenSet expected, TokenSet fresh) {
        return state.replaceTokens(resource, expected, fresh);
    }

    /**
     * {@inheritDoc}
     *
     * <p>In one atomic step.
     */
    @Override
    public ClientRegistration registerIfAbsent(ClientRegistration registration) {
        return state.registerIfAbsent(registration);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Excludes the {@link McpOAuth} instances sharing this store (in this process); fences count from 1 per key.
     */
    @Override
    public Optional<RefreshLease> leaseRefresh(String resource, String issuer, String holder,
                                               java.time.Duration length) {
        return state.leaseRefresh(resource, issuer, holder, length);
    }

    @Override
    public boolean releaseRefresh(RefreshLease lease) {
        return state.releaseRefresh(lease);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Checks the fence in the same atomic step.
     */
    @Override
    public boolean replaceTokens(RefreshLease lease, TokenSet expected, TokenSet fresh) {
        return state.replaceTokens(lease, expected, fresh);
    }

    @Override
    public String toString() {
        return "InMemoryTokenStore";
    }
}
