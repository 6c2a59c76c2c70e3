package dev.loommcp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.internal.json.Json;
import dev.loommcp.testkit.LeakCheck;
import dev.loommcp.testkit.ReferenceServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The packaged {@code mcp-cli/target/mcp.jar}, run for real with {@code java -jar} (failsafe runs this after
 * {@code package}): the shaded jar starts, finds its Main-Class, and has working Jackson and JSON Schema validator
 * resources.
 */
@ExtendWith(LeakCheck.class)
class McpJarIT {

    record Run(int code, String out, String err) {
    }

    private static Run java(String... args) throws IOException, InterruptedException {
        Path jar = Path.of(System.getProperty("loommcp.cli.jar", "target/mcp.jar"));
        assertThat(jar).exists();
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-jar");
        command.add(jar.toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("java -jar mcp.jar did not finish within 120 s: " + command);
        }
        return new Run(p.exitValue(), out.join(), err.join());
    }

    private static String read(java.io.InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The {@code --stdio} value that starts the reference server over stdio, loopback only. */
    static String server() {
        return ReferenceServer.stdioCommand().stream().map(ShellWords::quote).collect(Collectors.joining(" "));
    }

    @Test
    void helpRuns() throws Exception {
        Run r = java("--help");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("Usage: mcp").contains("Exit codes:");
        Run v = java("--version");
        assertThat(v.code()).isZero();
        assertThat(v.out()).startsWith("mcp (loom-mcp CLI) 0.1.0");
    }

    @Test
    void callsEchoOnTheReferenceServer() throws Exception {
        Run r = java("--stdio", server(), "call", "echo", "{\"message\":\"hi\"}");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("Echo: hi\n");
        assertThat(r.err()).isEmpty();
    }

    @Test
    void jsonAndSchemaValidationWorkInTheShadedJar() throws Exception {
        Run tools = java("--stdio", server(), "--json", "tools");
        assertThat(tools.code()).as(tools.err()).isZero();
        assertThat(((Map<?, ?>) Json.read(tools.out())).get("tools")).isInstanceOf(List.class);

        // the output schema is compiled and checked with the JSON Schema validator; any trouble would be logged
        Run validated = java("--stdio", server(), "call", "--validate", "get-structured-content",
                "{\"location\":\"New York\"}");
        assertThat(validated.code()).as(validated.err()).isZero();
        assertThat(validated.out()).contains("structuredContent:");
        assertThat(validated.err()).isEmpty();
    }

    @Test
    void aDeadServerExitsThreeWithItsCodeAndStderr() throws Exception {
        Run r = java("--stdio", "sh -c 'echo boom >&2; exit 7'", "tools");
        assertThat(r.code()).isEqualTo(3);
        assertThat(r.err()).contains("exited with code 7").contains("boom");
    }
}
