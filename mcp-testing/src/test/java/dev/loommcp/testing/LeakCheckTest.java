package dev.loommcp.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.internal.concurrent.McpThreads;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class LeakCheckTest {

    @Test
    void aThreadLeftBehindIsReportedByNameAndOneThatEndsIsNot() throws Exception {
        LeakCheck.Snapshot before = LeakCheck.snapshot();
        CountDownLatch release = new CountDownLatch(1);
        Thread leaked = Thread.ofPlatform().name("mcp-leak-probe").start(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            // waits the whole grace period (the thread never ends by itself), then names it
            assertThatThrownBy(before::assertNoLeaks).isInstanceOf(AssertionError.class)
                    .hasMessageContaining("mcp-leak-probe");
        } finally {
            release.countDown();
        }
        assertThat(leaked.join(Duration.ofSeconds(10))).isTrue();
        before.assertNoLeaks();
    }

    @Test
    void threadsNotNamedMcpAreNotLoomMcpsBusiness() throws Exception {
        LeakCheck.Snapshot before = LeakCheck.snapshot();
        CountDownLatch release = new CountDownLatch(1);
        Thread other = Thread.ofPlatform().name("someone-elses").start(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            before.assertNoLeaks();
        } finally {
            release.countDown();
            other.join(Duration.ofSeconds(10));
        }
    }

    @Test
    void aLoomMcpThreadCreatedAndNeverStartedIsALeak() {
        LeakCheck.Snapshot before = LeakCheck.snapshot();
        Thread unstarted = McpThreads.newThread("never", () -> { });
        try {
            assertThat(before.newThreads("never")).containsExactly(unstarted);
            assertThat(LeakCheck.threads("never")).contains(unstarted);
            assertThatThrownBy(before::assertNoLeaks).isInstanceOf(AssertionError.class)
                    .hasMessageContaining(unstarted.getName()).hasMessageContaining("NEW");
        } finally {
            McpThreads.forgetUnstarted(unstarted);
        }
        before.assertNoLeaks();
    }

    @Test
    void aChildProcessLeftBehindIsNamedAndKilled() throws Exception {
        LeakCheck.Snapshot before = LeakCheck.snapshot();
        Process child = new ProcessBuilder("sleep", "60").start();
        try {
            // the child never ends by itself: named after the grace, and killed
            assertThatThrownBy(before::assertNoLeaks).isInstanceOf(AssertionError.class)
                    .hasMessageContaining("leaked processes (killed): " + child.pid());
            assertThat(child.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        } finally {
            child.destroyForcibly();
        }
        before.assertNoLeaks();
    }

    @Test
    void anInterruptedCheckStopsWaitingKeepsTheInterruptAndStillNamesTheLeak() throws Exception {
        LeakCheck.Snapshot before = LeakCheck.snapshot();
        CountDownLatch release = new CountDownLatch(1);
        Thread leaked = McpThreads.start("held", () -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            Thread.currentThread().interrupt();
            assertThatThrownBy(before::assertNoLeaks).isInstanceOf(AssertionError.class)
                    .hasMessageContaining(leaked.getName());
            assertThat(Thread.interrupted()).isTrue();
        } finally {
            release.countDown();
        }
        assertThat(leaked.join(Duration.ofSeconds(10))).isTrue();
    }
}
