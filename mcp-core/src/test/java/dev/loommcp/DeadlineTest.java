package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

class DeadlineTest {

    @Test
    void noneNeverExpiresAndIsLatest() {
        assertThat(Deadline.NONE.isNone()).isTrue();
        assertThat(Deadline.NONE.isExpired()).isFalse();
        assertThat(Deadline.NONE.remainingNanos()).isEqualTo(Long.MAX_VALUE);
        assertThat(Deadline.NONE.nanoTime()).isEqualTo(Long.MAX_VALUE);
        assertThat(Deadline.NONE.plus(Duration.ofDays(-1))).isSameAs(Deadline.NONE);
        assertThat(Deadline.ofNanoTime(Long.MAX_VALUE)).isSameAs(Deadline.NONE);
        Deadline soon = Deadline.after(Duration.ofHours(1));
        assertThat(soon.compareTo(Deadline.NONE)).isNegative();
        assertThat(Deadline.NONE.compareTo(soon)).isPositive();
        assertThat(Deadline.NONE.earliest(soon)).isEqualTo(soon);
        assertThat(Deadline.NONE).hasToString("Deadline[none]");
    }

    @Test
    void afterSaturatesInsteadOfOverflowing() {
        // nanoTime() + Long.MAX_VALUE nanos would wrap into the past: it must mean "no deadline" instead
        assertThat(Deadline.after(Duration.ofNanos(Long.MAX_VALUE))).isEqualTo(Deadline.NONE);
        assertThat(Deadline.after(Duration.ofSeconds(Long.MAX_VALUE))).isEqualTo(Deadline.NONE); // toNanos overflows
        assertThat(Deadline.ofNanoTime(Long.MAX_VALUE - 10).plus(Duration.ofNanos(100))).isEqualTo(Deadline.NONE);
        Deadline d = Deadline.ofNanoTime(Long.MAX_VALUE - 10);
        assertThat(d.isNone()).isFalse();
    }

    @Test
    void negativeOverflowGivesAnExpiredDeadlineNotAFarFutureOne() {
        Deadline d = Deadline.ofNanoTime(Long.MIN_VALUE + 10).plus(Duration.ofNanos(-100));
        assertThat(d.isNone()).isFalse();
        assertThat(d.isExpired()).isTrue();
        assertThat(Deadline.after(Duration.ofSeconds(Long.MIN_VALUE)).isExpired()).isTrue();
        assertThat(Deadline.after(Duration.ofMillis(-5)).isExpired()).isTrue();
        assertThat(Deadline.after(Duration.ofMillis(-5)).remainingNanos()).isZero();
        assertThat(Deadline.after(Duration.ofMillis(-5)).remaining()).isEqualTo(Duration.ZERO);
    }

    @Test
    void remainingCountsDown() {
        Deadline d = Deadline.after(Duration.ofHours(1));
        assertThat(d.isExpired()).isFalse();
        assertThat(d.remaining()).isBetween(Duration.ofMinutes(59), Duration.ofHours(1));
        assertThat(d.remainingNanos()).isPositive().isLessThanOrEqualTo(Duration.ofHours(1).toNanos());
        assertThat(Deadline.after(Duration.ZERO).isExpired()).isTrue();
    }

    @Test
    void earliestPicksTheFirstAndNoneWhenEmpty() {
        Deadline a = Deadline.after(Duration.ofSeconds(10));
        Deadline b = a.plus(Duration.ofSeconds(5));
        Deadline c = a.plus(Duration.ofSeconds(-5));
        assertThat(Deadline.earliest(a, b, c)).isEqualTo(c);
        assertThat(Deadline.earliest(b, Deadline.NONE)).isEqualTo(b);
        assertThat(Deadline.earliest()).isEqualTo(Deadline.NONE);
        assertThat(a.earliest(b)).isSameAs(a);
        assertThat(b.earliest(a)).isSameAs(a);
        assertThatThrownBy(() -> a.earliest((Deadline) null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void earliestIsWrapSafeAcrossTheLongBoundary() {
        // nanoTime values may be negative and may wrap: ordering uses the difference, not the raw values
        Deadline beforeWrap = Deadline.ofNanoTime(Long.MAX_VALUE - 1_000);
        Deadline afterWrap = beforeWrap.plus(Duration.ofNanos(500)); // still below MAX_VALUE
        assertThat(beforeWrap.earliest(afterWrap)).isEqualTo(beforeWrap);
        Deadline negative = Deadline.ofNanoTime(-5);
        Deadline positive = Deadline.ofNanoTime(5);
        assertThat(Deadline.earliest(positive, negative)).isEqualTo(negative);
    }

    @Test
    void atConvertsAWallClockInstantOnce() {
        Deadline d = Deadline.at(Instant.now().plus(1, ChronoUnit.HOURS));
        assertThat(d.remaining()).isBetween(Duration.ofMinutes(59), Duration.ofHours(1));
        Deadline past = Deadline.at(Instant.now().minusSeconds(60));
        assertThat(past.isExpired()).isTrue();
        assertThat(past.remainingNanos()).isZero();
        assertThat(Deadline.at(Instant.MAX)).isEqualTo(Deadline.NONE); // too far to represent: none
        assertThat(Deadline.at(Instant.MIN).isExpired()).isTrue();
        assertThatThrownBy(() -> Deadline.at(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void valueSemantics() {
        Deadline a = Deadline.ofNanoTime(123);
        assertThat(a).isEqualTo(Deadline.ofNanoTime(123)).hasSameHashCodeAs(Deadline.ofNanoTime(123));
        assertThat(a).isNotEqualTo(Deadline.ofNanoTime(124));
        assertThat(a.nanoTime()).isEqualTo(123);
        assertThat(a.plus(Duration.ofNanos(7)).nanoTime()).isEqualTo(130);
        assertThat(Deadline.after(Duration.ofHours(1)).toString()).startsWith("Deadline[in ").endsWith(" ms]");
        assertThat(Deadline.after(Duration.ofHours(-1))).hasToString("Deadline[expired]");
    }
}
