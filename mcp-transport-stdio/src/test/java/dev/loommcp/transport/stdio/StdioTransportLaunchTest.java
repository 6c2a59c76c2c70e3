package dev.loommcp.transport.stdio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpTransportException;
import dev.loommcp.Deadline;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.OwnedProcesses;
import dev.loommcp.testing.RecordingSink;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Launch configuration: validation at build time, program resolution, the child's environment. */
@ExtendWith(LeakCheck.class)
@Timeout(120)
class StdioTransportLaunchTest {

    @RegisterExtension
    final OwnedProcesses processes = new OwnedProcesses();

    private static final String SECRET = "s3cr3t-value-never-printed";

    @Test
    void infoIsAPipeWithoutAddressAndThereIsNoSession() {
        try (StdioTransport t = StdioTransport.newBuilder("sh", "-c", "exit 0").build()) {
            assertThat(t.info()).isEqualTo(dev.loommcp.spi.TransportInfo.pipe());
            assertThat(t.info().kind()).isEqualTo(dev.loommcp.spi.TransportInfo.Kind.PIPE);
            assertThat(t.sessionId()).isEmpty();
        }
    }

    @Test
    void timeoutsBeyondTheMaximumAreRefusedAtBuildTime() {
        Duration huge = Duration.ofSeconds(Long.MAX_VALUE);
        for (var setter : List.<java.util.function.Consumer<StdioTransport.Builder>>of(
                b -> b.startupTimeout(huge), b -> b.stdinCloseGrace(huge), b -> b.terminateGrace(huge),
                b -> b.killGrace(huge))) {
            org.assertj.core.api.Assertions.assertThatThrownBy(
                            () -> setter.accept(StdioTransport.newBuilder("sh", "-c", "exit 0")))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most 365 days");
        }
        StdioTransport.newBuilder("sh", "-c", "exit 0").startupTimeout(StdioTransport.MAX_DURATION).build().close();
    }

