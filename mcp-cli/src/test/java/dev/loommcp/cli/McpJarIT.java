package dev.loommcp.cli;

import static dev.loommcp.cli.CliProcess.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.loommcp.cli.CliProcess.Run;
import dev.loommcp.internal.json.Json;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.it.servers.ReferenceServer;
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

    /** {@code mcp-cli/mcp ARGS} with {@code XDG_CACHE_HOME} as given and {@code MCP_FAST_START} as given. */
    private static Run launcherWithCache(String cacheHome, String fastStart, String... args)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(CliProcess.viaLauncher(args));
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().put("XDG_CACHE_HOME", cacheHome);
        pb.environment().put("MCP_FAST_START", fastStart);
        return run(pb);
    }

    @Test
    void theLaunchersClassDataArchiveNeverChangesTheOutput(@TempDir Path dir) throws Exception {
        Run plain = launcherWithCache(dir.resolve("unused").toString(), "off", "--stdio", server(), "tools");
        assertThat(plain.code()).as(plain.err()).isZero();
        assertThat(plain.out()).contains("echo");
        Path cache = dir.resolve("cache");
        // first run (the archive is made at exit), second run (it is used), an unwritable cache dir (a path under
        // a regular file: mkdir fails even for root)
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        for (String cacheHome : List.of(cache.toString(), cache.toString(), file.resolve("sub").toString())) {
            Run r = launcherWithCache(cacheHome, "on", "--stdio", server(), "tools");
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(r.out()).isEqualTo(plain.out());
            assertThat(r.err()).isEmpty();
        }
        List<Path> archives;
        try (var s = Files.list(cache.resolve("loom-mcp"))) {
            // the CLI's era verdicts (era-verdicts.json) share the directory
            archives = s.filter(a -> !a.getFileName().toString().equals("era-verdicts.json")).toList();
        }
        assertThat(archives).singleElement().satisfies(a -> assertThat(a.toString()).endsWith(".jsa"));
        // a corrupt archive (not an archive at all), then a truncated one (a run killed while writing it)
        byte[] good = Files.readAllBytes(archives.get(0));
        for (byte[] bad : List.of("garbage".getBytes(), java.util.Arrays.copyOf(good, good.length / 3))) {
            Files.write(archives.get(0), bad);
            Run r = launcherWithCache(cache.toString(), "on", "--stdio", server(), "tools");
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(r.out()).isEqualTo(plain.out());
            assertThat(r.err()).isEmpty();
        }
    }

    @Test
    void aDeadServerExitsThreeWithItsCodeAndStderr() throws Exception {
        Run r = java("--stdio", "sh -c 'echo boom >&2; exit 7'", "tools");
        assertThat(r.code()).isEqualTo(3);
        assertThat(r.err()).contains("exited with code 7").contains("boom");
    }
}
