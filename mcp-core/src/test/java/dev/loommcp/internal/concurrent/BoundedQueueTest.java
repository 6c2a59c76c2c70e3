package dev.loommcp.internal.concurrent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class BoundedQueueTest {

    @Test
    void dropsTheOldestBeyondTheByteBudgetAndCountsThem() {
        AtomicLong drops = new AtomicLong();
        BoundedQueue<String> q = new BoundedQueue<>(100, 10, drops);
        assertThat(q.offer("a", 4)).isZero();
        assertThat(q.offer("b", 4)).isZero();
        assertThat(q.offer("c", 4)).isEqualTo(1);
        assertThat(q.bytes()).isEqualTo(8);
        assertThat(q.drain()).containsExactly("b", "c");
        assertThat(drops).hasValue(1);
        assertThat(q.bytes()).isZero();
    }

    @Test
    void dropsTheOldestBeyondTheCount() {
        AtomicLong drops = new AtomicLong();
        BoundedQueue<Integer> q = new BoundedQueue<>(2, Long.MAX_VALUE, drops);
        for (int i = 0; i < 5; i++) {
            q.offer(i, 1);
        }
        assertThat(q.drain()).containsExactly(3, 4);
        assertThat(drops).hasValue(3);
    }

    @Test
    void theNewestIsKeptEvenAloneAboveTheBudget() {
        AtomicLong drops = new AtomicLong();
        BoundedQueue<String> q = new BoundedQueue<>(10, 10, drops);
        q.offer("small", 1);
        assertThat(q.offer("huge", 1_000)).isEqualTo(1);
        assertThat(q.size()).isEqualTo(1);
        assertThat(q.drain()).containsExactly("huge");
    }

    @Test
    void aClosedQueueRefusesMoreAndNeverDropsItsLastEntry() throws Exception {
        BoundedQueue<String> q = new BoundedQueue<>(1, 10, new AtomicLong());
        q.offer("a", 1);
        q.close("end");
        assertThat(q.offer("late", 1)).isEqualTo(-1);
        q.close("again");
        assertThat(q.take()).isEqualTo("end");
        assertThat(q.poll(1, TimeUnit.MILLISECONDS)).isNull();
    }

    @Test
    void pollWaitsForAnEntryAndTakeIsInterruptible() throws Exception {
        BoundedQueue<String> q = new BoundedQueue<>(10, 10, new AtomicLong());
        Thread producer = Thread.ofVirtual().start(() -> q.offer("x", 1));
        assertThat(q.poll(10, TimeUnit.SECONDS)).isEqualTo("x");
        producer.join();
        Thread.currentThread().interrupt();
        assertThatThrownBy(q::take).isInstanceOf(InterruptedException.class);
    }

    @Test
    void boundsMustBePositive() {
        assertThatThrownBy(() -> new BoundedQueue<>(0, 1, new AtomicLong())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BoundedQueue<>(1, 0, new AtomicLong())).isInstanceOf(IllegalArgumentException.class);
    }
}
