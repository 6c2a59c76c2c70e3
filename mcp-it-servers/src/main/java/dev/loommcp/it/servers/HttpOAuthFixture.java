package dev.loommcp.it.servers;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * loom-mcp's OAuth-protected MCP test server, {@code test-servers/oauth-fixture.mjs}, over Streamable HTTP on an
 * ephemeral port of 127.0.0.1, for a test class: an MCP server (tools {@code echo} and {@code whoami}, the 2025-11-25
 * wire) behind the pinned {@code @modelcontextprotocol/sdk} 1.32.2's authorization server router (metadata, dynamic
 * registration, an authorization endpoint that approves at once, token endpoint with PKCE and refresh rotation) and
 * its bearer middleware. The script's header describes it; {@link #close()} ends it.
 *
 * <p>Flags: {@code --access-ttl S} (access-token lifetime, default 3600), {@code --no-refresh} (no refresh tokens),
 * {@code --reuse-detection} (a rotated refresh token presented again revokes its whole token family; counted in the
 * {@code revocations} stat), {@code --scope 'A B'} (scopes the endpoint requires).
 */
public final class HttpOAuthFixture implements AutoCloseable {

    private static final Pattern NUMBER = Pattern.compile("\"([a-zA-Z]+)\":(\\d+)");
    private static final Pattern STRING = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");

    private final AnnouncedEndpoint server;

    /**
     * Starts the fixture and waits (up to 30 s) until it listens.
     *
     * @param flags extra flags of the script (see the class comment)
     * @throws IOException           if it cannot be started
     * @throws IllegalStateException if the script is missing, or it exits or does not listen in time
     * @throws InterruptedException  if interrupted while waiting
     */
    public HttpOAuthFixture(String... flags) throws IOException, InterruptedException {
        Path script = ReferenceServer.nodeDir().resolve("oauth-fixture.mjs");
        if (!Files.isRegularFile(script)) {
            throw new IllegalStateException("the OAuth fixture " + script + " is missing");
        }
        List<String> argv = new ArrayList<>(List.of("node", script.toString(), "--http", "0"));
        argv.addAll(List.of(flags));
        server = new AnnouncedEndpoint("oauth-fixture", argv);
    }

    /**
     * Returns the MCP endpoint (the protected resource).
     *
     * @return {@code http://127.0.0.1:<port>/mcp}
     */
    public URI endpoint() {
        return server.endpoint();
    }

    /**
     * Returns the authorization server's issuer, as the fixture's metadata states it.
     *
     * @return {@code http://127.0.0.1:<port>/}
     */
    public URI issuer() {
        return server.endpoint().resolve("/");
    }

    /**
     * Reads one of the fixture's counters ({@code registrations}, {@code authorizations}, {@code codeExchanges},
     * {@code refreshes}, {@code accepted}, {@code rejected}).
     *
     * @param name the counter
     * @return its value
     * @throws IOException              if the fixture cannot be reached
     * @throws InterruptedException     if interrupted
     * @throws IllegalArgumentException if there is no such counter
     */
    public int stat(String name) throws IOException, InterruptedException {
        Matcher m = NUMBER.matcher(get("/_stats"));
        while (m.find()) {
            if (m.group(1).equals(name)) {
                return Integer.parseInt(m.group(2));
            }
        }
        throw new IllegalArgumentException("the fixture has no counter " + name);
    }

    /**
     * Returns every secret the fixture issued or received so far: client secrets, authorization codes, access and
     * refresh tokens (for tests that check their logs leak none).
     *
     * @return the values
     * @throws IOException          if the fixture cannot be reached
     * @throws InterruptedException if interrupted
     */
    public List<String> secrets() throws IOException, InterruptedException {
        String body = get("/_secrets");
        int open = body.indexOf('[');
        List<String> values = new ArrayList<>();
        Matcher m = STRING.matcher(body.substring(Math.max(open, 0)));
        while (m.find()) {
            values.add(m.group(1));
        }
        return values;
    }

    private String get(String path) throws IOException, InterruptedException {
        try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(server.endpoint().resolve(path))
                    .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IOException("GET " + path + " answered " + r.statusCode());
            }
            return r.body();
        }
    }

    /**
     * Returns whether the server process still runs.
     *
     * @return {@code true} until it ended
     */
    public boolean isAlive() {
        return server.process().isAlive();
    }

    /** Ends the server, bounded (TERM, 5 s, KILL, 5 s). */
    @Override
    public void close() {
        server.close();
    }
}
