package dev.loommcp.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.jsonrpc.RequestId;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LeakCheck.class)
class TestSendContextTest {

    @Test
    void cancelRunsTheHooksInterruptsTheSenderAndThenTheForkedThreads() throws Exception {
        TestSendContext ctx = TestSendContext.of(7);
        assertThat(ctx.requestId()).isEqualTo(RequestId.of(7));
        List<String> events = new CopyOnWriteArrayList<>();
        CountDownLatch forkedWaits = new CountDownLatch(1);
        Thread forked = ctx.fork("probe", () -> {
            forkedWaits.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                events.add("forked interrupted");
            }
        });
        assertThat(forked.getName()).startsWith("mcp-probe-");
        assertThat(LeakCheck.threads("probe")).contains(forked); // a loom-mcp thread: the leak check sees it
        forkedWaits.await();
        Thread sender = Thread.ofVirtual().unstarted(() -> { });
        ctx.sender(sender);
        ctx.onCancel(() -> events.add("hook"));
        assertThat(ctx.isCancelled()).isFalse();
        ctx.cancel();
        assertThat(ctx.isCancelled()).isTrue();
        assertThat(sender.isInterrupted()).isTrue();
        assertThat(ctx.forkedEnded(Duration.ofSeconds(10))).isTrue();
        assertThat(events).containsExactly("hook", "forked interrupted");
        // a hook registered after the cancel runs at once
        ctx.onCancel(() -> events.add("late hook"));
        assertThat(events).endsWith("late hook");
    }

    @Test
    void anEndedRequestForksNothingAndTheOptionsAreWhatTheTestSet() {
        TestSendContext ctx = TestSendContext.none().waiting().end();
        assertThat(ctx.requestId()).isNull();
        assertThat(ctx.callerWaits()).isTrue();
        assertThat(ctx.routing()).isEmpty();
        assertThat(ctx.deadline().remaining()).isPositive().isLessThanOrEqualTo(TestSendContext.DEFAULT_TIMEOUT);
        assertThatThrownBy(() -> ctx.fork("late", () -> { })).isInstanceOf(IllegalStateException.class);
        assertThat(ctx.forked()).isEmpty();
    }

    @Test
    void endInterruptsTheForkedThreadsAsTheCoreScopeDoesWhenItCloses() throws Exception {
        TestSendContext ctx = TestSendContext.of(3);
        List<String> events = new CopyOnWriteArrayList<>();
        Thread forked = forkWaitingForInterrupt(ctx, "ending", events);
        ctx.end();
        assertThat(ctx.forkedEnded(Duration.ofSeconds(10))).isTrue();
        assertThat(forked.isAlive()).isFalse();
        assertThat(events).containsExactly("forked interrupted");
        assertThat(ctx.isCancelled()).isFalse(); // an end is no cancel: no hook ran
    }

    @Test
    void aTimeoutThatIsNotPositiveOrANegativeIdIsRefusedNamingTheParameter() {
        assertThatThrownBy(() -> new TestSendContext(null, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeout");
        assertThatThrownBy(() -> new TestSendContext(RequestId.of(1), Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeout");
        assertThatThrownBy(() -> new TestSendContext(null, (Duration) null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("timeout");
        assertThatThrownBy(() -> TestSendContext.of(-5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("id");
        assertThat(TestSendContext.of(0).requestId()).isEqualTo(RequestId.of(0));
    }

    @Test
    void aThrowingCancelHookIsLoggedAndTheOtherHooksAndTheInterruptsStillRun() throws Exception {
        TestSendContext ctx = TestSendContext.of(4);
        List<String> events = new CopyOnWriteArrayList<>();
        forkWaitingForInterrupt(ctx, "hooked", events);
        ctx.onCancel(() -> {
            throw new IllegalStateException("hook fails");
        });
        ctx.onCancel(() -> events.add("second hook"));
        ctx.cancel(); // does not throw
        assertThat(ctx.isCancelled()).isTrue();
        assertThat(ctx.forkedEnded(Duration.ofSeconds(10))).isTrue();
        assertThat(events).containsExactly("second hook", "forked interrupted");
        ctx.onCancel(() -> {
            throw new IllegalStateException("late hook fails"); // runs at once, and is logged too
        });
    }

    @Test
    void aPassedDeadlineAloneDoesNotCancelTheTestPlaysTheCoreDeadlineThreadWithCancel() throws Exception {
        TestSendContext ctx = new TestSendContext(null, Duration.ofMillis(1));
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!ctx.deadline().isExpired() && System.nanoTime() < end) {
            Thread.sleep(5);
        }
        assertThat(ctx.deadline().isExpired()).isTrue();
        assertThat(ctx.isCancelled()).isFalse(); // as the core's context: only its deadline thread's cancel sets it
        ctx.cancel();
        assertThat(ctx.isCancelled()).isTrue();
    }

    /** Forks a thread that waits until interrupted and then adds "forked interrupted"; returns once it waits. */
    private static Thread forkWaitingForInterrupt(TestSendContext ctx, String purpose, List<String> events)
            throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        Thread t = ctx.fork(purpose, () -> {
            started.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                events.add("forked interrupted");
            }
        });
        started.await();
        return t;
    }
}
