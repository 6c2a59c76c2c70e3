package dev.loommcp.internal.concurrent;

import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Hands items to application code (listeners, stores) in the order they were queued, one thread at a time and under
 * no lock of its owner. The owner queues an item while it holds its own lock ({@link #add}: that fixes the order) and
 * calls {@link #deliver} once it has released it. A thread that finds another delivering leaves its items to that
 * thread, which delivers until the queue is empty: so no thread waits for a consumer on another's behalf, and an item
 * that a consumer causes (on the delivering thread, say by closing what it listens to) is delivered after the
 * consumer returns, never inside it.
 *
 * <p>Thread-safe. Its own lock is held only to queue and take items, never while the consumer runs, and it never
 * takes another lock while holding it, so an owner may call {@link #add} under its lock.
 *
 * @param <T> the item type
 */
public final class SerialDelivery<T> {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition idle = lock.newCondition();
    private final ArrayDeque<T> queue = new ArrayDeque<>(); // guarded by lock
    private Thread deliverer; // guarded by lock: the thread delivering now, or null

    /** Creates an empty delivery. */
    public SerialDelivery() {
    }

    /**
     * Queues an item behind those queued before.
     *
     * @param item the item
     * @throws NullPointerException if {@code item} is {@code null}
     */
    public void add(T item) {
        Objects.requireNonNull(item, "item");
        lock.lock();
        try {
            queue.add(item);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Delivers the queued items to {@code consumer} in order, unless another thread (or this one, further up its
     * stack) is delivering: that thread then delivers them. Returns when the queue is empty or someone else has it.
     * What the consumer throws ends this call (the items after it stay queued for the next one).
     *
     * @param consumer receives each item, with no lock of this class held
     */
    public void deliver(Consumer<? super T> consumer) {
        T next;
        lock.lock();
        try {
            if (deliverer != null) {
                return;
            }
            next = queue.poll();
            if (next == null) {
                return;
            }
            deliverer = Thread.currentThread();
        } finally {
            lock.unlock();
        }
        while (next != null) {
            boolean delivered = false;
            try {
                consumer.accept(next);
                delivered = true;
            } finally {
                lock.lock();
                try {
                    // stay the deliverer while items are queued: a waiter woken between two items would see
                    // items queued and nobody delivering them
                    next = delivered ? queue.poll() : null;
                    if (next == null) {
                        deliverer = null;
                        idle.signalAll();
                    }
                } finally {
                    lock.unlock();
                }
            }
        }
    }

    /**
     * Waits while another thread is delivering, at most {@code nanos}.
     *
     * @param nanos the longest wait, in nanoseconds
     * @return {@code true} when everything queued has been delivered, or this thread is the one delivering (a
     *         consumer that waits: waiting for itself would never end); {@code false} when the time ran out, or items
     *         are queued with no thread delivering them (call {@link #deliver} and wait again)
     * @throws InterruptedException if the thread is interrupted while it waits
     */
    public boolean awaitDelivered(long nanos) throws InterruptedException {
        lock.lock();
        try {
            long left = nanos;
            while (deliverer != null && deliverer != Thread.currentThread()) {
                if (left <= 0) {
                    return false;
                }
                left = idle.awaitNanos(left);
            }
            return deliverer != null || queue.isEmpty();
        } finally {
            lock.unlock();
        }
    }
}
