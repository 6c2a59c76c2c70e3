package dev.loommcp.cli;

import static dev.loommcp.cli.CliProcess.posixLocale;
import static dev.loommcp.cli.CliProcess.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.cli.CliProcess.Run;
import dev.loommcp.testing.LeakCheck;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code main} path ({@code java -jar mcp.jar} and the launcher {@code mcp-cli/mcp}, in a child process,
 * ending in {@code System.exit}): what is printed right before the exit reaches the terminal, and non-ASCII
 * arguments in a C/POSIX locale either arrive exactly or are refused.
 */
@ExtendWith(LeakCheck.class)
class CliRealMainIT {

    /** Non-ASCII text of every width: Latin, CJK, an emoji outside the BMP. */
    private static final String TEXT = "é 日本語 \uD83D\uDE00";

    // ------------------------------------------------------------------------------------------------ stderr at exit

    @Test
    void theNoteAfterAnIsErrorResultIsPrintedBeforeTheExit() throws Exception {
        Run r = run(new ProcessBuilder(CliProcess.javaJar("--stdio", McpJarIT.server(), "call", "no-such-tool")));
        assertThat(r.code()).as(r.err()).isEqualTo(1);
        assertThat(r.out()).contains("no-such-tool");
        assertThat(r.err()).isEqualTo("mcp: tool 'no-such-tool' returned an error result (isError: true)\n");
    }

