package dev.loommcp.auth.internal;

import dev.loommcp.auth.ChildJvm;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.auth.FileTokenStore;
import dev.loommcp.auth.TokenSet;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.OwnedProcesses;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file token store shared by processes: child JVMs ({@link StoreChild}, on this test's class path) and this test
 * work on one directory at once. No update is lost, compare-and-delete holds across processes, and the file parses
 * whenever anyone reads it.
 */
@ExtendWith(LeakCheck.class)
class FileStoreCrossProcessTest {

    @RegisterExtension
    final OwnedProcesses processes = new OwnedProcesses();

    private static final long CHILD_BOUND_SECONDS = 180;

    @TempDir
    Path tmp;

    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void killChildren() throws InterruptedException {
        for (Process p : children) {
            if (p.isAlive()) {
                p.destroyForcibly();
                p.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    private Process child(Path out, String... args) throws IOException {
        return child(out, ProcessBuilder.Redirect.from(new File("/dev/null")), args);
    }

    private Process child(Path out, ProcessBuilder.Redirect in, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m", "-XX:TieredStopAtLevel=1", "-cp", ChildJvm.classPath(), StoreChild.class.getName()));
        cmd.addAll(List.of(args));
        Process p = processes.start(new ProcessBuilder(cmd)
                .redirectInput(in)
                .redirectOutput(out.toFile())
                .redirectError(out.resolveSibling(out.getFileName() + ".err").toFile()));
        children.add(p);
        return p;
    }

    private static void awaitSuccess(Process p, Path out) throws Exception {
        boolean exited = p.waitFor(CHILD_BOUND_SECONDS, TimeUnit.SECONDS);
        String report = "stdout (end): " + tail(out) + "\nstderr (end): " + tail(out.resolveSibling(out.getFileName()
                + ".err"));
        assertThat(exited).as("child exited in time; " + report).isTrue();
        assertThat(p.exitValue()).as(report).isZero();
    }

    private static String tail(Path p) throws IOException {
        String s = Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8) : "";
        return s.substring(Math.max(0, s.length() - 3000));
    }

    @Test
    void aTokenRotatedByAnotherProcessIsNeverDeletedByAStaleRemove() throws Exception {
        Path dir = tmp.resolve("cache");
        FileTokenStore mine = FileTokenStore.open(dir);
        String res = "https://mcp.example.com/mcp";
        String iss = "https://as.example.com";
        TokenSet stale = new TokenSet(iss, "at-1", "Bearer", "rt-1", Instant.parse("2026-12-01T07:00:00Z"), null);
        mine.saveTokens(res, stale);
        TokenSet seen = mine.tokens(res, iss).orElseThrow();

        // the other process refreshes with rt-1 and stores the rotated pair
        Path out = tmp.resolve("save.out");
        awaitSuccess(child(out, "save", dir.toString(), res, iss, "at-2", "rt-2"), out);
        assertThat(Files.readString(out)).contains("SAVED");

        // this process's refresh with rt-1 was refused (already used): it removes what it saw, which is gone
        assertThat(mine.removeTokens(res, seen)).isFalse();
        TokenSet rotated = new TokenSet(iss, "at-2", "Bearer", "rt-2", null, null);
        assertThat(mine.tokens(res, iss)).contains(rotated);
        assertThat(FileTokenStore.open(dir).tokens(res, iss)).contains(rotated);
        assertThat(mine.removeTokens(res, rotated)).isTrue();
    }

    @Test
    void aProcessHoldingTheLockTooLongFailsTheOperationInsteadOfHangingIt() throws Exception {
        Path dir = tmp.resolve("cache");
        FileStore store = FileStore.open(dir, Duration.ofMillis(300));
        Path out = tmp.resolve("hold.out");
        Process holder = child(out, ProcessBuilder.Redirect.PIPE, "hold", dir.toString());
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> Files.exists(out)
                && Files.readString(out).contains("LOCKED") || !holder.isAlive());
        assertThat(holder.isAlive()).as("holder started; " + tail(out.resolveSibling("hold.out.err"))).isTrue();
        TokenSet t = new TokenSet("https://as.example", "at", "Bearer", null, null, null);
        assertThatThrownBy(() -> store.saveTokens("https://r.example", t))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(dir.resolve(FileStore.FILE_NAME).toString())
                .hasMessageContaining("another process holds the lock file " + dir.resolve(FileStore.LOCK_NAME));
        assertThatThrownBy(() -> store.tokens("https://r.example", t.issuer())) // reads take the lock too
                .isInstanceOf(UncheckedIOException.class).hasMessageContaining("another process holds");
        holder.getOutputStream().close(); // lets go
        awaitSuccess(holder, out);
        store.saveTokens("https://r.example", t);
        assertThat(store.tokens("https://r.example", t.issuer())).contains(t);
    }

    @Test
    void processesHammeringOneDirectoryLoseNoUpdateAndTheFileAlwaysParses() throws Exception {
        Path dir = tmp.resolve("cache");
        FileTokenStore mine = FileTokenStore.open(dir);
        int childCount = 2;
        int rounds = 100;
        List<Process> procs = new ArrayList<>();
        List<Path> outs = new ArrayList<>();
        for (int c = 0; c < childCount; c++) {
            Path out = tmp.resolve("hammer-" + c + ".out");
            outs.add(out);
            procs.add(child(out, "hammer", dir.toString(), "c" + c, Integer.toString(rounds)));
        }
        // this process hammers too, and reads the file without the lock (as a crashed or foreign reader would)
        Set<String> removedHere = new HashSet<>();
        int parses = 0;
        int i = 0;
        while (procs.stream().anyMatch(Process::isAlive) || i < rounds) {
            if (i < rounds) {
                mine.saveTokens(StoreChild.ownResource("p", i), StoreChild.own("p", i));
                TokenSet seen = mine.tokens(StoreChild.SHARED, StoreChild.ISSUER).orElse(null);
                if (seen != null && mine.removeTokens(StoreChild.SHARED, seen)) {
                    assertThat(removedHere.add(seen.accessToken())).isTrue();
                }
                mine.saveTokens(StoreChild.SHARED, new TokenSet(StoreChild.ISSUER, "shared-p-" + i, "Bearer",
                        "rt-p-" + i, null, null));
                i++;
            }
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(dir.resolve(FileStore.FILE_NAME));
            } catch (NoSuchFileException e) {
                continue;
            }
            StoreFile.read(bytes); // throws if half-written
            parses++;
            if (i >= rounds) {
                Thread.sleep(5);
            }
        }
        for (int c = 0; c < childCount; c++) {
            awaitSuccess(procs.get(c), outs.get(c));
        }
        assertThat(parses).isPositive();

        // no lost update: every writer's own entries are all there
        for (String id : List.of("p", "c0", "c1")) {
            for (int r = 0; r < rounds; r++) {
                assertThat(mine.tokens(StoreChild.ownResource(id, r), StoreChild.ISSUER)).as("%s round %d", id, r)
                        .contains(StoreChild.own(id, r));
            }
        }
        // compare-and-delete: no shared value was removed twice, by any process
        List<String> removed = new ArrayList<>(removedHere);
        for (Path out : outs) {
            String text = Files.readString(out, StandardCharsets.UTF_8);
            assertThat(text).contains("DONE");
            text.lines().filter(l -> l.startsWith("REMOVED ")).map(l -> l.substring(8)).forEach(removed::add);
        }
        assertThat(removed).doesNotHaveDuplicates();
        TokenSet last = mine.tokens(StoreChild.SHARED, StoreChild.ISSUER).orElseThrow();
        assertThat(removed).doesNotContain(last.accessToken());
        assertThat(removed.size()).isLessThan(rounds * (childCount + 1));
        assertThat(mine.issuers(StoreChild.SHARED)).containsExactly(StoreChild.ISSUER);
    }

    @Test
    void processesSharingTheFileRefreshOneSetOneAtATime() throws Exception {
        Path dir = tmp.resolve("cache");
        FileTokenStore.open(dir).saveTokens(StoreChild.SHARED, new TokenSet(StoreChild.ISSUER, "at-0", "Bearer",
                "rt-0", null, null));
        int childCount = 3;
        List<Process> procs = new ArrayList<>();
        List<Path> outs = new ArrayList<>();
        for (int c = 0; c < childCount; c++) {
            Path out = tmp.resolve("refresh-" + c + ".out");
            outs.add(out);
            procs.add(child(out, "refresh", dir.toString(), "c" + c, "40"));
        }
        List<String> presented = new ArrayList<>();
        List<Long> fences = new ArrayList<>();
        for (int c = 0; c < childCount; c++) {
            awaitSuccess(procs.get(c), outs.get(c));
            for (String line : Files.readAllLines(outs.get(c), StandardCharsets.UTF_8)) {
                if (line.startsWith("REFRESHED ")) {
                    String[] f = line.split(" ");
                    presented.add(f[1]);
                    fences.add(Long.parseLong(f[2]));
                    assertThat(f[3]).as("a refresh under the lease is always stored: %s", line).isEqualTo("true");
                }
            }
        }
        // exclusion: no refresh token was presented twice (an AS with reuse detection would revoke the family)
        assertThat(presented).isNotEmpty().doesNotHaveDuplicates();
        assertThat(fences).doesNotHaveDuplicates();
    }
}
