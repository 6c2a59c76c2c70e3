package dev.loommcp.auth;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** A plain thread-safe token store for the flow tests (counts writes); the real stores have their own tests. */
final class MapStore implements TokenStore {

    private final Map<String, LinkedHashMap<String, TokenSet>> tokens = new ConcurrentHashMap<>();
    private final Map<String, ClientRegistration> registrations = new ConcurrentHashMap<>();
    final AtomicInteger saves = new AtomicInteger();
    final AtomicInteger removes = new AtomicInteger();

    @Override
    public synchronized Optional<TokenSet> tokens(String resource, String issuer) {
        Map<String, TokenSet> m = tokens.get(resource);
        return Optional.ofNullable(m == null ? null : m.get(issuer));
    }

    @Override
    public synchronized List<String> issuers(String resource) {
        Map<String, TokenSet> m = tokens.get(resource);
        if (m == null) {
            return List.of();
        }
        List<String> l = new ArrayList<>(m.keySet());
        java.util.Collections.reverse(l);
        return l;
    }

    @Override
    public synchronized void saveTokens(String resource, TokenSet t) {
        saves.incrementAndGet();
        LinkedHashMap<String, TokenSet> m = tokens.computeIfAbsent(resource, k -> new LinkedHashMap<>());
        m.remove(t.issuer());
        m.put(t.issuer(), t);
    }

    @Override
    public synchronized boolean removeTokens(String resource, TokenSet expected) {
        Map<String, TokenSet> m = tokens.get(resource);
        if (m != null && expected.equals(m.get(expected.issuer()))) {
            m.remove(expected.issuer());
            removes.incrementAndGet();
            return true;
        }
        return false;
    }

    @Override
    public synchronized int removeAllTokens(String resource) {
        Map<String, TokenSet> m = tokens.remove(resource);
        return m == null ? 0 : m.size();
    }

    @Override
    public Optional<ClientRegistration> registration(String issuer) {
        return Optional.ofNullable(registrations.get(issuer));
    }

    @Override
    public void saveRegistration(ClientRegistration r) {
        registrations.put(r.issuer(), r);
    }

    @Override
    public boolean removeRegistration(ClientRegistration expected) {
        return registrations.remove(expected.issuer(), expected);
    }
}
