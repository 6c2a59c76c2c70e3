package dev.loommcp.transport.stdio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.OwnedProcesses;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 8 item 1: open stdio servers must not hold carrier threads of the virtual-thread scheduler. A child JVM with
 * a pool of at most 16 carriers opens 300 servers, then a fresh virtual thread must still run and every server must
 * answer a tool call; closing everything must leave no process. (With the pipe threads on virtual threads, the
 * pool is exhausted after a handful of servers and the child JVM hangs: the bounded wait below fails the test.)
 */
@ExtendWith(LeakCheck.class)
@Timeout(240)
class StdioCarrierStarvationTest {

    @RegisterExtension
    final OwnedProcesses processes = new OwnedProcesses();

    private static final int SERVERS = 300;
    /** Bound of the whole child run; it normally takes well under a minute. */
    private static final long CHILD_BOUND_SECONDS = 150;

    @Test
    void threeHundredOpenServersLeaveVirtualThreadsRunningOnSixteenCarriers(@TempDir Path tmp) throws Exception {
        Path java = Children.java();
        Path out = tmp.resolve("child-jvm.out");
        Path err = tmp.resolve("child-jvm.err");
        Process jvm = new ProcessBuilder(java.toString(),
                "-Djdk.virtualThreadScheduler.maxPoolSize=16",
                "-Djdk.virtualThreadScheduler.parallelism=2",
                "-Xss256k", "-Xmx256m",
                "-cp", Children.testClasspath(),
                ManyServersMain.class.getName(), Children.script("tiny-server.sh").toString(),
                Integer.toString(SERVERS))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        try {
            boolean exited = jvm.waitFor(CHILD_BOUND_SECONDS, TimeUnit.SECONDS);
            String stdout = Files.readString(out, StandardCharsets.UTF_8);
            String stderr = Files.readString(err, StandardCharsets.UTF_8);
            String report = "child stdout:\n" + stdout + "\nchild stderr (end):\n"
                    + stderr.substring(Math.max(0, stderr.length() - 4000));
            assertThat(exited).as("child JVM finished within " + CHILD_BOUND_SECONDS + " s; " + report).isTrue();
            assumeThat(jvm.exitValue()).as(stdout).isNotEqualTo(3);
            assertThat(jvm.exitValue()).as(report).isZero();
            assertThat(stdout).contains("OPENED " + SERVERS, "VIRTUAL-THREAD-RAN", "CALLED " + SERVERS, "OK");
            // the OS-thread cost documented in StdioTransport: 3 pipe threads per server, 1 JDK reaper each
            assertThat(stdout).contains("THREADS pipe=" + 3 * SERVERS + " reaper=" + SERVERS);
        } finally {
            // on a hang, the owner ends the child JVM and the servers it started (they exit on the end of their stdin too)
            processes.own(jvm);
        }
    }
}
