package dev.loommcp.auth.internal;

import dev.loommcp.spi.Deadline;
import java.io.IOException;
import java.net.URI;
import java.util.function.Consumer;

/** The loopback redirect receiver behind {@code LoopbackReceiver}. (Skeleton: to be built.) */
public final class Loopback {

    public static Loopback open(Consumer<URI> openUrl) throws IOException {
        throw new UnsupportedOperationException("not built yet");
    }

    public URI redirectUri() {
        throw new UnsupportedOperationException("not built yet");
    }

    public URI authorize(URI authorizationUrl, String state, Deadline deadline)
            throws IOException, InterruptedException {
        throw new UnsupportedOperationException("not built yet");
    }

    public void close() {
    }
}
