package dev.loommcp.internal.concurrent;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A FIFO queue bounded both by entry count and by bytes (each entry's size is given by the producer). Adding beyond
 * either bound drops the oldest entries until both hold again, counting every drop; the newest entry is always kept,
 * so one entry larger than the byte bound is held alone. A queue can be closed with a last entry, after which it
 * refuses more.
 *
 * <p>Thread-safe. Waiting consumers park on a {@link ReentrantLock} condition (no pinning of virtual threads).
 *
 * @param <T> the entry type
 */
public final class BoundedQueue<T> {

    private record Slot<T>(T item, long bytes) {
    }

    private final int maxEntries;
    private final long maxBytes;
    private final AtomicLong drops;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final ArrayDeque<Slot<T>> slots = new ArrayDeque<>();
    private long bytes;
    private boolean closed;

    /**
     * Creates a queue.
     *
     * @param maxEntries the most entries held, at least 1
     * @param maxBytes   the most bytes held (but always the newest entry), at least 1
     * @param drops      counts dropped entries (may be shared by several queues)
     * @throws IllegalArgumentException if a bound is less than 1
     */
    public BoundedQueue(int maxEntries, long maxBytes, AtomicLong drops) {
        if (maxEntries < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("bounds must be at least 1: " + maxEntries + " entries, " + maxBytes
                    + " bytes");
        }
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
        this.drops = drops;
    }

    /**
     * Adds an entry at the tail, dropping the oldest entries beyond the bounds.
     *
     * @param item  the entry, not {@code null}
     * @param size  its size in bytes (negative counts as 0)
     * @return how many older entries were dropped to make room, or -1 if the queue is closed (nothing was added)
     */
    public int offer(T item, long size) {
        return add(item, size, false);
    }

    /**
     * Adds a last entry and closes the queue: later {@link #offer}s are refused. The last entry is never dropped.
     * Does nothing if the queue is already closed.
     *
     * @param last the last entry
     */
    public void close(T last) {
        add(last, 0, true);
    }

    private int add(T item, long size, boolean last) {
        long s = Math.max(0, size);
        lock.lock();
        try {
            if (closed) {
                return -1;
            }
            closed = last;
            slots.addLast(new Slot<>(item, s));
            bytes += s;
            int dropped = 0;
            while ((slots.size() > maxEntries || bytes > maxBytes) && slots.size() > 1) {
                bytes -= slots.removeFirst().bytes();
                dropped++;
            }
            if (dropped > 0) {
                drops.addAndGet(dropped);
            }
            notEmpty.signal();
            return dropped;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Removes the head, waiting while the queue is empty.
     *
     * @return the head
     * @throws InterruptedException if interrupted while waiting
     */
    public T take() throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (slots.isEmpty()) {
                notEmpty.await();
            }
            return removeHead();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Removes the head, waiting at most {@code timeout} while the queue is empty.
     *
     * @param timeout how long to wait
     * @param unit    its unit
     * @return the head, or {@code null} if none came in time
     * @throws InterruptedException if interrupted while waiting
     */
    public T poll(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            while (slots.isEmpty()) {
                if (nanos <= 0) {
                    return null;
                }
                nanos = notEmpty.awaitNanos(nanos);
            }
            return removeHead();
        } finally {
            lock.unlock();
        }
    }

    private T removeHead() {
        Slot<T> head = slots.removeFirst();
        bytes -= head.bytes();
        if (!slots.isEmpty()) {
            notEmpty.signal();
        }
        return head.item();
    }

    /**
     * Removes and returns every entry, oldest first.
     *
     * @return the entries, possibly empty
     */
    public List<T> drain() {
        lock.lock();
        try {
            List<T> out = new ArrayList<>(slots.size());
            for (Slot<T> slot : slots) {
                out.add(slot.item());
            }
            slots.clear();
            bytes = 0;
            return out;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Returns how many entries are held.
     *
     * @return the count
     */
    public int size() {
        lock.lock();
        try {
            return slots.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Returns how many bytes the held entries account for.
     *
     * @return the sum of their sizes
     */
    public long bytes() {
        lock.lock();
        try {
            return bytes;
        } finally {
            lock.unlock();
        }
    }
}
