package dev.loommcp.internal.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpTimeoutException;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.RequestOptions;
import dev.loommcp.testing.Await;
import dev.loommcp.testing.ScriptedTransport;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link DeadlineWatch}: one thread per session fails the plain calls at their deadline, so callers wait without a
 * timer of their own. Each call still ends at its own deadline, a later call with an earlier deadline included; calls
 * made one after another with the same timeout do not wake the watcher; the watcher ends with the session.
 */
class DeadlineWatchTest {

    @RegisterExtension
    final SessionsUnderTest sessions = new SessionsUnderTest();

    private Session connect(ScriptedTransport t) throws InterruptedException {
        t.on("tools/call", r -> Map.of("content", List.of()));
        t.on("slow/call", r -> ScriptedTransport.HOLD);
        return sessions.connect(t, ProtocolMode.LEGACY);
    }

    private static RequestOptions timeout(long millis) {
        return RequestOptions.ofTimeout(Duration.ofMillis(millis));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ScriptedTransport.Mode.class)
    void sequentialCallsWithTheSameTimeoutDoNotWakeTheWatcher(ScriptedTransport.Mode mode) throws Exception {
        Session s = connect(ScriptedTransport.create(mode));
        s.call("tools/call", Map.of("name", "x"), RequestOptions.DEFAULT); // starts the watcher
        long scans = s.deadlineScans();
        for (int i = 0; i < 2_000; i++) {
            s.call("tools/call", Map.of("name", "x"), RequestOptions.DEFAULT);
        }
        // each later call's deadline is later than the one the watcher sleeps until: no wake-up at all (a slow
        // machine may see the first deadline pass during the loop: a few scans then, never one per call)
        assertThat(s.deadlineScans() - scans).isLessThan(10);
        assertThat(s.pendingCount()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ScriptedTransport.Mode.class)
    void everyCallEndsAtItsOwnDeadlineALaterCallWithAnEarlierOneToo(ScriptedTransport.Mode mode) throws Exception {
        Session s = connect(ScriptedTransport.create(mode));
        long t0 = System.nanoTime();
        CompletableFuture<Long> longOne = failsAfter(s, 3_000);
        // the first watched call starts the watcher, whose first scan sees it: from then on the watcher sleeps until
        // the long call's deadline, and a shorter call arriving later must wake it
        Await.until("the watcher's first scan of the long call",
                () -> s.pendingCount() == 1 && s.deadlineScans() >= 1);
        long shortStart = System.nanoTime();
        CompletableFuture<Long> shortOne = failsAfter(s, 300);
        long shortEnded = shortOne.get(30, TimeUnit.SECONDS);
        assertThat(longOne).isNotDone();
        long longEnded = longOne.get(30, TimeUnit.SECONDS);
        assertThat(TimeUnit.NANOSECONDS.toMillis(shortEnded - shortStart)).isBetween(300L, 2_500L);
        assertThat(TimeUnit.NANOSECONDS.toMillis(longEnded - t0)).isGreaterThanOrEqualTo(3_000L);
        assertThat(s.pendingCount()).isZero();
        // the session still works after both timeouts
        assertThat(s.call("tools/call", Map.of("name", "x"), RequestOptions.DEFAULT))
                .isEqualTo(Map.of("content", List.of()));
    }

    /** Calls on a virtual thread that must fail with a timeout; completes with the time they failed. */
    private static CompletableFuture<Long> failsAfter(Session s, long millis) {
        CompletableFuture<Long> ended = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                s.call("slow/call", Map.of(), timeout(millis));
                ended.completeExceptionally(new AssertionError("answered"));
            } catch (Throwable t) {
                if (t instanceof McpTimeoutException e && e.getMessage().contains("slow/call")
                        && e.getMessage().contains("timed out: no response within")) {
                    ended.complete(System.nanoTime());
                } else {
                    ended.completeExceptionally(t);
                }
            }
        });
        return ended;
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ScriptedTransport.Mode.class)
    void manyParallelCallsEachTimeOutAndTheWatcherEndsWithTheSession(ScriptedTransport.Mode mode) throws Exception {
        Session s = connect(ScriptedTransport.create(mode));
        List<CompletableFuture<Long>> calls = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 200; i++) {
            calls.add(failsAfter(s, 200 + (i % 7) * 50L));
        }
        for (CompletableFuture<Long> c : calls) {
            try {
                c.get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                throw new AssertionError("a call did not time out cleanly", e.getCause());
            }
        }
        assertThat(s.pendingCount()).isZero();
        s.close();
        assertThatThrownBy(() -> s.call("tools/call", Map.of("name", "x"), RequestOptions.DEFAULT))
                .hasMessageContaining("closed");
        // the extension's leak check after the test: the watcher thread ended with the session
    }
}
