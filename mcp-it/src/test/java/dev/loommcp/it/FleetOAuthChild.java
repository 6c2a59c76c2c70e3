package dev.loommcp.it;

import dev.loommcp.McpClient;
import dev.loommcp.auth.AuthorizationCodeHandler;
import dev.loommcp.auth.McpOAuth;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.store.jdbc.JdbcTokenStore;
import dev.loommcp.transport.http.HttpTransport;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.crypto.spec.SecretKeySpec;

/**
 * One replica of {@link FleetOAuthTest}: an {@link McpOAuth} (authorization code through the fixture's approving
 * endpoint) on a {@link JdbcTokenStore} shared with the other replicas (the test's schema, a pool of 8 connections,
 * one AES key), connected to the OAuth fixture. It prints {@code ready} once connected, waits for a {@code go} line,
 * then runs its callers ({@code echo}, each in a loop on its own virtual thread) for the given seconds, prints
 * {@code done ok=<n> failed=<n> first=<first failure or -> kinds=<kind=count;... or ->} and exits 0 after
 * closing its client.
 */
final class FleetOAuthChild {

    private FleetOAuthChild() {
    }

    /**
     * Runs the replica.
     *
     * @param args endpoint, JDBC URL, the key (hex), callers, seconds
     * @throws Exception on any failure (printed; exit code 1)
     */
    public static void main(String[] args) throws Exception {
        // the auth engine's DEBUG lines (refresh waits, adopted tokens) go to stderr, which the test shows on failure
        java.util.logging.Logger auth = java.util.logging.Logger.getLogger("dev.loommcp.auth");
        auth.setLevel(java.util.logging.Level.FINE);
        java.util.logging.ConsoleHandler console = new java.util.logging.ConsoleHandler();
        console.setLevel(java.util.logging.Level.FINE);
        auth.addHandler(console);
        JdbcTokenStore tokens = JdbcTokenStore.newBuilder(FleetDatabase.pool(args[1], 8))
                .encryptionKey("fleet-test", new SecretKeySpec(HexFormat.of().parseHex(args[2]), "AES")).build();
        int callers = Integer.parseInt(args[3]);
        Duration duration = Duration.ofSeconds(Long.parseLong(args[4]));
        try (McpOAuth oauth = McpOAuth.newBuilder()
                .authorizationCode(AuthorizationCodeHandler.nonInteractive(URI.create("http://127.0.0.1:1/callback")))
                .tokenStore(tokens).build();
             McpClient client = McpClient.newBuilder(HttpTransport.newBuilder(URI.create(args[0]))
                     .authorization(oauth).build()).requestTimeout(Duration.ofSeconds(30)).build()) {
            client.connect();
            System.out.println("ready");
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            if (!"go".equals(in.readLine())) {
                System.exit(3);
            }
            AtomicLong ok = new AtomicLong();
            AtomicLong failed = new AtomicLong();
            AtomicReference<String> first = new AtomicReference<>("-");
            // every kind of failure with its count (class and message, digits as #), for the test to judge them all
            Map<String, Integer> kinds = new java.util.concurrent.ConcurrentHashMap<>();
            long end = System.nanoTime() + duration.toNanos();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                String message = "call " + i;
                threads.add(Thread.ofVirtual().name("fleet-caller-" + i).start(() -> {
                    while (System.nanoTime() - end < 0) {
                        try {
                            CallToolResult r = client.callTool("echo", Map.of("message", message));
                            if (r.error()) {
                                throw new IllegalStateException("the echo tool failed");
                            }
                            ok.incrementAndGet();
                        } catch (Exception e) {
                            failed.incrementAndGet();
                            first.compareAndSet("-", e.toString().replace('\n', ' '));
                            String m = String.valueOf(e.getMessage()).replaceAll("[0-9]+", "#")
                                    .replaceAll("[\\s;=]+", " ");
                            kinds.merge(e.getClass().getSimpleName() + ": "
                                    + (m.length() > 120 ? m.substring(0, 120) : m), 1, Integer::sum);
                            if (e instanceof InterruptedException) {
                                return;
                            }
                        }
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
            StringBuilder k = new StringBuilder();
            kinds.forEach((kind, n) -> k.append(k.isEmpty() ? "" : ";").append(kind).append('=').append(n));
            System.out.println("done ok=" + ok.get() + " failed=" + failed.get() + " first=" + first.get()
                    + " kinds=" + (k.isEmpty() ? "-" : k));
            System.out.flush();
        }
        System.exit(0);
    }
}
