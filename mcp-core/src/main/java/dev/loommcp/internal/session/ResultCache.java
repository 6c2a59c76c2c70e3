package dev.loommcp.internal.session;

import dev.loommcp.internal.json.Json;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * The modern era's caching hints (MCP 2026-07-28 "Caching"): complete listings ({@code tools/list},
 * {@code prompts/list}, {@code resources/list}, {@code resources/templates/list}) and {@code resources/read} results
 * are reused while fresh: every page said {@code ttlMs > 0} and that many milliseconds have not passed since it
 * arrived. The matching {@code notifications/.../list_changed} (and {@code notifications/resources/updated} for a
 * read URI) drops an entry; a listing or read that was in flight when any such notification came is not stored. It
 * is per client, so {@code cacheScope: "private"} (per authorization context) is honoured. Nothing is stored in the
 * legacy era, and {@code input_required} results and multi round-trip retries are never stored (the session does
 * not offer them). Thread-safe.
 */
public final class ResultCache {

    private record Entry(Object value, long freshUntil) {
        boolean fresh() {
            return System.nanoTime() - freshUntil < 0;
        }
    }

    private static final String READ = "read:";

    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
    private final AtomicLong generation = new AtomicLong();
    private final BooleanSupplier enabled;

    /**
     * @param enabled whether results may be stored now (the modern era)
     */
    ResultCache(BooleanSupplier enabled) {
        this.enabled = enabled;
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
        entries.clear();
    }

    private void invalidate(String key) {
        generation.incrementAndGet(); // before the removal: a store racing with it sees the new generation
        entries.remove(key);
    }

    private Entry fresh(String key) {
        Entry e = entries.get(key);
        if (e == null) {
            return null;
        }
        if (!e.fresh()) {
            entries.remove(key, e);
            return null;
        }
        return e;
    }

    private void store(String key, Object value, long ttlMs, long started) {
        if (ttlMs <= 0 || !enabled.getAsBoolean()) {
            return;
        }
        Entry e = new Entry(value, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.min(ttlMs,
                TimeUnit.DAYS.toMillis(365))));
        entries.put(key, e);
        if (generation.get() != started) {
            entries.remove(key, e); // a change notification came while it was in flight
        }
    }

    /** A result's {@code ttlMs}: missing, negative or not an integer is 0. */
    static long ttlOf(Map<String, Object> result) {
        return result.get("ttlMs") instanceof Number n && n.longValue() > 0 ? n.longValue() : 0;
    }
}
