package dev.loommcp.transport.stdio;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The last lines a child wrote to stderr, held as UTF-8 bytes in one circular byte array, each line followed by
 * {@code '\n'}. Adding a line drops the oldest ones until the new one fits. The array grows (doubling) up to the
 * capacity and never beyond it, so the heap the ring holds is bounded by the capacity (plus one array header)
 * whatever the line lengths: a million one-byte lines cost no more than one long line. A single line longer than
 * the capacity (the drainer already cuts lines, but the cut marker adds a little) keeps its beginning. Thread-safe.
 */
final class StderrRing {

    private static final int INITIAL = 1024;

    private final int capacity;
    private final ReentrantLock lock = new ReentrantLock();
    private byte[] buf;
    /** Index of the oldest byte. */
    private int head;
    /** Bytes held. */
    private int size;
    private long totalLines;

    /**
     * @param capacityBytes the most bytes held (line bytes plus one per line end), at least 2
     */
    StderrRing(int capacityBytes) {
        this.capacity = Math.max(2, capacityBytes);
        this.buf = new byte[Math.min(INITIAL, capacity)];
    }

    /**
     * Adds a line.
     *
     * @param line the line without its terminator (it never holds {@code '\n'})
     */
    void add(String line) {
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        int len = b.length;
        if (len + 1 > capacity) {
            // keep the beginning, cut at a character boundary (never before a continuation byte)
            len = capacity - 1;
            while (len > 0 && (b[len] & 0xC0) == 0x80) {
                len--;
            }
        }
        int need = len + 1;
        lock.lock();
        try {
            totalLines++;
            while (size + need > capacity) {
                dropOldest();
            }
            if (size + need > buf.length) {
                grow(size + need);
            }
            put(b, len);
            put(new byte[] {'\n'}, 1);
        } finally {
            lock.unlock();
        }
    }

    private void dropOldest() {
        int i = 0;
        while (i < size && buf[(head + i) % buf.length] != '\n') {
            i++;
        }
        int drop = Math.min(size, i + 1);
        head = (head + drop) % buf.length;
        size -= drop;
    }

    private void grow(int atLeast) {
        int n = buf.length;
        while (n < atLeast) {
            n = (int) Math.min((long) n * 2, capacity);
        }
        byte[] nb = new byte[n];
        copyOut(nb);
        buf = nb;
        head = 0;
    }

    private void put(byte[] b, int len) {
        int tail = (head + size) % buf.length;
        int first = Math.min(len, buf.length - tail);
        System.arraycopy(b, 0, buf, tail, first);
        System.arraycopy(b, first, buf, 0, len - first);
        size += len;
    }

    /** Copies the held bytes, oldest first, to the start of {@code dst}. */
    private void copyOut(byte[] dst) {
        int first = Math.min(size, buf.length - head);
        System.arraycopy(buf, head, dst, 0, first);
        System.arraycopy(buf, 0, dst, first, size - first);
    }

    /** Returns the lines kept, oldest first. */
    List<String> lines() {
        String all = text();
        List<String> out = new ArrayList<>();
        int from = 0;
        for (int i = all.indexOf('\n'); i >= 0; i = all.indexOf('\n', from)) {
            out.add(all.substring(from, i));
            from = i + 1;
        }
        return out;
    }

    /** Returns the lines kept joined with {@code '\n'}. */
    String tail() {
        String all = text();
        return all.isEmpty() ? all : all.substring(0, all.length() - 1);
    }

    private String text() {
        lock.lock();
        try {
            byte[] out = new byte[size];
            copyOut(out);
            return new String(out, StandardCharsets.UTF_8);
        } finally {
            lock.unlock();
        }
    }

    /** Returns the bytes currently held (each line's UTF-8 length plus one). */
    long sizeBytes() {
        lock.lock();
        try {
            return size;
        } finally {
            lock.unlock();
        }
    }

    /** Returns the length of the array that holds the lines: the heap the ring holds, apart from its headers. */
    long heapBytes() {
        lock.lock();
        try {
            return buf.length;
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
