package dev.loommcp.auth;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The default {@link TokenStore#forPrincipal} view: the principal's tokens and leases under the resource key
 * {@code principal + " " + resource} of the underlying store, registrations shared. Thread-safe as the underlying
 * store is.
 */
final class PrincipalView implements TokenStore {

    private final TokenStore base;
    private final String principal;
    private final String prefix;

    private PrincipalView(TokenStore base, String principal) {
        this.base = base;
        this.principal = principal;
        this.prefix = principal + " ";
    }

    static TokenStore of(TokenStore store, String principal) {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(principal, "principal");
        TokenStore base = store instanceof PrincipalView v ? v.base : store;
        if (principal.isEmpty()) {
            return base;
        }
        if (principal.isBlank() || principal.indexOf(' ') >= 0) {
            throw new IllegalArgumentException("a principal must not be blank or contain a space");
        }
        return new PrincipalView(base, principal);
    }

    private String key(String resource) {
        return prefix + Objects.requireNonNull(resource, "resource");
    }

    private RefreshLease outer(RefreshLease l) {
        return new RefreshLease(l.resource().substring(prefix.length()), l.issuer(), l.holder(), l.fence(), l.until());
    }

    private RefreshLease inner(RefreshLease l) {
        return new RefreshLease(key(l.resource()), l.issuer(), l.holder(), l.fence(), l.until());
    }

    @Override
    public Optional<TokenSet> tokens(String resource, String issuer) {
        return base.tokens(key(resource), issuer);
    }

    @Override
    public List<String> issuers(String resource) {
        return base.issuers(key(resource));
    }

    @Override
    public void saveTokens(String resource, TokenSet tokens) {
        base.saveTokens(key(resource), tokens);
    }

    @Override
    public boolean removeTokens(String resource, TokenSet expected) {
        return base.removeTokens(key(resource), expected);
    }

    @Override
    public int removeAllTokens(String resource) {
        return base.removeAllTokens(key(resource));
    }

    @Override
    public boolean replaceTokens(String resource, TokenSet expected, TokenSet fresh) {
        return base.replaceTokens(key(resource), expected, fresh);
    }

    @Override
    public boolean replaceTokens(RefreshLease lease, TokenSet expected, TokenSet fresh) {
        return base.replaceTokens(inner(lease), expected, fresh);
    }

    @Override
    public Optional<RefreshLease> leaseRefresh(String resource, String issuer, String holder, Duration length) {
        return base.leaseRefresh(key(resource), issuer, holder, length).map(this::outer);
    }

    @Override
    public boolean releaseRefresh(RefreshLease lease) {
        return base.releaseRefresh(inner(lease));
    }

    @Override
    public Optional<ClientRegistration> registration(String issuer) {
        return base.registration(issuer);
    }

    @Override
    public void saveRegistration(ClientRegistration registration) {
        base.saveRegistration(registration);
    }

    @Override
    public ClientRegistration registerIfAbsent(ClientRegistration registration) {
        return base.registerIfAbsent(registration);
    }

    @Override
    public boolean removeRegistration(ClientRegistration expected) {
        return base.removeRegistration(expected);
    }

    @Override
    public String toString() {
        return base + "[principal " + principal + "]";
    }
}
