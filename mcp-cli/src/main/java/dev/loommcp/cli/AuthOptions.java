package dev.loommcp.cli;

import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The authorization options of the HTTP commands (a picocli mixin of {@link McpCommand}; like every connection option
 * they may come before or after the command name): {@code --oauth}, {@code --client-credentials}, {@code --client-id},
 * {@code --client-secret-file} and {@code --token-cache}. {@link CliAuth} turns them into an OAuth provider. The
 * secret is read from a file only, never from the command line (which other users may see), and never printed.
 *
 * <p>Not thread-safe: one instance serves one command line.
 */
final class AuthOptions {

    @Spec(Spec.Target.MIXEE)
    private CommandSpec spec;

    private boolean oauth;
    private boolean clientCredentials;
    private String clientId;
    private Path clientSecretFile;
    private Path tokenCache;

    @Option(names = "--oauth", scope = ScopeType.INHERIT, order = 20,
            description = {"With --http: authorize with OAuth 2.1 when the server asks (MCP authorization): the "
                    + "authorization code grant with PKCE through a one-shot receiver on 127.0.0.1. mcp prints the "
                    + "URL to open in a browser on stderr and waits for the redirect (bounded by --connect-timeout, "
                    + "whose default is then 5m, and by --timeout later). The client is registered dynamically "
                    + "unless --client-id is given."})
    private void oauth(boolean value) {
        oauth = value;
    }

    @Option(names = "--client-credentials", scope = ScopeType.INHERIT, order = 21,
            description = {"With --http: authorize with the OAuth client-credentials grant (no user) as the client "
                    + "--client-id with the secret in --client-secret-file."})
    private void clientCredentials(boolean value) {
        clientCredentials = value;
    }

    @Option(names = "--client-id", paramLabel = "ID", scope = ScopeType.INHERIT, order = 22,
            description = "With --oauth or --client-credentials: the pre-registered OAuth client ID.")
    private void clientId(String id) {
        clientId = once("--client-id", clientId, nonEmpty("--client-id", id));
    }

    @Option(names = "--client-secret-file", paramLabel = "FILE", scope = ScopeType.INHERIT, order = 23,
            description = {"With --client-id: read the client secret from this file (surrounding whitespace "
                    + "removed; never printed)."})
    private void clientSecretFile(Path file) {
        clientSecretFile = once("--client-secret-file", clientSecretFile, nonEmpty("--client-secret-file", file));
    }

    @Option(names = "--token-cache", paramLabel = "DIR", scope = ScopeType.INHERIT, order = 24,
            description = {"With --oauth or --client-credentials: keep tokens and client registrations in this "
                    + "directory (created owner-only), so that later runs reuse them; mcp logout removes the "
                    + "tokens. Default: in memory, for this run only."})
    private void tokenCache(Path dir) {
        tokenCache = once("--token-cache", tokenCache, nonEmpty("--token-cache", dir));
    }

    /** Created by picocli. */
    AuthOptions() {
    }

    /** @return whether {@code --oauth} was given */
    boolean oauth() {
        return oauth;
    }

    /** @return whether {@code --client-credentials} was given */
    boolean clientCredentials() {
        return clientCredentials;
    }

    /** @return {@code --client-id}, or {@code null} */
    String clientId() {
        return clientId;
    }

    /** @return {@code --client-secret-file}, or {@code null} */
    Path clientSecretFile() {
        return clientSecretFile;
    }

    /** @return {@code --token-cache}, or {@code null} */
    Path tokenCache() {
        return tokenCache;
    }

    /** @return whether any authorization option was given */
    boolean any() {
        return oauth || clientCredentials || clientId != null || clientSecretFile != null || tokenCache != null;
    }

    /** An empty value (a path of {@code ''} would mean the current directory) is a usage error. */
    private <T> T nonEmpty(String option, T value) {
        if (value.toString().isBlank()) {
            throw new ParameterException(spec.commandLine(), option + ": the value is empty");
        }
        return value;
    }

    private <T> T once(String option, T current, T value) {
        if (current != null) {
            throw new ParameterException(spec.commandLine(), option + " given twice");
        }
        return value;
    }
}
