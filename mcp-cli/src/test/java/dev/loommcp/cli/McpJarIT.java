package dev.loommcp.cli;

import static dev.loommcp.cli.CliProcess.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.loommcp.cli.CliProcess.Run;
import dev.loommcp.internal.json.Json;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testkit.ReferenceServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged {@code mcp-cli/target/mcp.jar}, run for real with {@code java -jar} (failsafe runs this after
 * {@code package}): the shaded jar starts, finds its Main-Class, and has working Jackson and JSON Schema validator
 * resources.
 */
@ExtendWith(LeakCheck.class)
class McpJarIT {

    private static Run java(String... args) throws IOException, InterruptedException {
        return run(new ProcessBuilder(CliProcess.javaJar(args)));
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

    /** Runs the launcher script {@code mcp-cli/mcp} with {@code JAVA_HOME} set as given ({@code null}: unset). */
    private static Run launcher(String javaHome, String... args) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(CliProcess.viaLauncher(args));
        if (javaHome == null) {
            pb.environment().remove("JAVA_HOME");
        } else {
            pb.environment().put("JAVA_HOME", javaHome);
        }
        return run(pb);
    }

    @Test
    void theLauncherRunsTheJarOnJavaHome() throws Exception {
        Run r = launcher(System.getProperty("java.home"), "--version");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("mcp (loom-mcp CLI) 0.1.0").contains("Java " + Runtime.version() + " ");
    }

    @Test
    void theLauncherFindsAJdk21WhenJavaHomeIsUnsetOrTooOld(@TempDir Path fakeJdk) throws Exception {
        // a JAVA_HOME whose java is too old (it says 17) is passed over like a missing one
        Path java = Files.createDirectories(fakeJdk.resolve("bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\necho '    java.specification.version = 17' >&2\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        for (String javaHome : new String[] {null, fakeJdk.toString()}) {
            Run r = launcher(javaHome, "--version");
            assumeFalse(r.code() != 0 && r.err().contains("needs a JDK 21 or newer"),
                    "no JDK 21+ outside JAVA_HOME on this machine");
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(r.out()).startsWith("mcp (loom-mcp CLI) 0.1.0");
            int feature = Integer.parseInt(r.out().lines().skip(1).findFirst().orElseThrow()
                    .replaceFirst("^Java (\\d+).*", "$1"));
            assertThat(feature).isGreaterThanOrEqualTo(21);
        }
    }

    /** Runs {@code bash mcp-cli/mcp ARGS} with the given extra environment. */
    private static Run launcherWith(Map<String, String> env, String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("bash", CliProcess.launcher().toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().putAll(env);
        return run(pb);
    }

    private static List<Path> archives(Path cache) throws IOException {
        Path dir = cache.resolve("loom-mcp");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (var files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".jsa")).toList();
        }
    }

    /**
     * The launcher's class-data archive: written on the first run into the cache directory, used by the next, and
     * never a reason for a different stdout or a failure: a corrupt archive, a cache that cannot be a directory and
     * {@code MCP_CDS=0} all give the same output as {@code java -jar}.
     */
    @Test
    void theLaunchersClassDataCacheNeverChangesWhatACommandPrints(@TempDir Path tmp) throws Exception {
        Run plain = java("--stdio", server(), "tools");
        assertThat(plain.code()).as(plain.err()).isZero();
        Path cache = tmp.resolve("cache");
        Map<String, String> env = Map.of("XDG_CACHE_HOME", cache.toString());
        Run first = launcherWith(env, "--stdio", server(), "tools");
        assertThat(first.code()).as(first.err()).isZero();
        assertThat(first.out()).isEqualTo(plain.out());
        assertThat(first.err()).isEmpty();
        assertThat(archives(cache)).as("archive written by the first run").hasSize(1);
        Run second = launcherWith(env, "--stdio", server(), "tools");
        assertThat(second.out()).isEqualTo(plain.out());
        assertThat(second.err()).isEmpty();

        Files.write(archives(cache).get(0), new byte[] {1, 2, 3, 4, 5, 6, 7, 8}); // corrupt: the JVM runs without it
        Run corrupt = launcherWith(env, "--stdio", server(), "tools");
        assertThat(corrupt.code()).as(corrupt.err()).isZero();
        assertThat(corrupt.out()).isEqualTo(plain.out());

        Path notADirectory = Files.writeString(tmp.resolve("file"), "x"); // the cache cannot be made: no archive
        Run noCache = launcherWith(Map.of("XDG_CACHE_HOME", notADirectory.toString()), "--stdio", server(), "tools");
        assertThat(noCache.code()).as(noCache.err()).isZero();
        assertThat(noCache.out()).isEqualTo(plain.out());
        assertThat(noCache.err()).isEmpty();

        Path offCache = tmp.resolve("off");
        Run off = launcherWith(Map.of("XDG_CACHE_HOME", offCache.toString(), "MCP_CDS", "0"), "--stdio", server(),
                "tools");
        assertThat(off.out()).isEqualTo(plain.out());
        assertThat(archives(offCache)).as("MCP_CDS=0 writes no archive").isEmpty();
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
