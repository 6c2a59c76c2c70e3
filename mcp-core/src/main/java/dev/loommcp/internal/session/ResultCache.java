package dev.loommcp.internal.session;

import dev.loommcp.internal.json.Json;
import dev.loommcp.internal.json.JsonSize;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * The modern era's caching hints (MCP 2026-07-28 "Caching"): complete listings ({@code tools/list},
 * {@code prompts/list}, {@code resources/list}, {@code resources/templates/list}) and {@code resources/read} results
 * are reused while fresh: every page said {@code ttlMs > 0} and that many milliseconds have not passed since it
 * arrived. The matching {@code notifications/.../list_changed} (and {@code notifications/resources/updated} for a
 * read URI) drops an entry; a listing or read that was in flight when any such notification came is not stored. It
 * is per client, so {@code cacheScope: "private"} (per authorization context) is honoured. Nothing is stored in the
 * legacy era, and {@code input_required} results and multi round-trip retries are never stored (the session does
 * not offer them).
 *
 * <p>Bounded: at most {@code maxEntries} entries and {@code maxBytes} bytes (each entry counted as its estimated
 * size as JSON text, {@link JsonSize}); storing beyond either drops the oldest stored entries first, and a result
 * alone larger than {@code maxBytes} is not stored. Expired entries are swept on insert: a full pass at most once
 * per 16 inserts, and only once the earliest expiry held has passed, so that nothing expired stays held beyond the
 * next 16 stores; no thread of its own. Thread-safe: one {@link ReentrantLock} guards the map (held
 * for map operations only, never around user code or I/O).
 */
public final class ResultCache {

    private record Entry(Object value, long freshUntil, long bytes) {
        boolean fresh(long now) {
            return now - freshUntil < 0;
        }
    }

    private static final String READ = "read:";

    private final ReentrantLock lock = new ReentrantLock();
    /** In insertion order (a re-store moves the key to the end): the first is the oldest. Guarded by lock. */
    private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>();
    private final AtomicLong generation = new AtomicLong();
    private final BooleanSupplier enabled;
    private final int maxEntries;
    private final long maxBytes;
    /** The bytes of every entry held. Guarded by lock. */
    private long bytes;
    /**
     * The earliest expiry of the entries held (may be earlier than any of them after a removal: then one sweep too
     * many). Guarded by lock.
     */
    private long earliestExpiry;
    /** Whether {@link #earliestExpiry} holds an expiry (some entry was stored since the last sweep emptied it). */
    private boolean expiryKnown;
    /** Stores since the last sweep of expired entries. Guarded by lock. */
    private int storesSinceSweep;

    /**
     * @param enabled    whether results may be stored now (the modern era)
     * @param maxEntries the most entries held, at least 1
     * @param maxBytes   the most bytes held (estimated as JSON text), at least 1
     */
    ResultCache(BooleanSupplier enabled, int maxEntries, long maxBytes) {
        if (maxEntries < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("cache bounds must be at least 1: " + maxEntries + ", " + maxBytes);
        }
        this.enabled = enabled;
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
    }

    /** The generation a listing or read records when it starts; {@link #putPages} and {@link #putRead} check it. */
    long generation() {
        return generation.get();
    }

    /** The pages of a fresh complete listing of {@code method}, in order, or {@code null}. */
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> pages(String method) {
        Entry e = fresh(method);
        return e == null ? null : (List<Map<String, Object>>) e.value();
    }

    /**
     * Stores the pages of a complete listing that started at generation {@code started}, when every page allows
     * caching; fresh for the smallest {@code ttlMs}.
     */
    @SuppressWarnings("unchecked")
    void putPages(String method, List<Map<String, Object>> pages, long started) {
        long ttl = Long.MAX_VALUE;
        for (Map<String, Object> page : pages) {
            ttl = Math.min(ttl, ttlOf(page));
        }
        List<Map<String, Object>> copy = new ArrayList<>(pages.size());
        for (Map<String, Object> page : pages) {
            copy.add((Map<String, Object>) Json.deepUnmodifiable(page));
        }
        store(method, List.copyOf(copy), ttl, started);
    }

    /** The fresh {@code resources/read} result of {@code uri}, or {@code null}. */
    @SuppressWarnings("unchecked")
    Map<String, Object> read(String uri) {
        Entry e = fresh(READ + uri);
        return e == null ? null : (Map<String, Object>) e.value();
    }

