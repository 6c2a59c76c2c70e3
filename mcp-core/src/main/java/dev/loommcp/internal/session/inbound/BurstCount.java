package dev.loommcp.internal.session.inbound;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts events that come in bursts (requests refused at a bound) for a rate-limited WARNING that still counts each
 * one: the first is reported at once, the rest of a burst when it ends ({@link #flush}, called when the bound frees
 * up) or, while it lasts, at most every {@link #INTERVAL_NANOS}. Each event is in exactly one report, so the
 * reports add up to the total (a burst of 685 was once logged as "1 so far" and nothing more). Lock-free;
 * thread-safe. The report callback is the caller's own logging, never user code.
 */
final class BurstCount {

    /** The longest a burst goes unreported while it lasts: 10 s. */
    static final long INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** Logs a report. */
    @FunctionalInterface
    interface Report {
        /**
         * @param added the events since the last report
         * @param total the events in all
         */
        void report(long added, long total);
    }

    private final AtomicLong count = new AtomicLong();
    private final AtomicLong reported = new AtomicLong();
    private final Report report;
    private volatile long lastReportNanos;

    BurstCount(Report report) {
        this.report = report;
    }

    /** Counts one event; reports the first at once, and what is pending when the last report is long ago. */
    void add() {
        long n = count.incrementAndGet();
        if (n == 1 || System.nanoTime() - lastReportNanos > INTERVAL_NANOS) {
            flush();
        }
    }

    /** Reports what no report counted yet, if anything (a burst ended). Cheap when nothing is pending. */
    void flush() {
        long total = count.get();
        if (total == reported.get()) {
            return;
        }
        long before = reported.getAndAccumulate(total, Math::max);
        if (total > before) {
            lastReportNanos = System.nanoTime();
            report.report(total - before, total);
        }
    }

    /** The events in all. */
    long total() {
        return count.get();
    }
}
