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
}