    /** Stores a complete {@code resources/read} result of a read that started at generation {@code started}. */
    void putRead(String uri, Map<String, Object> result, long started) {
        store(READ + uri, Json.deepUnmodifiable(result), ttlOf(result), started);
    }

    /** Drops what a server notification says changed. */
    void onNotification(JsonRpcMessage.Notification n) {
        switch (n.method()) {
            case "notifications/tools/list_changed" -> invalidate("tools/list");
            case "notifications/prompts/list_changed" -> invalidate("prompts/list");
            case "notifications/resources/list_changed" -> {
                invalidate("resources/list");
                invalidate("resources/templates/list");
            }
            case "notifications/resources/updated" -> {
                if (n.params() != null && n.params().get("uri") instanceof String uri) {
                    invalidate(READ + uri);
                }
            }
            default -> {
                // nothing cached depends on it
            }
        }
    }

    /** Drops everything. */
    void clear() {
        generation.incrementAndGet();
        lock.lock();
        try {
            entries.clear();
            bytes = 0;
        } finally {
            lock.unlock();
        }
    }

    /** How many entries are held, expired ones included (for tests). */
    int size() {
        lock.lock();
        try {
            return entries.size();
        } finally {
            lock.unlock();
        }
    }

    /** The estimated bytes of the entries held, expired ones included (for tests). */
    long bytes() {
        lock.lock();
        try {
            return bytes;
        } finally {
            lock.unlock();
        }
    }

    private void invalidate(String key) {
        generation.incrementAndGet(); // before the removal: a store racing with it sees the new generation
        lock.lock();
        try {
            remove(key);
        } finally {
            lock.unlock();
        }
    }

    private Entry fresh(String key) {
        lock.lock();
        try {
            Entry e = entries.get(key);
            if (e != null && !e.fresh(System.nanoTime())) {
                remove(key);
                return null;
            }
            return e;
        } finally {
            lock.unlock();
        }
    }

    private void store(String key, Object value, long ttlMs, long started) {
        if (ttlMs <= 0 || !enabled.getAsBoolean()) {
            return;
        }
        long size = JsonSize.of(value) + key.length();
        long now = System.nanoTime();
        Entry e = new Entry(value, now + TimeUnit.MILLISECONDS.toNanos(Math.min(ttlMs,
                TimeUnit.DAYS.toMillis(365))), size);
        lock.lock();
        try {
            if (generation.get() != started) {
                return; // a change notification came while it was in flight
            }
            remove(key); // a re-store goes to the end of the order, as the newest
            if (size > maxBytes) {
                return; // alone over the budget: not kept (nor the older result it replaces)
            }
            // every 16th store at most, and only once something has expired: O(entries) per 16 stores
            if (++storesSinceSweep >= SWEEP_EVERY && expiryKnown && now - earliestExpiry >= 0) {
                sweep(now);
            }
            Iterator<Entry> oldest = entries.values().iterator();
            while (oldest.hasNext() && (entries.size() >= maxEntries || bytes + size > maxBytes)) {
                bytes -= oldest.next().bytes();
                oldest.remove();
            }
            entries.put(key, e);
            bytes += size;
            if (!expiryKnown || e.freshUntil() - earliestExpiry < 0) {
                earliestExpiry = e.freshUntil();
                expiryKnown = true;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Drops every expired entry. Holds lock. */
    private void sweep(long now) {
        storesSinceSweep = 0;
        expiryKnown = false;
        Iterator<Entry> it = entries.values().iterator();
        while (it.hasNext()) {
            Entry e = it.next();
            if (!e.fresh(now)) {
                bytes -= e.bytes();
                it.remove();
            } else if (!expiryKnown || e.freshUntil() - earliestExpiry < 0) {
                earliestExpiry = e.freshUntil();
                expiryKnown = true;
            }
        }
    }

    /** How many stores at least come between two sweeps. */
    private static final int SWEEP_EVERY = 16;

    /** Removes one entry, keeping the byte count. Holds lock. */
    private void remove(String key) {
        Entry old = entries.remove(key);
        if (old != null) {
            bytes -= old.bytes();
        }
    }

    /** A result's {@code ttlMs}: missing, negative or not an integer is 0. */
    static long ttlOf(Map<String, Object> result) {
        return result.get("ttlMs") instanceof Number n && n.longValue() > 0 ? n.longValue() : 0;
    }
}
