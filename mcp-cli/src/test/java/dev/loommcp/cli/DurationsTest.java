package dev.loommcp.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DurationsTest {

    @Test
    void numbersWithUnits() {
        assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse("30s")).isEqualTo(Duration.ofSeconds(30));
        assertThat(Durations.parse("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(Durations.parse("1h")).isEqualTo(Duration.ofHours(1));
        assertThat(Durations.parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
        assertThat(Durations.parse(" 10 S ")).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void aBareNumberIsSeconds() {
        assertThat(Durations.parse("30")).isEqualTo(Duration.ofSeconds(30));
        assertThat(Durations.parse("0.25")).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void iso8601() {
        assertThat(Durations.parse("PT30S")).isEqualTo(Duration.ofSeconds(30));
        assertThat(Durations.parse("pt1m30s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(Durations.parse("PT0.5S")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse("P1D")).isEqualTo(Duration.ofDays(1));
    }

    @Test
    void zeroNegativeAndGarbageAreRefused() {
        for (String bad : new String[] {"0s", "0", "PT0S", "-PT5S", "PT-5S", "-5s", "5x", "s", "", "1e3s", "PT",
                "5 seconds", "99999999999999999h"}) {
            assertThatThrownBy(() -> Durations.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> Durations.parse("5x")).hasMessageContaining("500ms, 30s, 2m, 1h")
                .hasMessageContaining("PT30S");
    }

    @Test
    void durationsLongerThanAYearAreRefusedInEveryForm() {
        assertThat(Durations.parse("P365D")).isEqualTo(Duration.ofDays(365));
        assertThat(Durations.parse("8760h")).isEqualTo(Duration.ofDays(365));
        // each of these is a valid java.time.Duration whose nanosecond count overflows a long, or just too long
        for (String tooLong : new String[] {"P106752D", "PT9999999999H", "P366D", "PT8761H", "2562048h", "8761h",
                "525601m", "31536001s", "31536000001ms", "31536001"}) {
            assertThatThrownBy(() -> Durations.parse(tooLong)).as(tooLong)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most 365 days");
        }
    }

    @Test
    void thePicocliConverterTurnsErrorsIntoUsageErrors() {
        assertThat(new Durations().convert("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThatThrownBy(() -> new Durations().convert("soon"))
                .isInstanceOf(CommandLine.TypeConversionException.class).hasMessageContaining("'soon'");
    }
}
