package dev.loommcp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs the packaged CLI for real, as a user's shell does: {@code java -jar mcp.jar} or the launcher script
 * {@code mcp-cli/mcp}, in a child process, through {@code Main.main} and {@code System.exit}. For the failsafe
 * tests ({@code *IT}), which run after {@code package}.
 */
final class CliProcess {

    /** What a run printed and its exit code. */
    record Run(int code, String out, String err) {
    }

    private CliProcess() {
    }

    /** The packaged jar. */
    static Path jar() {
        Path jar = Path.of(System.getProperty("loommcp.cli.jar", "target/mcp.jar"));
        assertThat(jar).exists();
        return jar;
    }

    /** The launcher script. */
    static Path launcher() {
        Path script = Path.of(System.getProperty("loommcp.cli.launcher", "mcp"));
        assertThat(script).isExecutable();
        return script;
    }

    /** The command {@code java -jar mcp.jar ARGS} on this JVM's java. */
    static List<String> javaJar(String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-jar");
        command.add(jar().toString());
        command.addAll(List.of(args));
        return command;
    }

    /** The command {@code bash mcp-cli/mcp ARGS}. */
    static List<String> viaLauncher(String... args) {
        List<String> command = new ArrayList<>(List.of("bash", launcher().toString()));
        command.addAll(List.of(args));
        return command;
    }

    /**
     * Builds a process whose environment has no locale at all (no {@code LANG}, {@code LC_ALL} or {@code LC_*}: the
     * C/POSIX locale of containers, cron and CI), only {@code PATH}, {@code HOME} and {@code JAVA_HOME} (this JVM).
     */
    static ProcessBuilder posixLocale(List<String> command) {
        ProcessBuilder pb = new ProcessBuilder(command);
        Map<String, String> env = pb.environment();
        String path = env.get("PATH");
        String home = env.get("HOME");
        env.clear();
        env.put("PATH", path);
        if (home != null) {
            env.put("HOME", home);
        }
        env.put("JAVA_HOME", System.getProperty("java.home"));
        return pb;
    }

    /** Runs to the end with stdin from {@code /dev/null}, bounded to 120 s. */
    static Run run(ProcessBuilder pb) throws IOException, InterruptedException {
        // the launcher's class-data archive and the CLI's era verdicts go under target/, not the user's ~/.cache,
        // unless a test says where (an environment cleared by posixLocale lost the build's setting)
        pb.environment().putIfAbsent("XDG_CACHE_HOME", Path.of("target", "launcher-cache").toAbsolutePath()
                .toString());
        return run(pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start(), pb.command());
    }

    /** Waits for a started process (at most 120 s, then it is killed) and collects its output. */
    static Run run(Process p, List<String> command) throws InterruptedException {
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("the CLI did not finish within 120 s: " + command);
        }
        return new Run(p.exitValue(), out.join(), err.join());
    }

    /** Collects a started process's output and exit code in the background ({@link #run(Process, List)}). */
    static CompletableFuture<Run> collect(Process p, List<String> command) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return run(p, command);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        });
    }

    static String read(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
