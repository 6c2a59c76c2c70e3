package dev.loommcp.transport.stdio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.loommcp.Deadline;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.RecordingSink;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The process-group launchers other than this machine's default: the {@code perl} one (what macOS uses) and none at
 * all (what Windows, or a Unix without setsid and perl, gets), driven through the connection directly.
 */
@ExtendWith(LeakCheck.class)
@Timeout(120)
class LaunchersTest {

    @Test
    void perlLauncherMakesTheChildLeadItsGroupSoOrphansAreReaped() throws Exception {
        Path perl = Launch.findHelper("perl");
        assumeTrue(perl != null, "perl is not installed");
        StderrLines lines = new StderrLines();
        StdioConnection c = new StdioConnection(config(Launch.perlLauncher(perl), "grandchild-exits.sh", lines));
        RecordingSink sink = new RecordingSink();
        long grandchild = -1;
        try {
            c.open(TransportContext.of(sink, Deadline.NONE));
            grandchild = lines.awaitNumber("GRANDCHILD");
            long child = c.process().pid();
            String[] stat = ProcessTree.statLinux(child);
            if (stat != null) {
                // pgrp == pid: perl's setpgrp ran before the exec
                assertThat(stat[2]).isEqualTo(Long.toString(child));
            }
            assertThat(sink.awaitClosed()).isInstanceOf(McpProcessExitedException.class);
            c.close();
            assertThat(Children.gone(grandchild)).as("orphaned grandchild gone").isTrue();
        } finally {
            c.close();
            if (grandchild > 0) {
                Children.killQuietly(grandchild);
            }
        }
    }

    @Test
    void withoutAGroupVisibleDescendantsAreStillReaped() throws Exception {
        StderrLines lines = new StderrLines();
        StdioConnection c = new StdioConnection(config(List.of(), "hold-tree.sh", lines));
        RecordingSink sink = new RecordingSink();
        long grandchild = -1;
        try {
            c.open(TransportContext.of(sink, Deadline.NONE));
            grandchild = lines.awaitNumber("GRANDCHILD");
            assertThat(c.grouped()).isFalse();
            c.close();
            assertThat(Children.gone(c.process().pid())).isTrue();
            assertThat(Children.gone(grandchild)).as("descendant gone").isTrue();
        } finally {
            c.close();
            if (grandchild > 0) {
                Children.killQuietly(grandchild);
            }
        }
    }

    private static LaunchConfig config(List<String> launcher, String script, StderrLines lines) {
        Path base = Path.of("").toAbsolutePath();
        Path sh = Launch.resolveProgram("sh", System.getenv("PATH"), null, base);
        Duration grace = Duration.ofMillis(300);
        return new LaunchConfig("sh", sh, List.of(Children.script(script).toString()), launcher,
                Launch.findHelper("kill"), null, Launch.childEnvironment(System.getenv(), false, Map.of()),
                StdioTransport.DEFAULT_MAX_MESSAGE_BYTES, 4096, lines, Duration.ofSeconds(30), grace, grace,
                Duration.ofSeconds(2));
    }
}