    @Test
    void resolvesTheProgramOnPathAtBuildTime() {
        StdioTransport t = StdioTransport.newBuilder("sh", "-c", "exit 0").build();
        assertThat(t.executable()).isAbsolute();
        assertThat(Files.isExecutable(t.executable())).isTrue();
        assertThat(t.executable().getFileName().toString()).isEqualTo("sh");
        assertThat(t.command()).containsExactly(t.executable().toString(), "-c", "exit 0");
        assertThat(t.programName()).isEqualTo("sh");
        assertThat(t.describe()).isEqualTo("sh");
        assertThat(t.usesProcessGroup()).isTrue();
        assertThat(t.maxMessageBytes()).isEqualTo(StdioTransport.DEFAULT_MAX_MESSAGE_BYTES);
        assertThat(t.stderrBufferBytes()).isEqualTo(64 * 1024);
        assertThat(t.startupTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(List.of(t.stdinCloseGrace(), t.terminateGrace(), t.killGrace()))
                .containsOnly(Duration.ofSeconds(2));
        t.close();
    }

    @Test
    void programNotFoundIsAClearErrorNamingIt() {
        assertThatThrownBy(() -> StdioTransport.newBuilder("loommcp-no-such-program-42").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("loommcp-no-such-program-42")
                .hasMessageContaining("not found on PATH")
                .hasMessageNotContaining(System.getenv("PATH"));
        assertThatThrownBy(() -> StdioTransport.newBuilder("/nonexistent/dir/server").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("/nonexistent/dir/server")
                .hasMessageContaining("not found");
    }

    @Test
    void programNotExecutableIsADistinctError(@TempDir Path tmp) throws IOException {
        Path file = tmp.resolve("myserver");
        Files.writeString(file, "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> StdioTransport.newBuilder(file.toString()).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("myserver")
                .hasMessageContaining("not executable")
                .hasMessageNotContaining("not found");
        // found through PATH (the child's PATH, set by the caller) but not executable
        assertThatThrownBy(() -> StdioTransport.newBuilder("myserver").putEnvironment("PATH", tmp.toString())
                .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("program myserver is not executable");
        // a directory is not a program
        assertThatThrownBy(() -> StdioTransport.newBuilder(tmp.toString()).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is a directory");
    }

    @Test
    void programIsResolvedOnTheChildsPathWhenTheCallerSetsOne(@TempDir Path tmp) throws IOException {
        Path file = tmp.resolve("only-here");
        Files.writeString(file, "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        StdioTransport t = StdioTransport.newBuilder("only-here").putEnvironment("PATH", tmp.toString()).build();
        assertThat(t.executable()).isEqualTo(file.toAbsolutePath());
    }

    @Test
    void relativeProgramPathIsTakenFromTheWorkingDirectory(@TempDir Path tmp) throws IOException {
        Files.createDirectories(tmp.resolve("bin"));
        Path file = tmp.resolve("bin/srv");
        Files.writeString(file, "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        StdioTransport t = StdioTransport.newBuilder("./bin/srv").workingDirectory(tmp).build();
        assertThat(t.executable()).isEqualTo(file.toAbsolutePath());
        assertThat(t.workingDirectory()).contains(tmp.toAbsolutePath());
    }

    @Test
    void workingDirectoryMustExistAndBeADirectory(@TempDir Path tmp) throws IOException {
        Path missing = tmp.resolve("missing");
        assertThatThrownBy(() -> StdioTransport.newBuilder("sh").workingDirectory(missing).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("working directory " + missing)
                .hasMessageContaining("does not exist");
        Path file = Files.writeString(tmp.resolve("file"), "x");
        assertThatThrownBy(() -> StdioTransport.newBuilder("sh").workingDirectory(file).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not a directory");
    }

    @Test
    void invalidEnvironmentIsRejectedNamingTheVariableNeverTheValue() {
        assertThatThrownBy(() -> StdioTransport.newBuilder("sh").putEnvironment("A=B", SECRET).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("A=B").hasMessageContaining("'='")
                .hasMessageNotContaining(SECRET);
        assertThatThrownBy(() -> StdioTransport.newBuilder("sh").putEnvironment("", SECRET).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("empty")
                .hasMessageNotContaining(SECRET);
        assertThatThrownBy(() -> StdioTransport.newBuilder("sh").putEnvironment("BAD\0NAME", SECRET).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NUL")
                .hasMessageNotContaining(SECRET);
        assertThatThrownBy(() -> StdioTransport.newBuilder("sh").putEnvironment("API_TOKEN", SECRET + "\0x")
                .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("API_TOKEN").hasMessageContaining("NUL")
                .hasMessageNotContaining(SECRET);
        Map<String, String> withNull = new HashMap<>();
        withNull.put("API_TOKEN", null);
        assertThatThrownBy(() -> StdioTransport.newBuilder("sh").environment(withNull).build())
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("API_TOKEN");
        assertThatThrownBy(() -> StdioTransport.newBuilder("sh", "-c", "x\0y").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("argument 2").hasMessageNotContaining("x\0y");
        assertThatThrownBy(() -> StdioTransport.newBuilder("").build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StdioTransport.newBuilder(List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void builderRejectsOutOfRangeLimits() {
        StdioTransport.Builder b = StdioTransport.newBuilder("sh");
        assertThatThrownBy(() -> b.maxMessageBytes(10)).hasMessageContaining("maxMessageBytes");
        assertThatThrownBy(() -> b.stderrBufferBytes(10)).hasMessageContaining("stderrBufferBytes");
        assertThatThrownBy(() -> b.startupTimeout(Duration.ZERO)).hasMessageContaining("startupTimeout");
        assertThatThrownBy(() -> b.terminateGrace(Duration.ofSeconds(-1))).hasMessageContaining("terminateGrace");
        assertThat(b.killGrace(Duration.ZERO)).isSameAs(b);
    }

    @Test
    void defaultEnvironmentIsTheSafeListPlusTheCallersVariables() throws Exception {
        String outside = nonSafeParentVariable();
        StdioTransport t = StdioTransport.newBuilder("sh", Children.script("env-dump.sh").toString())
                .putEnvironment("LOOM_TEST_EXTRA", "extra-value")
                .build();
        assertThat(t.environmentNames()).contains("LOOM_TEST_EXTRA", "PATH").doesNotContain(outside);
        Set<String> names = runEnvDump(t);
        assertThat(names).contains("LOOM_TEST_EXTRA", "PATH").doesNotContain(outside);
        if (System.getenv("HOME") != null) {
            assertThat(names).contains("HOME");
        }
        assertThat(t.stderrTail()).contains("EXTRA extra-value");
    }

    @Test
    void inheritEnvironmentPassesTheWholeParentEnvironment() throws Exception {
        String outside = nonSafeParentVariable();
        StdioTransport t = StdioTransport.newBuilder("sh", Children.script("env-dump.sh").toString())
                .inheritEnvironment(true)
                .environment(Map.of("LOOM_TEST_EXTRA", "x"))
                .build();
        Set<String> names = runEnvDump(t);
        assertThat(names).contains(outside, "LOOM_TEST_EXTRA", "PATH");
    }

    @Test
    void callerVariablesWinOverTheParents() throws Exception {
        StdioTransport t = StdioTransport.newBuilder("sh", Children.script("env-dump.sh").toString())
                .inheritEnvironment(true)
                .putEnvironment("LOOM_TEST_EXTRA", "from-caller")
                .build();
        runEnvDump(t);
        assertThat(t.stderrTail()).contains("EXTRA from-caller");
    }

    /** A variable of this JVM's environment that is not on the safe list (surefire's env has several). */
    private static String nonSafeParentVariable() {
        for (String preferred : List.of("JAVA_HOME", "MAVEN_CMD_LINE_ARGS", "MAVEN_PROJECTBASEDIR")) {
            if (System.getenv(preferred) != null) {
                return preferred;
            }
        }
        return System.getenv().keySet().stream()
                .filter(n -> !Launch.isSafe(n) && n.matches("[A-Za-z_][A-Za-z0-9_]*")
                        && !Set.of("PWD", "OLDPWD", "SHLVL", "_").contains(n))
                .findFirst()
                .orElseThrow(() -> new org.opentest4j.TestAbortedException("no non-safe variable in this env"));
    }

    private static Set<String> runEnvDump(StdioTransport t) throws Exception {
        RecordingSink sink = new RecordingSink();
        try {
            t.open(TransportContext.of(sink, Deadline.NONE));
            McpTransportException ex = sink.awaitClosed();
            assertThat(ex).isInstanceOf(McpProcessExitedException.class);
            assertThat(((McpProcessExitedException) ex).exitCode()).hasValue(0);
        } finally {
            t.close();
        }
        return t.stderrTail().lines().filter(l -> l.startsWith("NAME ")).map(l -> l.substring(5))
                .collect(java.util.stream.Collectors.toSet());
    }
    /**
     * In a JVM whose locale is not UTF-8 the JDK turns every character its native encoding cannot hold into '?' on
     * the way to a child process, silently: such an argument or environment value is refused at build() instead,
     * naming it but not its value.
     */
    @Test
    void whatTheNativeEncodingCannotHoldIsRefusedInsteadOfDamaged(@TempDir Path tmp) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(Children.java().toString(), "-cp", Children.testClasspath(),
                NativeEncodingMain.class.getName()).redirectErrorStream(true)
                .redirectOutput(tmp.resolve("out.txt").toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("LC_") || k.equals("LANG") || k.equals("LANGUAGE"));
        pb.environment().put("LC_ALL", "C");
        Process jvm = processes.start(pb);
        jvm.getOutputStream().close();
        assertThat(jvm.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).as("child JVM exits").isTrue();
        List<String> lines = Files.readAllLines(tmp.resolve("out.txt"));
        assertThat(lines).as("the child JVM's output").contains("ascii ok");
        assertThat(lines.get(0)).as("the child JVM runs in the C locale").isNotEqualTo("encoding UTF-8");
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("argument IllegalArgumentException: argument 3 "
                + "of sh has characters that this JVM's native encoding").contains("LANG=C.UTF-8")
                .doesNotContain("\u00fc"));
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("environment IllegalArgumentException: the value "
                + "of environment variable GREETING has characters").doesNotContain("dich"));
    }
}
