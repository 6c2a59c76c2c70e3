package dev.loommcp;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A point in time by which something must finish, on the monotonic clock of {@link System#nanoTime()}: a request's
 * deadline, the bound of opening a transport. Immutable and thread-safe; a value class (compare with
 * {@link #equals}, never with {@code ==}).
 *
 * <p>{@link #NONE} means no deadline: it never expires, {@link #remaining()} is unbounded and it is later than every
 * other deadline. All arithmetic saturates: a duration so long that {@code nanoTime() + duration} would overflow gives
 * {@link #NONE}, never a deadline in the past; a negative duration or an instant in the past gives a deadline that has
 * already expired.
 *
 * <p>A wall-clock {@link Instant} is converted once, by {@link #at(Instant)}, against the current wall clock; later
 * changes of the wall clock do not move the deadline.
 */
public final class Deadline implements Comparable<Deadline> {

    /** No deadline: never expires. */
    public static final Deadline NONE = new Deadline(Long.MAX_VALUE);

    /** The {@link System#nanoTime()} value; {@link Long#MAX_VALUE} for {@link #NONE}. */
    private final long nanoTime;

    private Deadline(long nanoTime) {
        this.nanoTime = nanoTime;
    }

    /**
     * Returns the deadline {@code timeout} from now.
     *
     * @param timeout how long from now; a negative or zero duration gives an expired deadline, one too long to
     *                represent gives {@link #NONE}
     * @return the deadline
     * @throws NullPointerException if {@code timeout} is {@code null}
     */
    public static Deadline after(Duration timeout) {
        return ofNanoTime(System.nanoTime()).plus(timeout);
    }

    /**
     * Returns the deadline at a wall-clock instant, converted to the monotonic clock now.
     *
     * @param instant the wall-clock deadline; one in the past gives an expired deadline
     * @return the deadline
     * @throws NullPointerException if {@code instant} is {@code null}
     */
    public static Deadline at(Instant instant) {
        Objects.requireNonNull(instant, "instant");
        long now = System.nanoTime();
        Duration left = Duration.between(Instant.now(), instant);
        return ofNanoTime(now).plus(left.isNegative() ? Duration.ZERO : left);
    }

    /**
     * Returns the deadline at a {@link System#nanoTime()} value.
     *
     * @param nanoTime the value; {@link Long#MAX_VALUE} gives {@link #NONE}
     * @return the deadline
     */
    public static Deadline ofNanoTime(long nanoTime) {
        return nanoTime == Long.MAX_VALUE ? NONE : new Deadline(nanoTime);
    }

    /**
     * Returns the earliest of the given deadlines.
     *
     * @param deadlines the deadlines, none {@code null}
     * @return the earliest; {@link #NONE} when none is given
     * @throws NullPointerException if the array or an element is {@code null}
     */
    public static Deadline earliest(Deadline... deadlines) {
        Deadline result = NONE;
        for (Deadline d : deadlines) {
            result = result.earliest(d);
        }
        return result;
    }

    /**
     * Returns the earlier of this deadline and {@code other}.
     *
     * @param other the other deadline
     * @return the earlier one (this one when they are equal)
     * @throws NullPointerException if {@code other} is {@code null}
     */
    public Deadline earliest(Deadline other) {
        Objects.requireNonNull(other, "other");
        return compareTo(other) <= 0 ? this : other;
    }

    /**
     * Returns this deadline moved by {@code d}, saturating: {@link #NONE} stays {@link #NONE}, an overflow gives
     * {@link #NONE}, and a move into the past is clamped so that the result is never before the current time minus
     * the time already overdue (it stays expired).
     *
     * @param d the duration to add, may be negative
     * @return the moved deadline
     * @throws NullPointerException if {@code d} is {@code null}
     */
    public Deadline plus(Duration d) {
        Objects.requireNonNull(d, "duration");
        if (this == NONE || isNone()) {
            return NONE;
        }
        long nanos;
        try {
            nanos = d.toNanos();
        } catch (ArithmeticException e) {
            return d.isNegative() ? new Deadline(System.nanoTime()) : NONE;
        }
        long sum = nanoTime + nanos;
        if (((nanoTime ^ sum) & (nanos ^ sum)) < 0) {
            return nanos > 0 ? NONE : new Deadline(System.nanoTime()); // overflow either way
        }
        return ofNanoTime(sum);
    }

    /**
     * Returns whether this is {@link #NONE}.
     *
     * @return {@code true} for no deadline
     */
    public boolean isNone() {
        return nanoTime == Long.MAX_VALUE;
    }

    /**
     * Returns the {@link System#nanoTime()} value of this deadline.
     *
     * @return the value; {@link Long#MAX_VALUE} for {@link #NONE}
     */
    public long nanoTime() {
        return nanoTime;
    }

    /**
     * Returns how many nanoseconds are left.
     *
     * @return the time left, {@code 0} once expired, {@link Long#MAX_VALUE} for {@link #NONE}
     */
    public long remainingNanos() {
        if (isNone()) {
            return Long.MAX_VALUE;
        }
        long now = System.nanoTime();
        long left = nanoTime - now;
        if (((nanoTime ^ now) & (nanoTime ^ left)) < 0) {
            return left < 0 ? Long.MAX_VALUE - 1 : 0; // overflow of the difference: far away, or long past
        }
        return Math.max(0, left);
    }

    /**
     * Returns how much time is left.
     *
     * @return the time left, {@link Duration#ZERO} once expired; for {@link #NONE} a duration of
     *         {@link Long#MAX_VALUE} nanoseconds (check {@link #isNone()} to tell)
     */
    public Duration remaining() {
        return Duration.ofNanos(remainingNanos());
    }

    /**
     * Returns whether the deadline has passed. {@link #NONE} never expires.
     *
     * @return {@code true} once {@link System#nanoTime()} reached the deadline
     */
    public boolean isExpired() {
        return !isNone() && System.nanoTime() - nanoTime >= 0;
    }

    /**
     * Orders deadlines by time; {@link #NONE} is the latest.
     *
     * @param other the other deadline
     * @return negative, zero or positive as this is earlier, equal or later
     */
    @Override
    public int compareTo(Deadline other) {
        if (isNone() || other.isNone()) {
            return Boolean.compare(isNone(), other.isNone());
        }
        return Long.signum(nanoTime - other.nanoTime); // wrap-safe for deadlines within 292 years of each other
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Deadline d && d.nanoTime == nanoTime;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(nanoTime);
    }

    /** Describes the deadline relative to now, for example {@code Deadline[in 1500 ms]}. */
    @Override
    public String toString() {
        if (isNone()) {
            return "Deadline[none]";
        }
        long left = remainingNanos();
        return left == 0 ? "Deadline[expired]" : "Deadline[in " + Duration.ofNanos(left).toMillis() + " ms]";
    }
}
