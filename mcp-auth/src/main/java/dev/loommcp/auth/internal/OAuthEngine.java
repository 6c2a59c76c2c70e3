package dev.loommcp.auth.internal;

import dev.loommcp.auth.TokenStore;
import dev.loommcp.transport.http.AuthorizationFailure;
import dev.loommcp.transport.http.AuthorizationRequest;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.util.Map;

/** The logic behind {@code McpOAuth}. Thread-safe. (Skeleton: to be built.) */
public final class OAuthEngine {

    private final OAuthConfig config;

    public OAuthEngine(OAuthConfig config) {
        this.config = config;
    }

    public Map<String, String> credentials(AuthorizationRequest request) throws InterruptedException {
        throw new UnsupportedOperationException("not built yet");
    }

    public boolean onChallenge(AuthorizationRequest request, AuthorizationFailure failure)
            throws InterruptedException {
        throw new UnsupportedOperationException("not built yet");
    }

    public void onResponse(AuthorizationRequest request, int status, HttpHeaders headers) {
    }

    public int logout(URI server) {
        throw new UnsupportedOperationException("not built yet");
    }

    public TokenStore tokenStore() {
        return config.tokenStore();
    }

    public void close() {
    }

    @Override
    public String toString() {
        return "[grant=" + config.grant() + "]";
    }
}
