package dev.loommcp.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Drives the extension's {@code afterEach} directly, as JUnit would after a test, to see what it reports. */
class OwnedProcessesTest {

    @Test
    void aProcessThatEndedInTimePassesAndIsForgotten() throws Exception {
        OwnedProcesses processes = new OwnedProcesses();
        Process p = processes.start(new ProcessBuilder("sh", "-c", "exit 0"));
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        processes.afterEach(null);
        assertThat(processes.alive()).isEmpty();
    }

    @Test
    void aWholeTreeLeftBehindIsKilledAndNamedAndTheTestFails() throws Exception {
        OwnedProcesses processes = new OwnedProcesses();
        // a shell whose child (sleep) outlives nothing by itself; the tree is owned through its root
        Process root = processes.start(new ProcessBuilder("sh", "-c", "sleep 60 & wait"));
        ProcessHandle grandchild = waitForChild(root.toHandle());
        assertThat(processes.alive()).contains(root.toHandle());
        assertThatThrownBy(() -> processes.afterEach(null)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("processes left behind (killed)")
                .hasMessageContaining(Long.toString(root.pid()))
                .hasMessageContaining(Long.toString(grandchild.pid()));
        // killed: our own child is reaped by the JVM a moment later (isAlive is true until then)
        assertThat(root.onExit().get(10, TimeUnit.SECONDS).isAlive()).isFalse();
        assertThat(grandchild.onExit().get(10, TimeUnit.SECONDS).isAlive()).isFalse();
        assertThat(processes.alive()).isEmpty();
    }

    @Test
    void anOrphanOwnedByPidIsReachedThoughItIsNoDescendantAnyMore() throws Exception {
        OwnedProcesses processes = new OwnedProcesses();
        // the shell starts a sleeper in the background and exits: the sleeper is reparented away from this JVM
        Process shell = new ProcessBuilder("sh", "-c", "sleep 60 >/dev/null 2>&1 & echo $!").start();
        long orphan = Long.parseLong(new String(shell.getInputStream().readAllBytes()).trim());
        assertThat(shell.waitFor(10, TimeUnit.SECONDS)).isTrue();
        processes.own(orphan);
        assertThat(ProcessHandle.current().descendants().map(ProcessHandle::pid)).doesNotContain(orphan);
        assertThatThrownBy(() -> processes.afterEach(null)).isInstanceOf(AssertionError.class)
                .hasMessageContaining(Long.toString(orphan));
        // killed: gone, or a zombie that no init reaps in a container (which counts as ended)
        processes.own(orphan);
        assertThat(processes.alive()).isEmpty();
    }

    private static ProcessHandle waitForChild(ProcessHandle parent) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < end) {
            var child = parent.children().findFirst();
            if (child.isPresent()) {
                return child.get();
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the shell started no child");
    }
}