    /** Output that cannot be written (a full disk here: /dev/full) is a failure with a message, never exit 0. */
    @Test
    void outputThatCannotBeWrittenIsAFailureNotASuccess() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(CliProcess.javaJar("--stdio", McpJarIT.server(), "call", "echo",
                "{\"message\":\"hello\"}")).redirectOutput(new java.io.File("/dev/full"));
        Run r = run(pb);
        assertThat(r.code()).as(r.err()).isEqualTo(3);
        assertThat(r.err()).contains("mcp: the output could not be written");
    }

    @Test
    void theConformanceUsageMessageIsPrintedBeforeTheExit() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(CliProcess.javaJar("conformance", "http://127.0.0.1:9/mcp"));
        pb.environment().remove("MCP_CONFORMANCE_SCENARIO");
        Run r = run(pb);
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).startsWith("mcp: MCP_CONFORMANCE_SCENARIO is not set");
    }

    @Test
    void messagesOfEveryKindOfExitArePrinted() throws Exception {
        // a usage error, a transport failure and an RPC error: each ends in System.exit with its message out
        Run usage = run(new ProcessBuilder(CliProcess.javaJar("--stdio", "true", "call", "echo", "[1]")));
        assertThat(usage.code()).isEqualTo(2);
        assertThat(usage.err()).contains("must be a JSON object").endsWith("Try 'mcp --help' for more information.\n");
        Run dead = run(new ProcessBuilder(CliProcess.javaJar("--stdio", "sh -c 'exit 3'", "ping")));
        assertThat(dead.code()).isEqualTo(3);
        assertThat(dead.err()).contains("exited with code 3");
        Run rpc = run(new ProcessBuilder(CliProcess.javaJar("--stdio", McpJarIT.server(), "prompt", "no-such")));
        assertThat(rpc.code()).isEqualTo(4);
        assertThat(rpc.err()).startsWith("mcp: ");
    }

    // ------------------------------------------------------------------------------------------------ C locale

    @Test
    void theLauncherPassesNonAsciiArgumentsExactlyInThePosixLocale() throws Exception {
        Run r = run(posixLocale(CliProcess.viaLauncher("--stdio", McpJarIT.server(), "call", "echo",
                "{\"message\":\"" + TEXT + "\"}")));
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("Echo: " + TEXT + "\n");
    }

    @Test
    void theLauncherPassesANonAsciiStdioCommandLineExactlyInThePosixLocale(@TempDir Path dir) throws Exception {
        // the child writes its argument to a file as bytes: what arrives is what the command line said
        Path file = dir.resolve("arg");
        Run r = run(posixLocale(CliProcess.viaLauncher("--stdio",
                "sh -c 'printf %s \"$1\" > \"$2\"; exit 7' sh '" + TEXT + "' " + ShellWords.quote(file.toString()),
                "ping")));
        assertThat(r.code()).as(r.err()).isEqualTo(3);
        assertThat(Files.readString(file, StandardCharsets.UTF_8)).isEqualTo(TEXT);
    }

    @Test
    void javaJarRefusesArgumentsItCouldNotDecodeNamingTheFixes() throws Exception {
        Run r = run(posixLocale(CliProcess.javaJar("--stdio", McpJarIT.server(), "call", "echo",
                "{\"message\":\"" + TEXT + "\"}")));
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).startsWith("mcp: argument 5 has characters that this JVM could not decode")
                .contains("LC_ALL=C.UTF-8").contains("mcp-cli/mcp").contains("'-'");
    }

    @Test
    void javaJarReadsNonAsciiJsonFromStdinInThePosixLocale(@TempDir Path dir) throws Exception {
        Path input = Files.writeString(dir.resolve("args.json"), "{\"message\":\"" + TEXT + "\"}",
                StandardCharsets.UTF_8);
        ProcessBuilder pb = posixLocale(CliProcess.javaJar("--stdio", McpJarIT.server(), "call", "echo", "-"));
        Process p = pb.redirectInput(input.toFile()).start();
        Run r = CliProcess.run(p, pb.command());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("Echo: " + TEXT + "\n");
    }

    @Test
    void javaJarRefusesToPassOnAVariableItCouldNotDecode() throws Exception {
        ProcessBuilder pb = posixLocale(CliProcess.javaJar("--stdio", "true", "--env", "LOOM_TEXT", "ping"));
        pb.environment().put("LOOM_TEXT", TEXT);
        Run r = run(pb);
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).startsWith("mcp: --env number 1: the variable's value has characters this JVM could not "
                + "decode").doesNotContain(TEXT);
    }

    // ------------------------------------------------------------------------------------------------ bad input

    /**
     * Issue 26 item 20: invalid UTF-8 on stdin was decoded to U+FFFD and sent; it is refused like an argument the JVM
     * could not decode, saying where.
     */
    @Test
    void invalidUtf8OnStdinIsRefusedNotSent(@TempDir Path dir) throws Exception {
        byte[] start = "{\"message\":\"".getBytes(StandardCharsets.UTF_8);
        byte[] bad = java.util.Arrays.copyOf(start, start.length + 3);
        System.arraycopy(new byte[] {(byte) 0xff, '"', '}'}, 0, bad, start.length, 3);
        Path input = Files.write(dir.resolve("args.json"), bad);
        ProcessBuilder pb = new ProcessBuilder(CliProcess.javaJar("--stdio", "true", "call", "echo", "-"));
        Run r = CliProcess.run(pb.redirectInput(input.toFile()).start(), pb.command());
        assertThat(r.code()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).startsWith("mcp: the tool arguments on stdin are not valid UTF-8: byte 0xff at line 1, "
                + "column 13 (byte offset 12)").doesNotContain("\uFFFD");
        // the prompt arguments read stdin through the same path
        ProcessBuilder prompt = new ProcessBuilder(CliProcess.javaJar("--stdio", "true", "prompt", "p", "-"));
        Run p = CliProcess.run(prompt.redirectInput(input.toFile()).start(), prompt.command());
        assertThat(p.code()).as(p.err()).isEqualTo(2);
        assertThat(p.err()).startsWith("mcp: the prompt arguments on stdin are not valid UTF-8: byte 0xff");
    }

    /**
     * Issue 26 item 21: a JSON error in the arguments (argv or stdin) or in an mcpServers file says where (line,
     * column) and what in words, never the parser's internals ({@code StreamReadFeature...}).
     */
    @Test
    void jsonErrorsInArgumentsAndConfigSayWhereInWords(@TempDir Path dir) throws Exception {
        Run argv = run(new ProcessBuilder(CliProcess.javaJar("--stdio", "true", "call", "echo", "{\"message\":1,}")));
        assertThat(argv.code()).isEqualTo(2);
        assertThat(argv.err()).startsWith("mcp: the tool arguments are not valid JSON: line 1, column 14: expected a "
                + "name in double quotes, found '}' (a ',' before a closing '}' is not allowed)\n");
        Path input = Files.writeString(dir.resolve("args.json"), "{\n  \"message\": \"hi\"\n", StandardCharsets.UTF_8);
        ProcessBuilder pb = new ProcessBuilder(CliProcess.javaJar("--stdio", "true", "call", "echo", "-"));
        Run stdin = CliProcess.run(pb.redirectInput(input.toFile()).start(), pb.command());
        assertThat(stdin.code()).isEqualTo(2);
        assertThat(stdin.err()).startsWith("mcp: the tool arguments are not valid JSON: line 3, column 1: the text "
                + "ends inside an object (a closing '}' is missing)\n");
        Path config = Files.writeString(dir.resolve("mcp.json"), "{\"mcpServers\": {\n  \"s\": {\"command\": "
                + "\"true\"}\n  \"t\": {\"command\": \"true\"}\n}}\n", StandardCharsets.UTF_8);
        Run file = run(new ProcessBuilder(CliProcess.javaJar("--config", config.toString(), "servers")));
        assertThat(file.code()).isEqualTo(2);
        assertThat(file.err()).startsWith("mcp: --config mcp.json: not valid JSON: line 3, column 3: expected ',' or "
                + "'}' after a value, found '\"'\n");
        for (Run r : java.util.List.of(argv, stdin, file)) {
            assertThat(r.err()).doesNotContain("Feature").doesNotContain("`").doesNotContain("JsonToken")
                    .doesNotContain("REDACTED");
        }
    }

    // ------------------------------------------------------------------------------------------------ closed pipe

    /** Runs {@code bash -c SCRIPT} and returns what it printed (the script echoes mcp's status from PIPESTATUS). */
    private static Run bash(String script) throws Exception {
        return run(new ProcessBuilder("bash", "-c", script));
    }

    private static String jarCommand(String... args) {
        return CliProcess.javaJar(args).stream().map(ShellWords::quote)
                .collect(java.util.stream.Collectors.joining(" "));
    }

    /**
     * Issue 26 item 19: a pipe whose reader went away ({@code | true} reads nothing and exits at once, so the write
     * always finds it gone) ended the command with exit 3 and a message; it ends quietly with 141, as SIGPIPE ends a
     * Unix tool, for a one-shot command and for stderr too.
     */
    @Test
    void aClosedStdoutPipeEndsAOneShotCommandQuietlyWith141() throws Exception {
        Run out = bash(jarCommand("--stdio", McpJarIT.server(), "tools") + " | true; echo \"mcp=${PIPESTATUS[0]}\"");
        assertThat(out.out()).as(out.err()).isEqualTo("mcp=141\n");
        assertThat(out.err()).isEmpty();
        // stderr closed the same way (its only writing here is the error of a failed connection)
        Run err = bash("{ " + jarCommand("--stdio", "sh -c 'exit 3'", "ping") + " 2>&1 1>/dev/null | true; } ; "
                + "echo \"mcp=${PIPESTATUS[0]}\"");
        assertThat(err.out()).as(err.err()).isEqualTo("mcp=141\n");
    }

    /**
     * Issue 26 item 19, the streaming case: {@code listen | head -2} ends at the first note after head has gone
     * (the command is stopped, its client closed and the server ended), quietly with 141.
     */
    @Test
    void aClosedStdoutPipeEndsListenQuietlyWith141(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("log");
        Run r = bash(jarCommand("--stdio", CliListenIT.notifier(log, null), "listen") + " | head -2; "
                + "echo \"mcp=${PIPESTATUS[0]}\"");
        assertThat(r.out()).as(r.err()).endsWith("mcp=141\n");
        assertThat(r.out().lines().count()).isEqualTo(3);
        // what it said before the pipe closed, nothing after
        assertThat(r.err().lines()).allMatch(l -> l.startsWith("mcp: listening for")
                || l.startsWith("mcp: the server refused"), r.err());
    }

    // ------------------------------------------------------------------------------------------------ timeout

    /**
     * Issue 26 item 22: after {@code --timeout 1s} the CLI waited out the stdio transport's graces (2 s after EOF,
     * 2 s after SIGTERM) for a server that works on and ignores both, ending 4 s or more after the timeout. It now
     * ends the server with short graces: the whole run after the call reached the server stays under 3.5 s, where
     * the full graces alone take 4 s after the 1 s timeout (a bound that tells the two paths apart on a loaded
     * machine, not a speed measurement). The server is still ended in full: it is gone when the CLI has exited.
     */
    @Test
    void aTimedOutCallOverStdioEndsSoonAndItsServerIsEndedInFull(@TempDir Path dir) throws Exception {
        Path script = Path.of(java.util.Objects.requireNonNull(CliRealMainIT.class.getResource("busy-server.js"))
                .toURI());
        Path pidFile = dir.resolve("pid");
        String server = "node " + ShellWords.quote(script.toString()) + " " + ShellWords.quote(pidFile.toString());
        ProcessBuilder pb = new ProcessBuilder(CliProcess.javaJar("--timeout", "1s", "--stdio", server, "call",
                "work")).redirectInput(new java.io.File("/dev/null"));
        Process p = pb.start();
        try {
            java.util.concurrent.CompletableFuture<Run> run = CliProcess.collect(p, pb.command());
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
            while (!(Files.exists(pidFile) && Files.readString(pidFile).contains("call"))) {
                assertThat(System.nanoTime() - deadline).as("the call reached the server").isNegative();
                Thread.sleep(5);
            }
            long callArrived = System.nanoTime();
            Run r = run.get(60, java.util.concurrent.TimeUnit.SECONDS);
            long millis = java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - callArrived);
            assertThat(r.code()).as(r.err()).isEqualTo(5);
            assertThat(r.err()).contains("--timeout 1s");
            assertThat(millis).as("ms from the call's arrival to the CLI's exit").isLessThan(3500);
            long pid = Long.parseLong(Files.readAllLines(pidFile).getFirst().strip());
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("server gone").isFalse();
        } finally {
            p.destroyForcibly().waitFor();
            if (Files.exists(pidFile)) {
                ProcessHandle.of(Long.parseLong(Files.readAllLines(pidFile).getFirst().strip()))
                        .ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }
}
