package dev.loommcp.transport.stdio;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The last lines a child wrote to stderr, bounded in bytes: adding a line drops the oldest ones until the total
 * (each line's UTF-8 length plus one for its newline) fits the capacity. A single line longer than the capacity is
 * cut (by the drainer) before it gets here. Thread-safe.
 */
final class StderrRing {

    private final int capacity;
    private final ArrayDeque<String> lines = new ArrayDeque<>();
    private final ArrayDeque<Integer> weights = new ArrayDeque<>();
    private final ReentrantLock lock = new ReentrantLock();
    private long size;
    private long totalLines;

    StderrRing(int capacityBytes) {
        this.capacity = capacityBytes;
    }

    /**
     * Adds a line.
     *
     * @param line   the line without its terminator
     * @param weight its size in bytes as read
     */
    void add(String line, int weight) {
        int w = weight + 1;
        lock.lock();
        try {
            lines.addLast(line);
            weights.addLast(w);
            size += w;
            totalLines++;
            while (size > capacity && lines.size() > 1) {
                lines.removeFirst();
                size -= weights.removeFirst();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Returns the lines kept, oldest first. */
    List<String> lines() {
        lock.lock();
        try {
            return new ArrayList<>(lines);
        } finally {
            lock.unlock();
        }
    }

    /** Returns the lines kept joined with {@code '\n'}. */
    String tail() {
        return String.join("\n", lines());
    }

    /** Returns the bytes currently held (each line's length plus one). */
    long sizeBytes() {
        lock.lock();
        try {
            return size;
        } finally {
            lock.unlock();
        }
    }

    /** Returns how many lines were added in total. */
    long totalLines() {
        lock.lock();
        try {
            return totalLines;
        } finally {
            lock.unlock();
        }
    }
}
