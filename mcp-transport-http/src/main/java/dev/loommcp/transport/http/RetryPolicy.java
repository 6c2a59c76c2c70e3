package dev.loommcp.transport.http;

import dev.loommcp.Deadline;
import java.net.http.HttpHeaders;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * When a request refused with 429 (Too Many Requests), or 503 (Service Unavailable) with {@code Retry-After}, is
 * sent again ({@link RefusalRetry}): such a refusal means the server did not process it (RFC 6585 section 4, RFC
 * 9110 section 15.6.4), so sending it again is safe whatever it is. At most {@value #MAX_SENDS} sends; each wait is
 * the server's {@code Retry-After} (RFC 9110 section 10.2.3: delta-seconds or an HTTP date) plus a jitter of up to a
 * tenth of it (at least 50 ms, at most 1 s), so that clients refused together do not come back together; without
 * one (a 429 only: a 503 without it is an outage of unknown length, which fails at once as before) an exponential
 * backoff from {@value #BACKOFF_BASE_MILLIS} ms, with full jitter between half and all of it. A
 * {@code Retry-After} longer than {@value #MAX_RETRY_AFTER_SECONDS} s, or a wait that would pass the call's deadline,
 * is not waited for: the call fails at once with {@link McpRateLimitedException}. Stateless.
 */
final class RetryPolicy {

    /** The most times a refused request is sent, the first included. */
    static final int MAX_SENDS = 5;
    /** The longest {@code Retry-After} the transport waits for, in seconds. */
    static final long MAX_RETRY_AFTER_SECONDS = 60;
    /** The first wait of the backoff without {@code Retry-After}, in milliseconds; it doubles with each send. */
    static final long BACKOFF_BASE_MILLIS = 250;

    /** IMF-fixdate, RFC 850 and asctime dates (RFC 9110 section 5.6.7: a recipient accepts all three). */
    private static final DateTimeFormatter[] DATES = {
        DateTimeFormatter.RFC_1123_DATE_TIME,
        new DateTimeFormatterBuilder().parseCaseInsensitive().appendPattern("EEEE, dd-MMM-")
                .appendValueReduced(ChronoField.YEAR, 2, 2, 1970).appendPattern(" HH:mm:ss 'GMT'")
                .toFormatter(Locale.US).withZone(java.time.ZoneOffset.UTC),
        new DateTimeFormatterBuilder().parseCaseInsensitive().appendPattern("EEE MMM")
                .appendLiteral(' ').padNext(2).appendValue(ChronoField.DAY_OF_MONTH)
                .appendPattern(" HH:mm:ss yyyy").toFormatter(Locale.US).withZone(java.time.ZoneOffset.UTC),
    };

    private RetryPolicy() {
    }

    /** Whether a status is a refusal this policy may retry (429, or 503 with a valid {@code Retry-After}). */
    static boolean isRefusal(int status, Duration retryAfter) {
        return status == 429 || (status == 503 && retryAfter != null);
    }

    /**
     * The {@code Retry-After} of an answer as a wait from the answer's time: delta-seconds as they are (a huge
     * number saturates), an HTTP date minus the answer's {@code Date} (so that the two clocks need not agree), or
     * minus now when it has none; a date in the past is zero.
     *
     * @return the wait, or {@code null} when absent or not valid
     */
    static Duration retryAfter(HttpHeaders headers) {
        String v = headers.firstValue("Retry-After").map(String::trim).orElse(null);
        if (v == null || v.isEmpty() || v.length() > 64) {
            return null;
        }
        if (v.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return v.length() > 12 ? Duration.ofSeconds(999_999_999_999L) : Duration.ofSeconds(Long.parseLong(v));
        }
        Instant at = date(v);
        if (at == null) {
            return null;
        }
        Instant now = headers.firstValue("Date").map(RetryPolicy::date).orElse(null);
        Duration d = Duration.between(now != null ? now : Instant.now(), at);
        return d.isNegative() ? Duration.ZERO : d;
    }

    private static Instant date(String text) {
        for (DateTimeFormatter f : DATES) {
            try {
                return ZonedDateTime.parse(text.trim(), f).toInstant();
            } catch (DateTimeParseException e) {
                // the next form
            }
        }
        return null;
    }

    /**
     * How long to wait before the next send.
     *
     * @param retryAfter the server's wait, or {@code null}
     * @param sent       how many times the request was sent so far (at least 1)
     * @return the wait in milliseconds, jittered
     */
    static long waitMillis(Duration retryAfter, int sent) {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        if (retryAfter == null) {
            long full = BACKOFF_BASE_MILLIS << Math.min(sent - 1, 10);
            return full / 2 + r.nextLong(full / 2 + 1);
        }
        long ms = retryAfter.toMillis();
        return ms + r.nextLong(Math.min(1_000, Math.max(50, ms / 10)) + 1);
    }

    /**
     * Why the request is not sent again, or {@code null} when it is.
     *
     * @param retryAfter    the server's wait, or {@code null}
     * @param sent          how many times it was sent so far
     * @param waitMillis    the wait {@link #waitMillis} chose
     * @param deadline      the call's deadline ({@link Deadline#NONE} for none)
     */
    static String giveUp(Duration retryAfter, int sent, long waitMillis, Deadline deadline) {
        if (sent >= MAX_SENDS) {
            return "it was refused " + sent + " times";
        }
        if (retryAfter != null && retryAfter.compareTo(Duration.ofSeconds(MAX_RETRY_AFTER_SECONDS)) > 0) {
            return "the transport waits at most " + MAX_RETRY_AFTER_SECONDS + " s";
        }
        if (!deadline.isNone() && deadline.remainingNanos() - TimeUnit.MILLISECONDS.toNanos(waitMillis) <= 0) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline.remainingNanos());
            return "the wait would pass the call's deadline (" + left + " ms left)";
        }
        return null;
    }

    /** A wait for a message: "2 s", "1500 ms". */
    static String describe(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
    }
}
