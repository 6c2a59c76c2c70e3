package dev.loommcp;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.testing.LeakCheck;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** The contract of {@link CancellationToken}: fires once, keeps its first reason, runs every listener once. */
@ExtendWith(LeakCheck.class)
@Timeout(value = 60, unit = SECONDS)
class CancellationTokenTest {

    private static final long WAIT = 30;

    @Test
    void aNewTokenHasNotFired() {
        CancellationToken token = CancellationToken.create();
        assertThat(token.isCancelled()).isFalse();
        assertThat(token.reason()).isEmpty();
        assertThat(token.toString()).contains("active");
    }

    @Test
    void cancelFiresOnceAndKeepsTheFirstReason() {
        CancellationToken token = CancellationToken.create();
        token.cancel("user pressed stop");
        token.cancel("second");
        token.cancel();
        assertThat(token.isCancelled()).isTrue();
        assertThat(token.reason()).contains("user pressed stop");
        assertThat(token.toString()).contains("user pressed stop");
    }

    @Test
    void cancelWithoutReasonSaysCancelled() {
        CancellationToken plain = CancellationToken.create();
        plain.cancel();
        assertThat(plain.reason()).contains("cancelled");
        CancellationToken nullReason = CancellationToken.create();
        nullReason.cancel(null);
        assertThat(nullReason.reason()).contains("cancelled");
    }

    @Test
    void listenersRunOnceOnTheCancellingThread() throws Exception {
        CancellationToken token = CancellationToken.create();
        AtomicInteger a = new AtomicInteger();
        AtomicInteger b = new AtomicInteger();
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        token.onCancel(a::incrementAndGet);
        token.onCancel(() -> {
            b.incrementAndGet();
            ranOn.set(Thread.currentThread());
        });
        assertThat(a).hasValue(0);
        Thread canceller = Thread.ofVirtual().name("test-canceller").start(() -> {
            token.cancel("go");
            token.cancel("again");
        });
        assertThat(canceller.join(Duration.ofSeconds(WAIT))).isTrue();
        token.cancel("once more");
        assertThat(a).hasValue(1);
        assertThat(b).hasValue(1);
        assertThat(ranOn.get()).isSameAs(canceller);
    }

    @Test
    void closingTheRegistrationRemovesTheListener() {
        CancellationToken token = CancellationToken.create();
        AtomicInteger removed = new AtomicInteger();
        AtomicInteger kept = new AtomicInteger();
        Registration registration = token.onCancel(removed::incrementAndGet);
        token.onCancel(kept::incrementAndGet);
        registration.close();
        registration.close(); // idempotent
        token.cancel();
        assertThat(removed).hasValue(0);
        assertThat(kept).hasValue(1);
    }

    @Test
    void closingTheRegistrationAfterTheListenerRanIsHarmless() {
        CancellationToken token = CancellationToken.create();
        AtomicInteger runs = new AtomicInteger();
        Registration registration = token.onCancel(runs::incrementAndGet);
        token.cancel();
        registration.close();
        assertThat(runs).hasValue(1);
    }

    @Test
    void onCancelAfterCancelRunsAtOnceOnTheCallingThread() {
        CancellationToken token = CancellationToken.create();
        token.cancel("earlier");
        AtomicInteger runs = new AtomicInteger();
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        Registration registration = token.onCancel(() -> {
            runs.incrementAndGet();
            ranOn.set(Thread.currentThread());
        });
        assertThat(runs).hasValue(1);
        assertThat(ranOn.get()).isSameAs(Thread.currentThread());
        registration.close();
        token.cancel();
        assertThat(runs).hasValue(1);
    }

    @Test
    void aThrowingListenerDoesNotStopTheOthers() {
        CancellationToken token = CancellationToken.create();
        AtomicInteger runs = new AtomicInteger();
        token.onCancel(runs::incrementAndGet);
        token.onCancel(() -> {
            throw new IllegalStateException("listener broke");
        });
        token.onCancel(runs::incrementAndGet);
        token.cancel();
        assertThat(runs).hasValue(2);
        // and after the fact: the exception is ignored there too
        token.onCancel(() -> {
            throw new IllegalStateException("late listener broke");
        });
    }

