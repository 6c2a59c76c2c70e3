package dev.loommcp.internal.session;

import dev.loommcp.RequestOptions;
import java.time.Duration;
import java.time.Instant;

/** Deadline arithmetic on {@link System#nanoTime()} values; {@link Long#MAX_VALUE} means none. */
final class Deadlines {

    private Deadlines() {
    }

    /** The call's deadline: the earlier of its timeout and deadline; the default only when it sets neither. */
    static long of(RequestOptions options, long now, Duration defaultTimeout) {
        Duration timeout = options.timeout().orElse(options.deadline().isPresent() ? null : defaultTimeout);
        long deadline = timeout == null ? Long.MAX_VALUE : saturatedAdd(now, timeout);
        if (options.deadline().isPresent()) {
            deadline = Math.min(deadline, monotonic(options.deadline().get(), now));
        }
        return deadline;
    }

    /** Converts a wall-clock deadline into a {@link System#nanoTime()} one, once, at the start of a call. */
    static long monotonic(Instant deadline, long now) {
        Duration left = Duration.between(Instant.now(), deadline);
        return saturatedAdd(now, left.isNegative() ? Duration.ZERO : left);
    }

    static long saturatedAdd(long now, Duration d) {
        long nanos;
        try {
            nanos = d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
        long sum = now + nanos;
        return ((now ^ sum) & (nanos ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }
}
