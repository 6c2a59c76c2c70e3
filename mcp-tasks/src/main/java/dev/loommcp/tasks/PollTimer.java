package dev.loommcp.tasks;

import dev.loommcp.spi.TransportThreads;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * One timer for every task of a client that waits for its next poll: a single virtual thread sleeps until the
 * earliest due poll and starts a short-lived virtual thread per due poll, so a task costs a thread only while its
 * poll request is out. The timer thread itself ends when nothing is scheduled and is started again by the next
 * {@link #schedule}. Thread-safe.
 */
final class PollTimer {

    private record Entry(long dueNanos, long seq, TaskHandle handle) implements Comparable<Entry> {
        @Override
        public int compareTo(Entry o) {
            int c = Long.compare(dueNanos - o.dueNanos, 0);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    private final TransportThreads threads;
    private final Consumer<TaskHandle> poll;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final PriorityQueue<Entry> queue = new PriorityQueue<>();
    private final AtomicLong seq = new AtomicLong();
    private boolean running;
    private boolean closed;

    /**
     * Creates a timer.
     *
     * @param threads where the timer and poll threads come from
     * @param poll    runs one poll of a handle (on a new thread per poll)
     */
    PollTimer(TransportThreads threads, Consumer<TaskHandle> poll) {
        this.threads = threads;
        this.poll = poll;
    }

    /**
     * Schedules one poll of a handle.
     *
     * @param handle   the handle
     * @param dueNanos when, in {@link System#nanoTime()} terms
     * @return {@code false} if the timer is closed (nothing scheduled)
     */
    boolean schedule(TaskHandle handle, long dueNanos) {
        lock.lock();
        try {
            if (closed) {
                return false;
            }
            queue.add(new Entry(dueNanos, seq.incrementAndGet(), handle));
            if (!running) {
                running = true;
                try {
                    threads.start("tasks-timer", this::run);
                } catch (RuntimeException | Error e) {
                    running = false;
                    queue.clear();
                    throw e;
                }
            } else {
                changed.signalAll();
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Drops every scheduled poll and ends the timer thread; later {@link #schedule} calls do nothing. */
    void close() {
        lock.lock();
        try {
            closed = true;
            queue.clear();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Returns how many polls are scheduled now (for tests).
     *
     * @return the count
     */
    int scheduled() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    private void run() {
        lock.lock();
        try {
            while (!closed) {
                Entry head = queue.peek();
                if (head == null) {
                    return;
                }
                long wait = head.dueNanos - System.nanoTime();
                if (wait > 0) {
                    changed.awaitNanos(wait);
                    continue;
                }
                queue.poll();
                lock.unlock();
                try {
                    startPoll(head.handle);
                } finally {
                    lock.lock();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            running = false;
            try {
                if (!closed && !queue.isEmpty()) {
                    // interrupted with work left: hand it to a new timer thread
                    running = true;
                    threads.start("tasks-timer", this::run);
                }
            } catch (RuntimeException e) {
                running = false;
            } finally {
                lock.unlock();
            }
        }
    }

    private void startPoll(TaskHandle handle) {
        try {
            threads.start("tasks-poll", () -> poll.accept(handle));
        } catch (RuntimeException e) {
            handle.fail(new IllegalStateException("could not start a poll thread for task " + handle.id(), e));
        }
    }
}
