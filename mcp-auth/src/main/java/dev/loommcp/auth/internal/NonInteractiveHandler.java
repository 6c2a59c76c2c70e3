package dev.loommcp.auth.internal;

import dev.loommcp.auth.AuthorizationCodeHandler;
import java.net.URI;

/** {@link AuthorizationCodeHandler#nonInteractive}. (Skeleton: to be built.) */
public final class NonInteractiveHandler {

    private NonInteractiveHandler() {
    }

    public static AuthorizationCodeHandler create(URI redirectUri) {
        throw new UnsupportedOperationException("not built yet");
    }
}
