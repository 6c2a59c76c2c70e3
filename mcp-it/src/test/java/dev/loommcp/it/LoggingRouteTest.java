package dev.loommcp.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.McpClient;
import dev.loommcp.McpException;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.transport.stdio.StdioTransport;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SDK's log lines go wherever the application routes {@code System.Logger} (docs/logging.md): a child JVM with
 * SLF4J's JDK platform-logging bridge and slf4j-simple on its class path (the jars a user adds; the build copies them
 * to {@code target/logging-route}) connects to a server that writes a line that is not JSON on its stdout. The
 * WARNING the stdio transport logs for it arrives through SLF4J (slf4j-simple's format, the logger's name
 * {@code dev.loommcp.transport.stdio}), not through {@code java.util.logging}'s console handler.
 */
@ExtendWith(LeakCheck.class)
class LoggingRouteTest {

    @Test
    void theSdksLogLinesReachTheSlf4jBackendAUserRoutesSystemLoggerTo(@TempDir Path dir) throws Exception {
        Path jars = Path.of("target", "logging-route");
        List<String> route;
        try (Stream<Path> s = Files.list(jars)) {
            route = s.map(Path::toString).filter(p -> p.endsWith(".jar")).sorted().toList();
        }
        assertThat(route).as("the build copies the two SLF4J jars to %s", jars).hasSize(2);
        // this JVM's class path less any other SLF4J provider (a second provider would make SLF4J pick one)
        List<String> classPath = new ArrayList<>(Arrays.stream(System.getProperty("java.class.path")
                .split(File.pathSeparator)).filter(p -> !p.contains("slf4j-nop")).toList());
        classPath.addAll(route);
        Path err = dir.resolve("child.err");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", String.join(File.pathSeparator, classPath), Child.class.getName())
                .redirectInput(new File("/dev/null")).redirectOutput(dir.resolve("child.out").toFile())
                .redirectError(err.toFile()).start();
        try {
            assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("the child ends").isTrue();
        } finally {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        String stderr = Files.readString(err);
        assertThat(child.exitValue()).as(stderr).isZero();
        // slf4j-simple: "[thread] WARN logger.name - message"; the JDK's console handler would write "WARNING: ..."
        assertThat(stderr.lines().filter(l -> l.contains(" WARN dev.loommcp.transport.stdio - "))
                .collect(Collectors.toList())).as(stderr).isNotEmpty();
        assertThat(stderr).as("nothing went to java.util.logging").doesNotContain("WARNING:");
    }

    /** The child: one connect to a server whose first stdout line is not JSON (it then exits). */
    static final class Child {
        public static void main(String[] args) throws InterruptedException {
            try (McpClient client = McpClient.newBuilder(StdioTransport.newBuilder("sh", "-c",
                            "echo 'this is not JSON'; read line; exit 0").build())
                    .protocolMode(ProtocolMode.LEGACY)
                    .connectTimeout(Duration.ofSeconds(20))
                    .build()) {
                client.connect();
            } catch (McpException expected) {
                // the server exits after the first request: the connect fails, the WARNING was logged before
            }
        }
    }
}
