package dev.loommcp.cli;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Parses the {@code --timeout} and {@code --connect-timeout} values: a number with a unit ({@code 500ms},
 * {@code 30s}, {@code 1.5s}, {@code 2m}, {@code 1h}), a bare number of seconds ({@code 30}), or an ISO-8601 duration
 * ({@code PT30S}, {@code PT1M30S}). The result must be positive and at most {@link #MAX} (365 days), so that every
 * accepted value fits a nanosecond count wherever the SDK needs one. Stateless and thread-safe.
 */
final class Durations implements CommandLine.ITypeConverter<Duration> {

    /** The longest duration accepted: 365 days. */
    static final Duration MAX = Duration.ofDays(365);

    private static final Pattern SIMPLE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h)?");

    /** Creates the converter (picocli does this). */
    Durations() {
    }

    @Override
    public Duration convert(String value) {
        try {
            return parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }

    /**
     * Parses a duration.
     *
     * @param text the text
     * @return the duration, positive and at most {@link #MAX}, at millisecond precision or finer
     * @throws IllegalArgumentException when the text is not a duration this accepts, not positive, or longer than
     *                                  {@link #MAX}
     */
    static Duration parse(String text) {
        String t = text.strip();
        Duration d;
        if (t.length() > 1 && (t.charAt(0) == 'P' || t.charAt(0) == 'p'
                || ((t.charAt(0) == '-' || t.charAt(0) == '+') && t.length() > 2
                        && (t.charAt(1) == 'P' || t.charAt(1) == 'p')))) {
            try {
                d = Duration.parse(t.toUpperCase(Locale.ROOT));
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("'" + text + "' is not an ISO-8601 duration such as PT30S");
            }
        } else {
            Matcher m = SIMPLE.matcher(t.toLowerCase(Locale.ROOT));
            if (!m.matches()) {
                throw new IllegalArgumentException("'" + text
                        + "' is not a duration: use a number with a unit (500ms, 30s, 2m, 1h) or ISO-8601 (PT30S)");
            }
            BigDecimal amount = new BigDecimal(m.group(1));
            String unit = m.group(2) == null ? "s" : m.group(2);
            BigDecimal nanosPerUnit = switch (unit) {
                case "ms" -> BigDecimal.valueOf(1_000_000L);
                case "s" -> BigDecimal.valueOf(1_000_000_000L);
                case "m" -> BigDecimal.valueOf(60_000_000_000L);
                default -> BigDecimal.valueOf(3_600_000_000_000L);
            };
            BigDecimal nanos = amount.multiply(nanosPerUnit);
            if (nanos.compareTo(BigDecimal.valueOf(MAX.toNanos())) > 0) {
                throw tooLong(text);
            }
            d = Duration.ofNanos(nanos.longValue());
        }
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("'" + text + "' is not a positive duration");
        }
        if (d.compareTo(MAX) > 0) {
            throw tooLong(text);
        }
        return d;
    }

    private static IllegalArgumentException tooLong(String text) {
        return new IllegalArgumentException("'" + text + "' is too long a duration (at most 365 days)");
    }
}