    @Test
    void aListenerThrowingAnErrorDoesNotStopTheOthersAndTheErrorIsRethrown() {
        CancellationToken token = CancellationToken.create();
        AtomicInteger runs = new AtomicInteger();
        token.onCancel(runs::incrementAndGet);
        token.onCancel(() -> {
            throw new AssertionError("listener error");
        });
        token.onCancel(runs::incrementAndGet);
        assertThatThrownBy(token::cancel).isInstanceOf(AssertionError.class).hasMessage("listener error");
        assertThat(runs).hasValue(2);
        assertThat(token.isCancelled()).isTrue();
    }

    @Test
    void nullListenerIsRefused() {
        CancellationToken token = CancellationToken.create();
        assertThatThrownBy(() -> token.onCancel(null)).isInstanceOf(NullPointerException.class);
        token.cancel();
        assertThatThrownBy(() -> token.onCancel(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void concurrentCancelFromManyThreadsRunsEachListenerExactlyOnce() throws Exception {
        for (int round = 0; round < 20; round++) {
            CancellationToken token = CancellationToken.create();
            int listeners = 200;
            AtomicIntegerArray runs = new AtomicIntegerArray(listeners);
            for (int i = 0; i < listeners; i++) {
                int slot = i;
                token.onCancel(() -> runs.incrementAndGet(slot));
            }
            Set<String> reasons = ConcurrentHashMap.newKeySet();
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                String reason = "canceller " + t;
                reasons.add(reason);
                threads.add(Thread.ofVirtual().name("test-canceller").start(() -> {
                    awaitQuietly(go);
                    token.cancel(reason);
                }));
            }
            go.countDown();
            joinAll(threads);
            assertThat(reasons).contains(token.reason().orElseThrow());
            for (int i = 0; i < listeners; i++) {
                assertThat(runs.get(i)).as("round %d, listener %d", round, i).isEqualTo(1);
            }
        }
    }

    @Test
    void listenersRegisteredWhileOthersCancelRunExactlyOnce() throws Exception {
        for (int round = 0; round < 20; round++) {
            CancellationToken token = CancellationToken.create();
            int registrars = 4;
            int perRegistrar = 200;
            AtomicIntegerArray runs = new AtomicIntegerArray(registrars * perRegistrar);
            AtomicIntegerArray removedRuns = new AtomicIntegerArray(registrars * perRegistrar);
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int r = 0; r < registrars; r++) {
                int base = r * perRegistrar;
                threads.add(Thread.ofVirtual().name("test-registrar").start(() -> {
                    awaitQuietly(go);
                    for (int i = 0; i < perRegistrar; i++) {
                        int slot = base + i;
                        token.onCancel(() -> runs.incrementAndGet(slot));
                        // and one that is removed again at once: it runs at most once
                        token.onCancel(() -> removedRuns.incrementAndGet(slot)).close();
                    }
                }));
            }
            for (int t = 0; t < 4; t++) {
                threads.add(Thread.ofVirtual().name("test-canceller").start(() -> {
                    awaitQuietly(go);
                    token.cancel();
                }));
            }
            go.countDown();
            joinAll(threads);
            for (int i = 0; i < runs.length(); i++) {
                assertThat(runs.get(i)).as("round %d, listener %d", round, i).isEqualTo(1);
                assertThat(removedRuns.get(i)).as("round %d, removed listener %d", round, i).isLessThanOrEqualTo(1);
            }
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            if (!latch.await(WAIT, SECONDS)) {
                throw new AssertionError("latch never opened");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private static void joinAll(List<Thread> threads) throws InterruptedException {
        for (Thread t : threads) {
            assertThat(t.join(Duration.ofSeconds(WAIT))).as("%s ended", t.getName()).isTrue();
        }
    }
}
