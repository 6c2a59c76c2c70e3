package dev.loommcp.transport.stdio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpClosedException;
import dev.loommcp.Deadline;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.RecordingSink;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The succession of a stdio transport's processes ({@link ProcessSuccession}) on its own, over real child processes:
 * the stderr tail labels every process through more than one reopen, a close that comes while a reopen runs (here
 * from the stderr listener, on the reopening thread, between the swap and the new child's open) fails that reopen
 * and leaves no process, and a listener that throws does not stop a reopen. {@link StdioReopenTest} covers reopen
 * through the transport.
 */
@ExtendWith(LeakCheck.class)
@Timeout(120)
class ProcessSuccessionTest {

    /** A child that writes one stderr line naming its pid and then waits on stdin (exits when it ends). */
    private static LaunchConfig child(Consumer<String> listener) {
        return LaunchConfig.of(List.of("sh", "-c", "echo \"child $$\" >&2; cat >/dev/null"), null, Map.of(), false,
                StdioTransport.DEFAULT_MAX_MESSAGE_BYTES, StdioTransport.DEFAULT_STDERR_BUFFER_BYTES, listener,
                StdioTransport.DEFAULT_STARTUP_TIMEOUT, Duration.ofSeconds(2), StdioTransport.DEFAULT_GRACE,
                StdioTransport.DEFAULT_GRACE);
    }

    private static TransportContext context() {
        return TransportContext.of(new RecordingSink(), Deadline.NONE);
    }

    private static long awaitTail(ProcessSuccession processes) throws InterruptedException {
        long pid = processes.current().process().pid();
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!processes.stderrTail().contains("child " + pid) && System.nanoTime() < end) {
            Thread.sleep(20);
        }
        assertThat(processes.stderrTail()).contains("child " + pid);
        return pid;
    }

    @Test
    void everyProcessIsLabelledInTheTailThroughTwoReopens() throws Exception {
        Object owner = new Object();
        ProcessSuccession processes = new ProcessSuccession(child(null));
        try {
            processes.open(owner, context());
            long pid1 = awaitTail(processes);
            assertThat(processes.stderrTail()).isEqualTo("child " + pid1);
            processes.reopen(owner, context());
            long pid2 = awaitTail(processes);
            processes.reopen(owner, context());
            long pid3 = awaitTail(processes);
            assertThat(processes.stderrTail().lines().toList()).containsExactly(
                    "[process 1, pid " + pid1 + "] ended with exit code 0", "child " + pid1,
                    "[process 2, pid " + pid2 + "] ended with exit code 0", "child " + pid2,
                    "[process 3, pid " + pid3 + "]", "child " + pid3);
        } finally {
            processes.close(null);
        }
    }

    @Test
    void aCloseWhileAReopenRunsFailsItAndLeavesNoProcess() throws Exception {
        AtomicReference<ProcessSuccession> self = new AtomicReference<>();
        // the listener hears the line between the two processes after the swap and before the new child's open
        ProcessSuccession processes = new ProcessSuccession(child(line -> {
            if (line.contains("the lines of process 2 follow")) {
                self.get().close(null);
            }
        }));
        self.set(processes);
        Object owner = new Object();
        processes.open(owner, context());
        ProcessHandle first = processes.current().process().toHandle();
        assertThatThrownBy(() -> processes.reopen(owner, context())).isInstanceOf(McpClosedException.class);
        assertThat(first.isAlive()).isFalse();
        Process second = processes.current().process();
        assertThat(second == null || !second.isAlive()).as("no second process runs").isTrue();
        assertThatThrownBy(() -> processes.reopen(owner, context())).isInstanceOf(McpClosedException.class);
        processes.close(null); // idempotent
    }

    @Test
    void aListenerThatThrowsDoesNotStopAReopen() throws Exception {
        ProcessSuccession processes = new ProcessSuccession(child(line -> {
            throw new IllegalStateException("listener bug");
        }));
        Object owner = new Object();
        try {
            processes.open(owner, context());
            long pid1 = processes.current().process().pid();
            processes.reopen(owner, context());
            assertThat(processes.current().process().pid()).isNotEqualTo(pid1);
            assertThat(processes.current().process().isAlive()).isTrue();
        } finally {
            processes.close(null);
        }
    }
}
