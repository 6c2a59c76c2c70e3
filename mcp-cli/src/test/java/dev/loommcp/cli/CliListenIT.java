package dev.loommcp.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.loommcp.cli.CliProcess.Run;
import dev.loommcp.internal.json.Json;
import dev.loommcp.testing.LeakCheck;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mcp listen} through the real {@code main} ({@code java -jar mcp.jar} in a child process) against a legacy
 * stdio server that sends list changes and resource updates ({@code notifier-server.js}): each notification is printed
 * as it arrives, one line each (JSON lines with {@code --json}); Ctrl+C closes the subscription (the resources are
 * unsubscribed) and the client and exits 130; a server that goes away ends the command with exit 3; what the server
 * cannot deliver is reported as refused.
 */
@ExtendWith(LeakCheck.class)
class CliListenIT {

    /** The command line of the notifier server logging what it receives to {@code log}, ending after N ticks. */
    static String notifier(Path log, Integer ticks) {
        Path script;
        try {
            script = Path.of(Objects.requireNonNull(CliListenIT.class.getResource("notifier-server.js")).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        Stream<String> words = Stream.of("node", script.toString(), log.toString());
        if (ticks != null) {
            words = Stream.concat(words, Stream.of(ticks.toString()));
        }
        return words.map(ShellWords::quote).collect(Collectors.joining(" "));
    }

    /** A CLI process whose stdout lines are read as they come. */
    static final class Listener implements AutoCloseable {
        final Process process;
        final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
        final StringBuilder allOut = new StringBuilder();
        final CompletableFuture<String> err;
        final Thread errReader;
        final Thread reader;

        Listener(String... args) throws Exception {
            process = new ProcessBuilder(CliProcess.javaJar(args)).redirectInput(new File("/dev/null")).start();
            // its own thread, not the common pool: on two cores that pool has one thread, which this stream would
            // hold for the whole run, starving CliProcess.run of another CLI started meanwhile
            err = new CompletableFuture<>();
            errReader = Thread.ofPlatform().daemon().name("listen-stderr").start(() -> err.complete(
                    CliProcess.read(process.getErrorStream())));
            reader = Thread.ofPlatform().daemon().name("listen-stdout").start(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = r.readLine()) != null) {
                        lines.add(line);
                    }
                } catch (java.io.IOException e) {
                    // the process ended
                }
            });
        }

        /** The next line of stdout, waiting at most 60 s; fails at once when the process ended without one. */
        String next() throws Exception {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            String line;
            while ((line = lines.poll(200, TimeUnit.MILLISECONDS)) == null) {
                if (!process.isAlive() && !reader.isAlive() && lines.isEmpty()) {
                    throw new AssertionError("the CLI ended (exit " + process.exitValue() + ") before printing a "
                            + "line: " + err.get(30, TimeUnit.SECONDS));
                }
                assertThat(System.nanoTime() - end).as("a line within 60 s").isNegative();
            }
            allOut.append(line).append('\n');
            return line;
        }

        /** The next line of stdout if one comes within {@code millis}, else {@code null}. */
        String poll(long millis) throws InterruptedException {
            String line = lines.poll(millis, TimeUnit.MILLISECONDS);
            if (line != null) {
                allOut.append(line).append('\n');
            }
            return line;
        }

        /** Waits for the exit (60 s) and returns what was printed. */
        Run end() throws Exception {
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the CLI ended").isTrue();
            reader.join(10_000);
            List<String> rest = new ArrayList<>();
            lines.drainTo(rest);
            rest.forEach(l -> allOut.append(l).append('\n'));
            return new Run(process.exitValue(), allOut.toString(), err.get(30, TimeUnit.SECONDS));
        }

        @Override
        public void close() throws Exception {
            process.destroyForcibly().waitFor();
            reader.join(10_000);
            errReader.join(10_000);
        }
    }

    @Test
    void eachNotificationIsPrintedAsItArrivesUntilCtrlCUnsubscribesAndExits130(@TempDir Path dir) throws Exception {
        assumeFalse(CliSignalIT.ignoredHere("INT"), "SIGINT is ignored in this process tree");
        Path log = dir.resolve("log");
        try (Listener l = new Listener("--stdio", notifier(log, null), "--protocol", "legacy", "listen", "--tools",
                "--resource", "note://a")) {
            List<String> seen = new ArrayList<>();
            while (!(seen.stream().anyMatch(s -> s.endsWith("  tools list changed"))
                    && seen.stream().anyMatch(s -> s.endsWith("  resource updated: note://a")))) {
                String line = l.next();
                assertThat(line).matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3}  (tools list changed|resource updated: "
                        + "note://a)");
                seen.add(line);
            }
            CliSignalIT.signal(l.process, "INT");
            Run r = l.end();
            assertThat(r.code()).as(r.err()).isEqualTo(130);
            assertThat(r.err()).startsWith("mcp: listening for tools list changes, updates of note://a (Ctrl+C to "
                    + "stop)\n").contains("mcp: interrupted").doesNotContain("refused");
            // the subscription was closed before the client: the resource was unsubscribed on the wire
            assertThat(Files.readAllLines(log)).contains("resources/subscribe note://a",
                    "resources/unsubscribe note://a");
        }
    }

    @Test
    void withJsonEachNotificationIsOneJsonObjectPerLine(@TempDir Path dir) throws Exception {
        assumeFalse(CliSignalIT.ignoredHere("INT"), "SIGINT is ignored in this process tree");
        try (Listener l = new Listener("--stdio", notifier(dir.resolve("log"), null), "--json", "listen")) {
            for (int i = 0; i < 2; i++) {
                Object parsed = Json.read(l.next());
                assertThat(parsed).isEqualTo(Map.of("method", "notifications/tools/list_changed"));
            }
            CliSignalIT.signal(l.process, "INT");
            Run r = l.end();
            assertThat(r.code()).as(r.err()).isEqualTo(130);
            // no list changes of prompts from a server without prompts: refused, reported, and the rest goes on
            assertThat(r.err()).contains("mcp: the server refused: prompts list changes");
        }
    }

    @Test
    void aServerThatGoesAwayEndsTheCommandWithATransportExit(@TempDir Path dir) throws Exception {
        try (Listener l = new Listener("--stdio", notifier(dir.resolve("log"), 10), "listen", "--tools")) {
            Run r = l.end();
            assertThat(r.code()).as(r.err()).isEqualTo(3);
            assertThat(r.err()).containsAnyOf("exited with code 0", "the connection closed");
        }
    }

    @Test
    void whenTheServerCanDeliverNoneOfItTheCommandSaysSoAndExits0(@TempDir Path dir) throws Exception {
        Run r = CliProcess.run(new ProcessBuilder(CliProcess.javaJar("--stdio", notifier(dir.resolve("log"), null),
                "listen", "--prompts")));
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).contains("mcp: the server refused: prompts list changes",
                "mcp: nothing to listen for (the server acknowledged none of it)");
        // no "listening for nothing" first: the command says once that there is nothing, and why
        assertThat(r.err()).doesNotContain("listening for");
    }
}
