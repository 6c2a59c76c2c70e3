package dev.loommcp.internal.concurrent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.testing.LeakCheck;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link Joins#joinAll}: interrupts of the waiting thread do not cut the wait short, the deadline does. */
@ExtendWith(LeakCheck.class)
class JoinsTest {

    @Test
    void anInterruptOnEntryOrWhileWaitingDoesNotEndTheWaitAndIsReported() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean finished = new AtomicBoolean();
        Thread worker = McpThreads.start("joins-worker", () -> {
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            finished.set(true);
        });
        CompletableFuture<Boolean> reported = new CompletableFuture<>();
        CompletableFuture<Boolean> sawFinished = new CompletableFuture<>();
        Thread waiter = Thread.ofVirtual().start(() -> {
            Thread.currentThread().interrupt(); // pending on entry
            boolean r = Joins.joinAll(List.of(worker), System.nanoTime() + TimeUnit.SECONDS.toNanos(30));
            sawFinished.complete(finished.get());
            reported.complete(r);
        });
        // interrupt again while it waits, then let the worker end
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (waiter.getState() != Thread.State.TIMED_WAITING && waiter.isAlive() && System.nanoTime() < end) {
            Thread.sleep(1);
        }
        waiter.interrupt();
        release.countDown();
        assertThat(reported.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(sawFinished.get()).as("joinAll returned only after the worker ended").isTrue();
        assertThat(waiter.join(Duration.ofSeconds(10))).isTrue();
    }

    @Test
    void theDeadlineEndsTheWaitAndUnstartedOrSelfThreadsAreSkipped() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Thread worker = McpThreads.start("joins-worker", () -> {
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Thread unstarted = Thread.ofVirtual().unstarted(() -> { });
        boolean interrupted = Joins.joinAll(java.util.Arrays.asList(Thread.currentThread(), null, unstarted, worker),
                System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50));
        assertThat(interrupted).isFalse();
        assertThat(worker.isAlive()).as("the deadline, not the worker, ended the wait").isTrue();
        release.countDown();
        assertThat(worker.join(Duration.ofSeconds(10))).isTrue();
    }
}
