package dev.loommcp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.cli.InProcessCli.Run;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.it.servers.HttpOAuthFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The authorization options ({@code --oauth}, {@code --client-credentials}, {@code --client-id},
 * {@code --client-secret-file}, {@code --token-cache}) and {@code mcp logout}, through the real command line in this
 * JVM: combinations that do not belong together are usage errors naming the options, before anything connects; a
 * secret file's content is never printed. (The flows themselves: {@code CliOAuthIT}, against an OAuth-protected
 * server.)
 */
@ExtendWith(LeakCheck.class)
class CliAuthOptionsTest {

    private static final String URL = "http://127.0.0.1:9/mcp";

    private static Run mcp(String... args) {
        return InProcessCli.run(Map.<String, String>of()::get, args);
    }

    private static void assertUsageError(Run r, String message) {
        assertThat(r.code()).as(r.err()).isEqualTo(2);
        assertThat(r.err().lines().toList()).as(r.err())
                .containsExactly("mcp: " + message, "Try 'mcp --help' for more information.");
    }

    @Test
    void optionsThatDoNotBelongTogetherAreUsageErrors(@TempDir Path dir) throws Exception {
        Path secret = Files.writeString(dir.resolve("secret"), "s3cr3t-value\n");
        assertUsageError(mcp("--stdio", "true", "--oauth", "tools"), "--oauth, --client-credentials, --client-id, "
                + "--client-secret-file and --token-cache apply to --http only");
        assertUsageError(mcp("--http", URL, "--oauth", "--client-credentials", "tools"),
                "give either --oauth or --client-credentials, not both");
        assertUsageError(mcp("--http", URL, "--client-id", "c", "tools"),
                "--client-id, --client-secret-file and --token-cache need --oauth or --client-credentials");
        assertUsageError(mcp("--http", URL, "--token-cache", dir.toString(), "tools"),
                "--client-id, --client-secret-file and --token-cache need --oauth or --client-credentials");
        assertUsageError(mcp("--http", URL, "--oauth", "--client-secret-file", secret.toString(), "tools"),
                "--client-secret-file needs --client-id");
        assertUsageError(mcp("--http", URL, "--client-credentials", "--client-id", "c", "tools"),
                "--client-credentials needs --client-id and --client-secret-file");
        // before and after the command name alike
        assertUsageError(mcp("--http", URL, "--client-id", "a", "tools", "--client-id", "b"),
                "--client-id given twice");
    }

    @Test
    void anUnusableSecretFileIsNamedButNeverQuoted(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("missing");
        assertUsageError(mcp("--http", URL, "--client-credentials", "--client-id", "c", "--client-secret-file",
                missing.toString(), "tools"), "--client-secret-file " + missing + ": cannot read it "
                + "(NoSuchFileException)");
        Path blank = Files.writeString(dir.resolve("blank"), " \n");
        assertUsageError(mcp("--http", URL, "--client-credentials", "--client-id", "c", "--client-secret-file",
                blank.toString(), "tools"), "--client-secret-file " + blank + " is empty");
        Path binary = Files.write(dir.resolve("binary"), new byte[] {'s', (byte) 0xff, (byte) 0xfe, 'x'});
        Run r = mcp("--http", URL, "--client-credentials", "--client-id", "c", "--client-secret-file",
                binary.toString(), "tools");
        assertUsageError(r, "--client-secret-file " + binary + ": not UTF-8 text");
    }

