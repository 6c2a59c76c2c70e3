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

    @Test
    void aPidThatIsNotPositiveOrThisJvmOrOneOfItsAncestorsIsRefusedSayingWhy() {
        OwnedProcesses processes = new OwnedProcesses();
        assertThatThrownBy(() -> processes.own(-1L)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pid").hasMessageContaining("positive");
        assertThatThrownBy(() -> processes.own(0L)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pid");
        long self = ProcessHandle.current().pid();
        assertThatThrownBy(() -> processes.own(self)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(Long.toString(self)).hasMessageContaining("this JVM");
        assertThatThrownBy(() -> processes.own(ProcessHandle.current())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("this JVM");
        ProcessHandle.current().parent().ifPresent(parent ->
                assertThatThrownBy(() -> processes.own(parent.pid())).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining(Long.toString(parent.pid())).hasMessageContaining("ancestor"));
        assertThat(processes.alive()).isEmpty();
        processes.afterEach(null); // nothing was owned: nothing to kill, the test JVM goes on
    }

    @Test
    void aNullIsRefusedNamingTheParameter() {
        OwnedProcesses processes = new OwnedProcesses();
        assertThatThrownBy(() -> processes.own((Process) null)).isInstanceOf(NullPointerException.class)
                .hasMessage("process");
        assertThatThrownBy(() -> processes.own((ProcessHandle) null)).isInstanceOf(NullPointerException.class)
                .hasMessage("process");
        assertThatThrownBy(() -> processes.start(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("builder");
    }

    @Test
    void aliveListsTheLiveDescendantsStartedAfterTheRootWasOwned() throws Exception {
        OwnedProcesses processes = new OwnedProcesses();
        // the shell starts its children only once told to: after it was owned
        Process root = processes.start(new ProcessBuilder("sh", "-c", "read go; sleep 60 & sleep 60; wait"));
        assertThat(root.toHandle().children().count()).isZero();
        root.getOutputStream().write("go\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        root.getOutputStream().flush();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (root.toHandle().children().count() < 2 && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        var children = root.toHandle().children().toList();
        assertThat(children).hasSize(2);
        try {
            assertThat(processes.alive()).startsWith(root.toHandle()).containsAll(children);
        } finally {
            assertThatThrownBy(() -> processes.afterEach(null)).isInstanceOf(AssertionError.class); // kills the tree
        }
        assertThat(root.onExit().get(10, TimeUnit.SECONDS).isAlive()).isFalse();
        for (ProcessHandle c : children) {
            assertThat(c.onExit().get(10, TimeUnit.SECONDS).isAlive()).isFalse();
        }
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
