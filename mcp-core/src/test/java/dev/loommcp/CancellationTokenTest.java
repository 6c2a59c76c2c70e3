package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link CancellationToken}: fires once, keeps its reason, runs each listener exactly once. */
class CancellationTokenTest {

    @Test
    void firesOnceAndKeepsTheFirstReason() {
        CancellationToken t = CancellationToken.create();
        assertThat(t.isCancelled()).isFalse();
        assertThat(t.reason()).isNull();
        assertThat(t.toString()).contains("active");
        t.cancel("first");
        t.cancel("second");
        t.cancel();
        assertThat(t.isCancelled()).isTrue();
        assertThat(t.reason()).isEqualTo("first");
        assertThat(t.toString()).contains("cancelled: first");
    }

    @Test
    void defaultAndNullReasonsAreCancelled() {
        CancellationToken a = CancellationToken.create();
        a.cancel();
        assertThat(a.reason()).isEqualTo("cancelled");
        CancellationToken b = CancellationToken.create();
        b.cancel(null);
        assertThat(b.reason()).isEqualTo("cancelled");
    }

    @Test
    void listenersRunOnceOnTheCancellingThread() {
        CancellationToken t = CancellationToken.create();
        AtomicInteger runs = new AtomicInteger();
        List<Thread> threads = new CopyOnWriteArrayList<>();
        t.onCancel(() -> {
            runs.incrementAndGet();
            threads.add(Thread.currentThread());
        });
        t.onCancel(runs::incrementAndGet);
        t.cancel();
        t.cancel();
        assertThat(runs).hasValue(2);
        assertThat(threads).containsExactly(Thread.currentThread());
    }

    @Test
    void aListenerAddedAfterFiringRunsAtOnce() {
        CancellationToken t = CancellationToken.create();
        t.cancel();
        AtomicInteger runs = new AtomicInteger();
        t.onCancel(runs::incrementAndGet).close();
        assertThat(runs).hasValue(1);
    }

    @Test
    void aClosedRegistrationDoesNotRun() {
        CancellationToken t = CancellationToken.create();
        AtomicInteger runs = new AtomicInteger();
        CancellationToken.Registration r = t.onCancel(runs::incrementAndGet);
        r.close();
        r.close();
        t.cancel();
        assertThat(runs).hasValue(0);
    }

    @Test
    void aFailingListenerDoesNotStopTheOthers() {
        CancellationToken t = CancellationToken.create();
        AtomicInteger runs = new AtomicInteger();
        t.onCancel(() -> {
            throw new IllegalStateException("boom");
        });
        t.onCancel(runs::incrementAndGet);
        t.cancel();
        assertThat(runs).hasValue(1);
        t.onCancel(() -> {
            throw new IllegalStateException("boom again");
        });
    }

    @Test
    void racingRegistrationsAndCancelRunEveryListenerExactlyOnce() throws Exception {
        for (int round = 0; round < 50; round++) {
            CancellationToken t = CancellationToken.create();
            AtomicInteger runs = new AtomicInteger();
            int n = 50;
            CountDownLatch go = new CountDownLatch(1);
            try (ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < n; i++) {
                    ex.submit(() -> {
                        go.await();
                        t.onCancel(runs::incrementAndGet);
                        return null;
                    });
                }
                ex.submit(() -> {
                    go.await();
                    t.cancel();
                    return null;
                });
                go.countDown();
            }
            assertThat(runs).as("round %d", round).hasValue(n);
        }
    }
}
