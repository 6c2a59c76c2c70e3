package dev.loommcp.auth;

import dev.loommcp.Deadline;
import java.io.IOException;
import java.net.URI;
import java.util.function.Consumer;

/**
 * An {@link AuthorizationCodeHandler} for desktop and CLI use (RFC 8252 section 7.3): listens on
 * {@code http://127.0.0.1:<random port>/callback}, bound to the IPv4 literal {@code 127.0.0.1} it advertises (also in
 * a JVM that prefers IPv6, whose loopback address would be {@code ::1}), hands the authorization URL to a callback
 * (which opens a browser or prints it), and takes the first redirect that carries the expected {@code state} (others
 * get a 400 page and are ignored). Several authorizations may run at once, each with its own {@code state} (one
 * {@link McpOAuth} authorizing two servers together: both URLs are handed to the callback, and each redirect
 * completes its own authorization, in whatever order the user finishes them); each waits within its own deadline.
 * The HTTP server runs for the receiver's life on daemon threads; {@link #close()} stops it.
 *
 * <p>Connections are served concurrently (at most 8 at once; with all taken a new one replaces the oldest), and each
 * must send its request head within 10 seconds or is closed: a local program that connects and sends half a request
 * cannot keep the browser's redirect from being handled.
 *
 * <p>Thread-safe.
 */
public final class LoopbackReceiver implements AuthorizationCodeHandler, AutoCloseable {

    private final dev.loommcp.auth.internal.Loopback impl;

    private LoopbackReceiver(dev.loommcp.auth.internal.Loopback impl) {
        this.impl = impl;
    }

    /**
     * Opens a receiver on a random free port of 127.0.0.1.
     *
     * @param openUrl called with each authorization URL (show it to the user, or open a browser); must not block
     *                long; may be called from several threads at once (one per authorization running)
     * @return the receiver, listening
     * @throws IOException          if no port could be bound
     * @throws NullPointerException if {@code openUrl} is {@code null}
     */
    public static LoopbackReceiver open(Consumer<URI> openUrl) throws IOException {
        return new LoopbackReceiver(dev.loommcp.auth.internal.Loopback.open(openUrl));
    }

    /** {@inheritDoc} Here {@code http://127.0.0.1:<port>/callback}. */
    @Override
    public URI redirectUri() {
        return impl.redirectUri();
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalStateException if the receiver is closed, or an authorization with the same {@code state} is
     *                               running on it (states are random: only a caller reusing one gets this)
     */
    @Override
    public URI authorize(URI authorizationUrl, String state, Deadline deadline)
            throws IOException, InterruptedException {
        return impl.authorize(authorizationUrl, state, deadline);
    }

    /** Stops the HTTP server; every running {@link #authorize} fails. Idempotent. */
    @Override
    public void close() {
        impl.close();
    }

    @Override
    public String toString() {
        return "LoopbackReceiver[" + impl.redirectUri() + "]";
    }
}
