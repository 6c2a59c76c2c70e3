package dev.loommcp.auth.internal;

import dev.loommcp.auth.ClientRegistration;
import dev.loommcp.auth.TokenSet;
import java.util.List;
import java.util.Optional;

/** The file token store behind {@code FileTokenStore}. (Skeleton: to be built.) */
public final class FileStore {

    public static FileStore open(java.nio.file.Path directory) throws java.io.IOException {
        throw new UnsupportedOperationException("not built yet");
    }

    public java.nio.file.Path file() {
        throw new UnsupportedOperationException("not built yet");
    }

    public Optional<TokenSet> tokens(String resource, String issuer) {
        throw new UnsupportedOperationException("not built yet");
    }

    public List<String> issuers(String resource) {
        throw new UnsupportedOperationException("not built yet");
    }

    public void saveTokens(String resource, TokenSet tokens) {
        throw new UnsupportedOperationException("not built yet");
    }

    public boolean removeTokens(String resource, TokenSet expected) {
        throw new UnsupportedOperationException("not built yet");
    }

    public int removeAllTokens(String resource) {
        throw new UnsupportedOperationException("not built yet");
    }

    public Optional<ClientRegistration> registration(String issuer) {
        throw new UnsupportedOperationException("not built yet");
    }

    public void saveRegistration(ClientRegistration registration) {
        throw new UnsupportedOperationException("not built yet");
    }

    public boolean removeRegistration(ClientRegistration expected) {
        throw new UnsupportedOperationException("not built yet");
    }
}
