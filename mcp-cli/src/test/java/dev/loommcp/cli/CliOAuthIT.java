package dev.loommcp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.cli.CliProcess.Run;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.it.servers.HttpOAuthFixture;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mcp --oauth} for real ({@code java -jar mcp.jar}, through {@code main} and {@code System.exit}) against
 * {@code test-servers/oauth-fixture.mjs}, an MCP server behind the TS SDK 1.32.2's authorization server: the CLI
 * prints the authorization URL on stderr and waits on its loopback receiver; the test plays the browser (it opens the
 * URL and follows the redirect to the receiver). {@code --token-cache} keeps the tokens for the next run, {@code mcp
 * logout} removes them. No run prints a secret the fixture issued.
 */
@ExtendWith(LeakCheck.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CliOAuthIT {

    static final String PROMPT = "open this URL in a browser: ";

    private HttpOAuthFixture fixture;

    @BeforeAll
    void start() throws Exception {
        fixture = new HttpOAuthFixture();
    }

    @AfterAll
    void stop() {
        if (fixture != null) {
            fixture.close();
        }
    }

    /** A run and the authorization URLs it printed (each opened by the test, as a browser would). */
    record Authorized(Run run, List<URI> opened) {
    }

    /**
     * Runs {@code java -jar mcp.jar ARGS}; each authorization URL it prints on stderr is opened like a browser does
     * (GET, following the redirect to the CLI's loopback receiver).
     */
    static Authorized runAsUser(String... args) throws Exception {
        List<String> command = CliProcess.javaJar(args);
        Process p = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .start();
        List<URI> opened = new ArrayList<>();
        StringBuilder err = new StringBuilder();
        // own threads (not the common pool, which may have a single worker): both pipes are read at once
        CompletableFuture<String> out = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("cli-stdout").start(() -> out.complete(CliProcess.read(p.getInputStream())));
        CompletableFuture<Void> browser = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("cli-stderr").start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getErrorStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    err.append(line).append('\n');
                    int at = line.indexOf(PROMPT);
                    if (at >= 0) {
                        URI url = URI.create(line.substring(at + PROMPT.length()).strip());
                        opened.add(url);
                        try {
                            open(url);
                        } catch (IOException | RuntimeException | Error e) {
                            // the CLI would wait for a redirect that never comes: end it, the test fails on its code
                            err.append("(test) opening the URL failed: ").append(e).append('\n');
                            p.destroy();
                        }
                    }
                }
                browser.complete(null);
            } catch (IOException | RuntimeException e) {
                browser.completeExceptionally(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                browser.completeExceptionally(e);
            }
        });
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("the CLI did not finish within 120 s: " + command);
        }
        browser.get(30, TimeUnit.SECONDS);
        return new Authorized(new Run(p.exitValue(), out.get(30, TimeUnit.SECONDS), err.toString()),
                List.copyOf(opened));
    }

    /** What a browser does with the URL: GET it, then GET the redirect's target (the loopback receiver). */
    static void open(URI url) throws IOException, InterruptedException {
        try (HttpClient browser = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()) {
            HttpResponse<String> approval = get(browser, url);
            assertThat(approval.statusCode()).as("the authorization endpoint redirects").isEqualTo(302);
            URI callback = URI.create(approval.headers().firstValue("Location").orElseThrow());
            assertThat(callback.getHost()).as("to the loopback receiver").isEqualTo("127.0.0.1");
            assertThat(callback.getPath()).isEqualTo("/callback");
            assertThat(get(browser, callback).statusCode()).as("the receiver's page").isEqualTo(200);
        }
    }

    private static HttpResponse<String> get(HttpClient browser, URI url) throws IOException, InterruptedException {
        try {
            return browser.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(30)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IOException("GET " + url.getScheme() + "://" + url.getAuthority() + url.getPath() + ": " + e, e);
        }
    }

    @Test
    void oauthAuthorizesOnceThenTheTokenCacheServesLaterRunsUntilLogout(@TempDir Path home) throws Exception {
        Path cache = home.resolve("tokens");
        String endpoint = fixture.endpoint().toString();
        int authorizations = fixture.stat("authorizations");
        int registrations = fixture.stat("registrations");

        Authorized first = runAsUser("--http", endpoint, "--oauth", "--token-cache", cache.toString(), "tools");
        assertThat(first.run().code()).as(first.run().err()).isZero();
        assertThat(first.run().out()).contains("echo").contains("whoami");
        assertThat(first.opened()).singleElement().satisfies(url -> {
            assertThat(url.getPath()).isEqualTo("/authorize");
            assertThat(url.getQuery()).contains("code_challenge_method=S256").contains("resource=" + endpoint);
        });
        assertThat(fixture.stat("authorizations")).isEqualTo(authorizations + 1);
        assertThat(fixture.stat("registrations")).isEqualTo(registrations + 1);
        assertThat(Files.getPosixFilePermissions(cache)).isEqualTo(PosixFilePermissions.fromString("rwx------"));

        // a second process: the cached token, no browser
        Authorized second = runAsUser("--http", endpoint, "--oauth", "--token-cache", cache.toString(),
                "call", "echo", "{\"message\":\"from the cache\"}");
        assertThat(second.run().code()).as(second.run().err()).isZero();
        assertThat(second.run().out()).contains("from the cache");
        assertThat(second.opened()).isEmpty();
        assertThat(fixture.stat("authorizations")).isEqualTo(authorizations + 1);

        Authorized logout = runAsUser("--http", endpoint, "--token-cache", cache.toString(), "logout");
        assertThat(logout.run().code()).as(logout.run().err()).isZero();
        assertThat(logout.run().out()).startsWith("logged out of " + endpoint + " (1 token set removed)");

        // after logout: the browser again, but the client registration was kept
        Authorized third = runAsUser("--http", endpoint, "--oauth", "--token-cache", cache.toString(), "tools");
        assertThat(third.run().code()).as(third.run().err()).isZero();
        assertThat(third.opened()).hasSize(1);
        assertThat(fixture.stat("authorizations")).isEqualTo(authorizations + 2);
        assertThat(fixture.stat("registrations")).isEqualTo(registrations + 1);

        List<String> secrets = fixture.secrets();
        assertThat(secrets).isNotEmpty();
        String cacheFile = Files.readString(cache.resolve("tokens.json"));
        for (Authorized a : List.of(first, second, logout, third)) {
            for (String secret : secrets) {
                assertThat(a.run().out() + a.run().err()).as("output of a run").doesNotContain(secret);
            }
        }
        assertThat(secrets).anySatisfy(s -> assertThat(cacheFile).contains(s)); // the cache does hold them
    }

    @Test
    void logoutWithoutStoredTokensSaysSo(@TempDir Path home) throws Exception {
        Run r = CliProcess.run(new ProcessBuilder(CliProcess.javaJar("--http", fixture.endpoint().toString(),
                "--token-cache", home.resolve("empty").toString(), "logout")));
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("no stored tokens for " + fixture.endpoint() + " (" + home.resolve("empty")
                + " does not exist)\n");
        assertThat(home.resolve("empty")).doesNotExist();
    }
}
