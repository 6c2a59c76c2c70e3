package dev.loommcp.auth.internal;

import dev.loommcp.auth.FileTokenStore;
import dev.loommcp.auth.TokenSet;
import dev.loommcp.auth.TokenStore;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * The other process of {@link FileStoreCrossProcessTest}, a child JVM on the test's class path:
 * <ul>
 *   <li>{@code save DIR RESOURCE ISSUER ACCESS REFRESH}: saves one token set, prints {@code SAVED}, exits;</li>
 *   <li>{@code hold DIR}: takes the store's lock file, prints {@code LOCKED} and holds it until its standard input
 *       closes;</li>
 *   <li>{@code hammer DIR ID ROUNDS}: per round saves a set under a resource of its own, then on the shared resource
 *       removes the set it reads (compare-and-delete) and saves its own; prints {@code REMOVED <access token>} for
 *       every successful removal and {@code DONE} at the end;</li>
 *   <li>{@code refresh DIR ID ROUNDS}: per round asks for the refresh lease of the shared resource; when granted,
 *       reads the shared set, "refreshes" it (a new set naming the old refresh token) with the fenced
 *       compare-and-set and releases the lease, printing {@code REFRESHED <old refresh token> <fence> <ok>};
 *       {@code DONE} at the end.</li>
 * </ul>
 * Exit status 0 on success, 1 on any failure (stack trace on stderr).
 */
public final class StoreChild {

    static final String SHARED = "https://shared.example/mcp";
    static final String ISSUER = "https://as.example";

    private StoreChild() {
    }

    /**
     * Runs one mode.
     *
     * @param args the mode and its arguments
     */
    public static void main(String[] args) {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        try {
            if (args[0].equals("hold")) {
                try (FileChannel ch = FileChannel.open(Path.of(args[1], FileStore.LOCK_NAME),
                        StandardOpenOption.CREATE, StandardOpenOption.WRITE); FileLock held = ch.lock()) {
                    out.println("LOCKED");
                    while (System.in.read() >= 0) {
                        // until the test closes the pipe
                    }
                }
                System.exit(0);
            }
            TokenStore store = FileTokenStore.open(Path.of(args[1]));
            switch (args[0]) {
                case "save" -> {
                    store.saveTokens(args[2], new TokenSet(args[3], args[4], "Bearer", args[5], null, null));
                    out.println("SAVED");
                }
                case "hammer" -> {
                    String id = args[2];
                    int rounds = Integer.parseInt(args[3]);
                    for (int i = 0; i < rounds; i++) {
                        store.saveTokens(ownResource(id, i), own(id, i));
                        TokenSet seen = store.tokens(SHARED, ISSUER).orElse(null);
                        if (seen != null && store.removeTokens(SHARED, seen)) {
                            out.println("REMOVED " + seen.accessToken());
                        }
                        store.saveTokens(SHARED, new TokenSet(ISSUER, "shared-" + id + "-" + i, "Bearer",
                                "rt-" + id + "-" + i, Instant.parse("2026-12-01T08:00:00Z"), null));
                    }
                    out.println("DONE");
                }
                case "refresh" -> {
                    String id = args[2];
                    int rounds = Integer.parseInt(args[3]);
                    for (int i = 0; i < rounds; i++) {
                        java.util.Optional<dev.loommcp.auth.RefreshLease> lease = store.leaseRefresh(SHARED, ISSUER,
                                id, java.time.Duration.ofSeconds(30));
                        if (lease.isEmpty()) {
                            Thread.sleep(1);
                            continue;
                        }
                        TokenSet old = store.tokens(SHARED, ISSUER).orElseThrow();
                        Thread.sleep(2); // the token endpoint call
                        boolean ok = store.replaceTokens(lease.get(), old, new TokenSet(ISSUER, "at-" + id + "-" + i,
                                "Bearer", "rt-" + id + "-" + i, null, null));
                        store.releaseRefresh(lease.get());
                        out.println("REFRESHED " + old.refreshToken() + " " + lease.get().fence() + " " + ok);
                    }
                    out.println("DONE");
                }
                default -> throw new IllegalArgumentException("unknown mode " + args[0]);
            }
            System.exit(0);
        } catch (Throwable t) {
            t.printStackTrace();
            System.exit(1);
        }
    }

    static String ownResource(String id, int round) {
        return "https://own.example/" + id + "/" + round;
    }

    static TokenSet own(String id, int round) {
        return new TokenSet(ISSUER, "own-" + id + "-" + round, "Bearer", null, null, "r" + round);
    }
}
