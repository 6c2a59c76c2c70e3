package dev.loommcp.internal.session.era;

import dev.loommcp.config.Era;
import dev.loommcp.schema.DiscoverResult;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The era verdicts of {@code ProtocolMode.AUTO}, per server ({@link dev.loommcp.spi.McpTransport#serverKey()}), in
 * memory for the life of the JVM (MCP 2026-07-28 "Versioning": the decision is a property of the server; clients MAY
 * cache it and re-probe when it fails). A modern verdict keeps the {@code server/discover} result too when it is
 * {@code cacheScope: "public"} with a positive {@code ttlMs}, so that a later connect within that time sends
 * nothing to learn the server. Bounded; thread-safe.
 */
public final class EraVerdicts {

    /** The most servers remembered; beyond it the cache starts over. */
    static final int MAX_ENTRIES = 1024;

    /**
     * One server's verdict.
     *
     * @param era          the era
     * @param discover     a shareable discover result, or {@code null}
     * @param freshUntil   the {@link System#nanoTime()} until which {@code discover} may be reused
     */
    public record Verdict(Era era, DiscoverResult discover, long freshUntil) {
        /** Whether the discover result may be adopted without asking the server. */
        boolean fresh() {
            return discover != null && System.nanoTime() - freshUntil < 0;
        }
    }

    private static final ConcurrentHashMap<String, Verdict> VERDICTS = new ConcurrentHashMap<>();

    private EraVerdicts() {
    }

    /** The verdict for {@code key}, or {@code null} (always for a {@code null} key). */
    static Verdict get(String key) {
        return key == null ? null : VERDICTS.get(key);
    }

    /** Records a verdict and returns it; nothing (and {@code null}) for a {@code null} key. */
    static Verdict put(String key, Era era, DiscoverResult discover) {
        if (key == null) {
            return null;
        }
        boolean shareable = discover != null && "public".equals(discover.cacheScope()) && discover.ttlMs() > 0;
        long now = System.nanoTime();
        if (VERDICTS.size() >= MAX_ENTRIES && !VERDICTS.containsKey(key)) {
            VERDICTS.clear();
        }
        Verdict v = shareable ? new Verdict(era, discover, now + TimeUnit.MILLISECONDS.toNanos(discover.ttlMs()))
                : new Verdict(era, null, now);
        VERDICTS.put(key, v);
        return v;
    }

    /** Drops the verdict {@code seen} for {@code key} (it failed), unless another connect replaced it already. */
    public static void drop(String key, Verdict seen) {
        if (key != null && seen != null) {
            VERDICTS.remove(key, seen);
        }
    }

    /** Forgets every verdict (tests). */
    static void clear() {
        VERDICTS.clear();
    }
}
