package dev.loommcp.cli;

import static dev.loommcp.cli.CliProcess.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.cli.CliProcess.Run;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.it.servers.ModernFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27 item 1 through the real {@code java -jar mcp.jar}: each run is a new JVM, so AUTO's era verdict is kept
 * in {@code $XDG_CACHE_HOME/loom-mcp/era-verdicts.json}. Against a 2025 server that exits on the probe, the first
 * run starts it twice (the probe ended the first process), a later run once (the kept verdict: initialize at once),
 * and {@code --protocol legacy} once without touching the cache. The server runs under a wrapper that appends a line
 * per start to a file.
 */
@ExtendWith(LeakCheck.class)
class CliEraCacheIT {

    @TempDir
    Path dir;

    private String countedServer(Path log) {
        List<String> argv = new ArrayList<>(List.of("sh", "-c", "echo start >> \"$0\"; exec \"$@\"",
                log.toString()));
        argv.addAll(ModernFixture.exitingLegacyCommand());
        return argv.stream().map(ShellWords::quote).collect(Collectors.joining(" "));
    }

    private Run mcp(Path cache, String... args) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(CliProcess.javaJar(args));
        pb.environment().put("XDG_CACHE_HOME", cache.toString());
        return run(pb);
    }

    private static long starts(Path log) throws Exception {
        return Files.exists(log) ? Files.readAllLines(log).size() : 0;
    }

    @Test
    void aVerdictKeptByOneRunSavesTheNextRunTheProbe() throws Exception {
        Path cache = dir.resolve("cache");
        Path log = dir.resolve("starts.log");
        String server = countedServer(log);

        Run first = mcp(cache, "--stdio", server, "tools");
        assertThat(first.code()).as(first.err()).isZero();
        assertThat(first.out()).contains("echo");
        assertThat(starts(log)).as("the probe ended the first process").isEqualTo(2);

        Path file = cache.resolve("loom-mcp").resolve("era-verdicts.json");
        assertThat(file).isRegularFile();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())))
                .isEqualTo("rwx------");
        assertThat(Files.readString(file)).contains("\"legacy\"").doesNotContain("legacy-stdio")
                .doesNotContain(log.toString());

        Run second = mcp(cache, "--stdio", server, "tools");
        assertThat(second.code()).as(second.err()).isZero();
        assertThat(starts(log)).as("the kept verdict: one process, initialize first").isEqualTo(3);

        Files.writeString(file, "{ not json");
        Run corrupt = mcp(cache, "--stdio", server, "tools");
        assertThat(corrupt.code()).as("a corrupt cache is ignored: " + corrupt.err()).isZero();
        assertThat(starts(log)).as("probed again").isEqualTo(5);
        assertThat(Files.readString(file)).contains("\"legacy\"");
    }

    @Test
    void protocolLegacyPinsTheEraWithoutTheCache() throws Exception {
        Path cache = dir.resolve("cache");
        Path log = dir.resolve("starts.log");
        Run r = mcp(cache, "--stdio", countedServer(log), "--protocol", "legacy", "tools");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(starts(log)).isEqualTo(1);
        assertThat(cache.resolve("loom-mcp").resolve("era-verdicts.json")).doesNotExist();
    }
}
