package dev.loommcp.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.OwnedProcesses;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fresh JVM connects, calls a tool and lists the tools over stdio and HTTP, in both eras, without ever building
 * Jackson's data-binding mapper: on a cold JVM that costs 300 to 400 ms, which the handshake (client capabilities and
 * info, the modern envelope, {@code server/discover}), {@code tools/call} and the common {@code tools/list} must not
 * pay (see docs/benchmarks.md, "Warm-up"). Judged from the JVM's own class-loading log.
 */
@ExtendWith(LeakCheck.class)
class ColdPathTest {

    @RegisterExtension
    final OwnedProcesses processes = new OwnedProcesses();

    @Test
    void connectCallAndListNeverLoadTheDataBindingMapper(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("classes.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("java.class.path");
        List<String> cmd = new ArrayList<>(List.of(java, "-Xlog:class+load:file=" + log, "-cp", classpath,
                ColdPathProbe.class.getName()));
        cmd.addAll(List.of(java, "-XX:TieredStopAtLevel=1", "-cp", classpath, EchoServer.class.getName(), "--dual"));
        Path out = dir.resolve("probe.out");
        Process probe = processes.start(new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()));
        probe.getOutputStream().close();
        boolean ended = probe.waitFor(60, TimeUnit.SECONDS);
        if (!ended) {
            probe.descendants().forEach(ProcessHandle::destroyForcibly);
            probe.destroyForcibly().waitFor();
        }
        String output = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(ended).as("the probe ends within 60 s: " + output).isTrue();
        assertThat(probe.exitValue()).as(output).isZero();
        assertThat(output).contains("probe done");

        List<String> loaded = Files.readAllLines(log);
        assertThat(loaded).as("the log names the classes the probe used")
                .anyMatch(l -> l.contains(" dev.loommcp.internal.json.FastResults "))
                .anyMatch(l -> l.contains(" dev.loommcp.transport.http.HttpTransport "));
        assertThat(loaded).as("no data-binding mapper was built")
                .noneMatch(l -> l.contains(" tools.jackson.databind.ObjectMapper "))
                .noneMatch(l -> l.contains(" dev.loommcp.internal.json.Json$Holder "));
    }
}