    @Test
    void aTokenCacheThatIsNotADirectoryIsAUsageError(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("file"), "x");
        Run r = mcp("--http", URL, "--oauth", "--token-cache", file.toString(), "tools");
        assertThat(r.code()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).startsWith("mcp: --token-cache " + file + ": ");
    }

    @Test
    void aClientCredentialsFailureNeverPrintsTheSecret(@TempDir Path dir) throws Exception {
        Path secret = Files.writeString(dir.resolve("secret"), "s3cr3t-value\n");
        // nothing listens on port 9: the connection fails before any authorization
        Run r = mcp("--http", URL, "--client-credentials", "--client-id", "c", "--client-secret-file",
                secret.toString(), "--connect-timeout", "5s", "tools");
        assertThat(r.code()).as(r.err()).isEqualTo(3);
        assertThat(r.out() + r.err()).doesNotContain("s3cr3t-value");
    }

    /**
     * Regression: the connect deadline ends the wait for the browser either in the request (a timeout of
     * {@code server/discover}) or in the loopback receiver (an authorization failure, exit 3), whichever notices
     * first; both are the same timeout of the browser wait and exit 5 naming --connect-timeout.
     */
    @Test
    void anAuthorizationNotCompletedInTheBrowserIsATimeoutNamingConnectTimeout() throws Exception {
        try (HttpOAuthFixture fixture = new HttpOAuthFixture()) {
            for (int i = 0; i < 3; i++) {
                Run r = mcp("--http", fixture.endpoint().toString(), "--oauth", "--connect-timeout", "2s", "tools");
                assertThat(r.code()).as(r.err()).isEqualTo(5);
                assertThat(r.err()).as(r.err()).contains("open this URL in a browser: ")
                        .contains("mcp: timed out (--connect-timeout 2s): waiting for the authorization in the "
                                + "browser (no redirect reached http://127.0.0.1:")
                        .doesNotContain("server/discover").doesNotContain("connection failed");
            }
        }
    }

    @Test
    void logoutNeedsTheServerAndTheTokenCache(@TempDir Path dir) {
        assertUsageError(mcp("--token-cache", dir.toString(), "logout"), "logout: say which server with --http URL");
        assertUsageError(mcp("--http", URL, "logout"), "logout: say where the tokens are with --token-cache DIR "
                + "(without it tokens live in memory for one run only)");
        assertUsageError(mcp("--http", "ftp://x/mcp", "--token-cache", dir.toString(), "logout"),
                "logout: --http: expected an http:// or https:// URL with a host");
        // regression: logout created the directory it was given
        Path missing = dir.resolve("new").resolve("deeper");
        Run none = mcp("--http", URL, "--token-cache", missing.toString(), "logout");
        assertThat(none.code()).as(none.err()).isZero();
        assertThat(none.out()).isEqualTo("no stored tokens for " + URL + " (" + missing + " does not exist)\n");
        assertThat(dir.resolve("new")).doesNotExist();
        Run empty = mcp("--http", URL, "--token-cache", dir.toString(), "logout");
        assertThat(empty.code()).as(empty.err()).isZero();
        assertThat(empty.out()).isEqualTo("no stored tokens for " + URL + "\n");
    }

    /** Regression: an empty --token-cache meant the current directory, an empty --client-id was sent. */
    @Test
    void emptyValuesAreUsageErrors(@TempDir Path dir) {
        assertUsageError(mcp("--http", URL, "--oauth", "--token-cache", "", "tools"), "--token-cache: the value is empty");
        assertUsageError(mcp("--http", URL, "--oauth", "--client-id", "", "tools"), "--client-id: the value is empty");
        assertUsageError(mcp("--http", URL, "--client-credentials", "--client-id", "c", "--client-secret-file", "",
                "tools"), "--client-secret-file: the value is empty");
        assertUsageError(mcp("--http", URL, "--token-cache", " ", "logout"), "--token-cache: the value is empty");
    }

    /** Regression: the aggregated commands over --config silently ignored the authorization options. */
    @Test
    void authorizationOptionsWithTheAggregatedConfigCommandsAreUsageErrors(@TempDir Path dir) throws Exception {
        Path config = Files.writeString(dir.resolve("mcp.json"),
                "{\"mcpServers\":{\"a\":{\"url\":\"" + URL + "\"},\"b\":{\"url\":\"" + URL + "\"}}}");
        String message = "--oauth, --client-credentials, --client-id, --client-secret-file and --token-cache apply "
                + "to one server: pick it with --server NAME";
        assertUsageError(mcp("--config", config.toString(), "--oauth", "tools"), message);
        assertUsageError(mcp("--config", config.toString(), "servers", "--token-cache", dir.toString()), message);
    }

    /** Regression: picocli read {@code ${NAME}} in the --config description as a variable ("null is read"). */
    @Test
    void theConfigHelpNamesTheEnvironmentPlaceholder() {
        Run r = mcp("--help");
        assertThat(r.code()).isZero();
        assertThat(r.out().replaceAll("\\s+", " ")).contains("${NAME} is read from the environment")
                .doesNotContain("null is read");
    }
}
