package dev.loommcp.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.loommcp.cli.CliProcess.Run;
import dev.loommcp.testing.LeakCheck;
import java.io.File;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Ctrl+C (SIGINT) and SIGTERM during a call, sent to the real CLI process ({@code java -jar mcp.jar}): the call is
 * cancelled on the wire and the client closed before the JVM exits with the signal's status (130, 143). Over HTTP a
 * recording server shows {@code notifications/cancelled} and the session {@code DELETE}; over stdio the server's
 * whole process tree is gone.
 */
@ExtendWith(LeakCheck.class)
class CliSignalIT {

    /**
     * A JVM does not handle a signal it inherited as ignored (a job started with {@code &} by a shell without job
     * control ignores SIGINT); the CLI then inherits that too, so the SIGINT case cannot be run.
     */
    static boolean ignoredHere(String signal) throws IOException {
        int number = signal.equals("INT") ? 2 : 15;
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("SigIgn:")) {
                return new BigInteger(line.substring(7).strip(), 16).testBit(number - 1);
            }
        }
        return false;
    }

    static void signal(Process p, String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).inheritIO().start();
        assertThat(kill.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).isZero();
    }

    @ParameterizedTest
    @CsvSource({"INT, 130", "TERM, 143"})
    void aSignalDuringAnHttpCallCancelsItAndEndsTheSession(String signal, int status) throws Exception {
        assumeFalse(ignoredHere(signal), "SIG" + signal + " is ignored in this process tree");
        try (RecordingMcpServer server = new RecordingMcpServer()) {
            List<String> command = CliProcess.javaJar("--http", server.endpoint(), "call", "slow");
            Process p = new ProcessBuilder(command).redirectInput(new File("/dev/null")).start();
            try {
                CompletableFuture<Run> run = CliProcess.collect(p, command);
                assertThat(server.callArrived.await(60, TimeUnit.SECONDS)).as("the call reached the server").isTrue();
                signal(p, signal);
                Run r = run.get(60, TimeUnit.SECONDS);
                assertThat(r.code()).as(r.err()).isEqualTo(status);
                assertThat(r.err()).contains("mcp: interrupted");
                // both were sent before the JVM exited
                assertThat(server.cancelArrived.getCount()).as(server.received().toString()).isZero();
                assertThat(server.deleteArrived.getCount()).as(server.received().toString()).isZero();
                Object callId = server.messages().stream().filter(m -> "tools/call".equals(m.get("method")))
                        .findFirst().orElseThrow().get("id");
                Map<?, ?> cancelled = server.messages().stream()
                        .filter(m -> "notifications/cancelled".equals(m.get("method"))).findFirst().orElseThrow();
                assertThat(((Map<?, ?>) cancelled.get("params")).get("requestId")).isEqualTo(callId);
                assertThat(server.received()).contains("DELETE " + RecordingMcpServer.SESSION);
            } finally {
                p.destroyForcibly().waitFor();
            }
        }
    }

    /**
     * A second Ctrl+C exits at once, while the first one's clean-up still waits for a server that never answers its
     * {@code notifications/cancelled} and {@code DELETE} (bounded at about 5 s: without the second signal the CLI
     * exits then).
     */
    @Test
    void aSecondSignalExitsAtOnceWhileTheFirstOnesCleanUpWaits() throws Exception {
        assumeFalse(ignoredHere("INT"), "SIGINT is ignored in this process tree");
        try (RecordingMcpServer server = new RecordingMcpServer()) {
            server.holdClosing = true;
            List<String> command = CliProcess.javaJar("--http", server.endpoint(), "call", "slow");
            Process p = new ProcessBuilder(command).redirectInput(new File("/dev/null")).start();
            try {
                CompletableFuture<Run> run = CliProcess.collect(p, command);
                assertThat(server.callArrived.await(60, TimeUnit.SECONDS)).as("the call reached the server").isTrue();
                signal(p, "INT");
                assertThat(server.cancelArrived.await(30, TimeUnit.SECONDS)).as("the cancel reached the server")
                        .isTrue();
                long second = System.nanoTime();
                signal(p, "INT");
                Run r = run.get(60, TimeUnit.SECONDS);
                long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - second);
                assertThat(r.code()).as(r.err()).isEqualTo(130);
                // the held cancel (2 s) and DELETE (3 s) would keep a single-signal exit waiting about 5 s
                assertThat(tookMillis).as("exit after the second signal, ms").isLessThan(1_900);
            } finally {
                p.destroyForcibly().waitFor();
            }
        }
    }

    @Test
    void aTimedOutHttpCallIsCancelledOnTheWireBeforeTheExit() throws Exception {
        try (RecordingMcpServer server = new RecordingMcpServer()) {
            Run r = CliProcess.run(new ProcessBuilder(CliProcess.javaJar("--http", server.endpoint(), "--timeout",
                    "1s", "call", "slow")));
            assertThat(r.code()).as(r.err()).isEqualTo(5);
            assertThat(server.received()).containsSubsequence("POST tools/call", "POST notifications/cancelled",
                    "DELETE " + RecordingMcpServer.SESSION);
        }
    }

    /**
     * A stdio server (Node) that logs every line it receives, answers {@code initialize} and other requests,
     * never answers {@code tools/call} (it writes a marker file instead), starts a child ({@code sleep}) and keeps
     * running after its stdin ends, so that only a signal to its group ends it.
     */
    private static final String RECORDING_STDIO_SERVER = """
            const fs = require('fs');
            const [log, childPid, called] = process.argv.slice(2);
            const child = require('child_process').spawn('sleep', ['300'], {stdio: 'ignore'});
            fs.writeFileSync(childPid, String(child.pid));
            setInterval(() => {}, 1000);
            const out = o => process.stdout.write(JSON.stringify(o) + '\\n');
            require('readline').createInterface({input: process.stdin}).on('line', line => {
              fs.appendFileSync(log, line + '\\n');
              const m = JSON.parse(line);
              if (m.method === 'initialize') {
                out({jsonrpc: '2.0', id: m.id, result: {protocolVersion: m.params.protocolVersion,
                    capabilities: {tools: {}}, serverInfo: {name: 'recording', version: '1'}}});
              } else if (m.method === 'tools/call') {
                fs.writeFileSync(called, 'yes');
              } else if (m.id !== undefined && m.method) {
                out({jsonrpc: '2.0', id: m.id, result: {}});
              }
            });
            """;

    @ParameterizedTest
    @CsvSource({"INT, 130", "TERM, 143"})
    void aSignalDuringAStdioCallCancelsItAndEndsTheServersWholeProcessTree(String signal, int status,
            @TempDir Path dir) throws Exception {
        assumeFalse(ignoredHere(signal), "SIG" + signal + " is ignored in this process tree");
        Path script = Files.writeString(dir.resolve("server.js"), RECORDING_STDIO_SERVER);
        Path log = dir.resolve("log");
        Path childPid = dir.resolve("child");
        Path called = dir.resolve("called");
        String server = Stream.of("node", script.toString(), log.toString(), childPid.toString(), called.toString())
                .map(ShellWords::quote).collect(Collectors.joining(" "));
        List<String> command = CliProcess.javaJar("--stdio", server, "call", "slow");
        Process p = new ProcessBuilder(command).redirectInput(new File("/dev/null")).start();
        try {
            CompletableFuture<Run> run = CliProcess.collect(p, command);
            awaitFile(called);
            long serverPid = p.toHandle().children().findFirst().orElseThrow().pid();
            long child = Long.parseLong(Files.readString(childPid).strip());
            signal(p, signal);
            Run r = run.get(60, TimeUnit.SECONDS);
            assertThat(r.code()).as(r.err()).isEqualTo(status);
            assertThat(r.err()).contains("mcp: interrupted");
            assertThat(Files.readString(log)).contains("\"method\":\"notifications/cancelled\"");
            // the client's close ended the tree before the JVM exited
            assertThat(running(serverPid)).as("the server").isFalse();
            assertThat(running(child)).as("the server's child").isFalse();
        } finally {
            p.destroyForcibly().waitFor();
        }
    }

    /**
     * Whether a process runs: it exists and is not a zombie (an orphan that died is reaped by the container's init,
     * which may take its time).
     */
    private static boolean running(long pid) throws IOException {
        if (ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isEmpty()) {
            return false;
        }
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        try {
            String s = Files.readString(stat);
            return !s.substring(s.lastIndexOf(')') + 1).strip().startsWith("Z");
        } catch (java.nio.file.NoSuchFileException gone) {
            return false;
        }
    }

    /** Waits (at most 60 s) until a file exists. */
    private static void awaitFile(Path file) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(file)) {
            assertThat(System.nanoTime() - end).as("waiting for " + file).isNegative();
            Thread.sleep(50);
        }
    }
}
