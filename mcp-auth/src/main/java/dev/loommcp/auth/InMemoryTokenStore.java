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

    @Override
    public String toString() {
        return "InMemoryTokenStore";
    }
}
