package dev.loommcp.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.OwnedProcesses;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bad command lines given to the harness, through its real {@code main} in a fresh JVM the way {@code scripts/bench.sh}
 * starts it: each ends at once with exit status 2 and one line on stderr that names what was wrong, no stack trace,
 * nothing on stdout, and no benchmark started.
 */
@ExtendWith(LeakCheck.class)
class BenchArgsTest {

    @RegisterExtension
    final OwnedProcesses processes = new OwnedProcesses();

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--rounds abc          | --rounds wants a whole number of at least 1, not \"abc\"",
        "--rounds 0            | --rounds wants a whole number of at least 1, not \"0\"",
        "--rounds -1           | --rounds wants a whole number of at least 1, not \"-1\"",
        "--rounds              | --rounds needs a value",
        "--full --rounds --check | --rounds needs a value",
        "--clients             | --clients needs a value",
        "--clients raw,,loom   | has an empty name; known: raw,",
        "--clients raw,raw     | --clients names raw twice",
        "--clients nosuch      | unknown client nosuch; known:",
        "--clients ts-nosuch   | unknown client ts-nosuch; the TypeScript ones",
        "--server nosuch       | unknown server nosuch; known: java, java-c2",
        "--jfr                 | --jfr needs a value",
        "--bogus               | unknown argument --bogus (try --help)",
        "--short               | --short and --after-build go with --compare-with DIR",
        "--compare-with        | --compare-with needs a value",
        "--compare-with /nonexistent-bench-build | /nonexistent-bench-build has no lib/ directory",
        "--compare-with /tmp --clients raw | it takes no --clients, --eras, --json or --jfr",
    })
    void aBadCommandLineEndsWithOneClearLine(String argLine, String expected) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Bench.class.getName()));
        cmd.addAll(List.of(argLine.trim().split(" +")));
        Process p = processes.start(new ProcessBuilder(cmd));
        try {
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(err).isEqualTo(2);
            assertThat(out).isEmpty();
            assertThat(err).startsWith("mcp-bench: ").contains(expected).doesNotContain("\tat ");
            assertThat(err.strip().lines().count()).as(err).isEqualTo(1);
        } catch (IOException | AssertionError | InterruptedException e) {
            p.destroyForcibly().waitFor();
            throw e;
        }
    }
}
