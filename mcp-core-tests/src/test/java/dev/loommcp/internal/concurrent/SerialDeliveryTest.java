package dev.loommcp.internal.concurrent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.testing.LeakCheck;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link SerialDelivery}: queue order kept across threads, one deliverer at a time, re-entrant items after. */
@ExtendWith(LeakCheck.class)
class SerialDeliveryTest {

    @Test
    void anItemQueuedWhileAnotherThreadDeliversIsDeliveredByThatThreadAfterTheEarlierOnes() throws Exception {
        SerialDelivery<String> d = new SerialDelivery<>();
        List<String> heard = new CopyOnWriteArrayList<>();
        CountDownLatch inFirst = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Consumer<String> slowFirst = s -> {
            if (s.equals("first")) {
                inFirst.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            heard.add(s + " on " + Thread.currentThread().getName());
        };
        d.add("first");
        Thread a = McpThreads.start("serial-a", () -> d.deliver(slowFirst));
        assertThat(inFirst.await(10, TimeUnit.SECONDS)).isTrue();
        d.add("second");
        d.deliver(slowFirst); // returns at once: serial-a delivers it
        assertThat(heard).isEmpty();
        assertThat(d.awaitDelivered(TimeUnit.MILLISECONDS.toNanos(1))).as("serial-a is still delivering").isFalse();
        release.countDown();
        assertThat(d.awaitDelivered(TimeUnit.SECONDS.toNanos(10))).isTrue();
        assertThat(a.join(Duration.ofSeconds(10))).isTrue();
        assertThat(heard).containsExactly("first on " + a.getName(), "second on " + a.getName());
    }

    @Test
    void anItemAConsumerCausesIsDeliveredAfterItReturnsNotInsideIt() throws InterruptedException {
        SerialDelivery<Integer> d = new SerialDelivery<>();
        List<Integer> heard = new CopyOnWriteArrayList<>();
        AtomicInteger depth = new AtomicInteger();
        AtomicInteger maxDepth = new AtomicInteger();
        boolean[] selfWait = new boolean[1];
        AtomicReference<Consumer<Integer>> consumer = new AtomicReference<>();
        consumer.set(i -> {
            maxDepth.accumulateAndGet(depth.incrementAndGet(), Math::max);
            try {
                heard.add(i);
                if (i < 3) {
                    d.add(i + 1);
                    d.deliver(consumer.get());
                    selfWait[0] = d.awaitDelivered(TimeUnit.SECONDS.toNanos(10)); // its own thread: at once
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                depth.decrementAndGet();
            }
        });
        d.add(1);
        d.deliver(consumer.get());
        assertThat(heard).containsExactly(1, 2, 3);
        assertThat(maxDepth.get()).isEqualTo(1);
        assertThat(selfWait[0]).isTrue();
    }

    @Test
    void whatTheConsumerThrowsEndsTheCallAndLeavesTheRestForTheNext() throws InterruptedException {
        SerialDelivery<String> d = new SerialDelivery<>();
        d.add("bad");
        d.add("good");
        List<String> heard = new CopyOnWriteArrayList<>();
        Consumer<String> c = s -> {
            if (s.equals("bad")) {
                throw new IllegalStateException("boom");
            }
            heard.add(s);
        };
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> d.deliver(c)).hasMessage("boom");
        assertThat(d.awaitDelivered(0)).as("an item waits with no one delivering it").isFalse();
        d.deliver(c);
        assertThat(heard).containsExactly("good");
        assertThat(d.awaitDelivered(0)).isTrue();
    }
}
