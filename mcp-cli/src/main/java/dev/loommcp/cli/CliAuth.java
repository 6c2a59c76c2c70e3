package dev.loommcp.cli;

import dev.loommcp.McpTimeoutException;
import dev.loommcp.Deadline;
import dev.loommcp.auth.AuthorizationCodeHandler;
import dev.loommcp.auth.ClientAuthentication;
import dev.loommcp.auth.FileTokenStore;
import dev.loommcp.auth.LoopbackReceiver;
import dev.loommcp.auth.McpAuthorizationException;
import dev.loommcp.auth.McpOAuth;
import dev.loommcp.transport.http.AuthorizationProvider;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * The OAuth provider the {@link AuthOptions} describe, for one command: an {@link McpOAuth} (public API of
 * {@code dev.loommcp.auth}) with the authorization-code grant through a {@link LoopbackReceiver} ({@code --oauth}) or
 * the client-credentials grant ({@code --client-credentials}), a pre-registered client ({@code --client-id},
 * {@code --client-secret-file}) and a {@link FileTokenStore} ({@code --token-cache}). {@link #close()} stops the
 * receiver and the provider's HTTP client. Also {@code mcp logout} ({@link #logout}).
 *
 * <p>Not thread-safe to create; the provider itself is thread-safe.
 */
final class CliAuth implements AutoCloseable {

    /**
     * The default of {@code --connect-timeout} with {@code --oauth}: the handshake's first request may wait for the
     * user to approve in a browser.
     */
    static final Duration OAUTH_CONNECT_TIMEOUT = Duration.ofMinutes(5);

    /** The {@code client_name} sent in dynamic registration. */
    static final String CLIENT_NAME = "loom-mcp-cli";

    private final McpOAuth oauth;
    private final LoopbackReceiver receiver;
    /** Set while (and after, if it failed) the grant waits for the browser's redirect; cleared when it arrives. */
    private final AtomicBoolean awaitingBrowser;

    private CliAuth(McpOAuth oauth, LoopbackReceiver receiver) {
        this(oauth, receiver, new AtomicBoolean());
    }

    private CliAuth(McpOAuth oauth, LoopbackReceiver receiver, AtomicBoolean awaitingBrowser) {
        this.oauth = oauth;
        this.receiver = receiver;
        this.awaitingBrowser = awaitingBrowser;
    }

    /**
     * Builds the provider the options ask for.
     *
     * @param options     the options
     * @param commandLine for usage errors
     * @param err         where {@code --oauth} prints the URL to open
     * @return the provider, or {@code null} when no authorization option was given
     * @throws ParameterException for options that do not belong together, an unreadable or empty secret file (never
     *                            quoting it) or an unusable token cache directory
     */
    static CliAuth open(AuthOptions options, CommandLine commandLine, PrintWriter err) {
        if (!options.any()) {
            return null;
        }
        if (options.oauth() && options.clientCredentials()) {
            throw usage(commandLine, "give either --oauth or --client-credentials, not both");
        }
        if (!options.oauth() && !options.clientCredentials()) {
            throw usage(commandLine, "--client-id, --client-secret-file and --token-cache need --oauth or "
                    + "--client-credentials");
        }
        if (options.clientSecretFile() != null && options.clientId() == null) {
            throw usage(commandLine, "--client-secret-file needs --client-id");
        }
        if (options.clientCredentials() && (options.clientId() == null || options.clientSecretFile() == null)) {
            throw usage(commandLine, "--client-credentials needs --client-id and --client-secret-file");
        }
        McpOAuth.Builder b = McpOAuth.newBuilder().clientName(CLIENT_NAME);
        if (options.clientId() != null) {
            b.client(options.clientId(), options.clientSecretFile() == null ? ClientAuthentication.none()
                    : ClientAuthentication.clientSecret(readSecret(options.clientSecretFile(), commandLine)));
        }
        if (options.tokenCache() != null) {
            b.tokenStore(tokenStore(options.tokenCache(), commandLine));
        }
        if (options.clientCredentials()) {
            return new CliAuth(b.clientCredentials().build(), null);
        }
        LoopbackReceiver receiver;
        try {
            receiver = LoopbackReceiver.open(url -> {
                err.println("mcp: the server asks for authorization; open this URL in a browser: " + url);
                err.flush();
            });
        } catch (IOException e) {
            throw usage(commandLine, "--oauth: cannot listen on 127.0.0.1 for the authorization redirect: "
                    + e.getMessage());
        }
        try {
            AtomicBoolean awaiting = new AtomicBoolean();
            AuthorizationCodeHandler watched = new AuthorizationCodeHandler() {
                @Override
                public URI redirectUri() {
                    return receiver.redirectUri();
                }

                @Override
                public URI authorize(URI url, String state, Deadline deadline)
                        throws IOException, InterruptedException {
                    awaiting.set(true);
                    try {
                        URI redirect = receiver.authorize(url, state, deadline);
                        awaiting.set(false);
                        return redirect;
                    } catch (IOException | RuntimeException e) {
                        // the receiver's own deadline (McpAuthorizationException) keeps the mark: the wait timed out
                        awaiting.set(e instanceof McpAuthorizationException);
                        throw e;
                    }
                }
            };
            return new CliAuth(b.authorizationCode(watched).build(), receiver, awaiting);
        } catch (RuntimeException e) {
            receiver.close();
            throw e;
        }
    }

    /**
     * {@code mcp logout}: removes the tokens of a server from a token cache (client registrations stay).
     *
     * @param server      the MCP endpoint
     * @param tokenCache  the {@code --token-cache} directory
     * @param commandLine for usage errors
     * @return how many token sets were removed, or {@code -1} when {@code tokenCache} does not exist (nothing is
     *         created then)
     * @throws ParameterException when the directory cannot be used as a token cache
     */
    static int logout(URI server, Path tokenCache, CommandLine commandLine) {
        if (!Files.exists(tokenCache)) {
            return -1; // nothing stored; logout creates nothing
        }
        FileTokenStore store = tokenStore(tokenCache, commandLine);
        // the grant is never run: the provider only forgets tokens here (its redirect URI is never contacted)
        try (McpOAuth oauth = McpOAuth.newBuilder().tokenStore(store)
                .authorizationCode(AuthorizationCodeHandler.nonInteractive(URI.create("http://127.0.0.1/callback")))
                .build()) {
            return oauth.logout(server);
        }
    }

    /**
     * What a failure of the connection means when it happened while {@code --oauth} waited for the browser's
     * redirect: the connect deadline ran out during the wait, whichever of the request's timeout or the receiver's
     * own deadline noticed first. Then this is a timeout naming the wait; otherwise the failure itself.
     *
     * @param failure what failed
     * @return {@code failure}, or an {@link McpTimeoutException} saying the authorization in the browser was not
     *         completed in time
     */
    RuntimeException explain(RuntimeException failure) {
        if (receiver == null || !awaitingBrowser.get()) {
            return failure;
        }
        return new McpTimeoutException("waiting for the authorization in the browser (no redirect reached "
                + receiver.redirectUri() + ")");
    }

    /** @return the provider, for the transport */
    AuthorizationProvider provider() {
        return oauth;
    }

    /** Stops the loopback receiver and the provider's HTTP client; tokens stay in the store. Idempotent. */
    @Override
    public void close() {
        try {
            oauth.close();
        } finally {
            if (receiver != null) {
                receiver.close();
            }
        }
    }

    private static FileTokenStore tokenStore(Path dir, CommandLine commandLine) {
        try {
            return FileTokenStore.open(dir);
        } catch (IOException | RuntimeException e) {
            throw usage(commandLine, "--token-cache " + dir + ": " + e.getMessage());
        }
    }

    /** Reads the secret; messages name the file, never its content. */
    private static String readSecret(Path file, CommandLine commandLine) {
        String secret;
        try {
            secret = Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (MalformedInputException e) {
            throw usage(commandLine, "--client-secret-file " + file + ": not UTF-8 text");
        } catch (IOException e) {
            throw usage(commandLine, "--client-secret-file " + file + ": cannot read it ("
                    + e.getClass().getSimpleName() + ")");
        }
        if (secret.isEmpty()) {
            throw usage(commandLine, "--client-secret-file " + file + " is empty");
        }
        return secret;
    }

    private static ParameterException usage(CommandLine commandLine, String message) {
        return new ParameterException(commandLine, message);
    }
}
