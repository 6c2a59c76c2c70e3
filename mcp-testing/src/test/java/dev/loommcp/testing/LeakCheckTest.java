package dev.loommcp.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
