package dev.loommcp.cli;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Parses the {@code --max-message-size} value: a whole number of bytes, optionally with a binary unit ({@code K} or
 * {@code KiB} = 1024, {@code M}/{@code MiB}, {@code G}/{@code GiB}; {@code B} for bytes; any case). The result must
 * lie between {@link #MIN} (1 KiB) and {@link #MAX} (1 GiB), the range both transports accept. Stateless and
 * thread-safe.
 */
final class Sizes implements CommandLine.ITypeConverter<Integer> {

    /** The smallest size accepted: 1 KiB. */
    static final int MIN = 1024;
    /** The largest size accepted: 1 GiB. */
    static final int MAX = 1024 * 1024 * 1024;

    private static final Pattern SIZE = Pattern.compile("(\\d{1,19})\\s*(b|k|kib|m|mib|g|gib)?");

    /** Creates the converter (picocli does this). */
    Sizes() {
    }

    @Override
    public Integer convert(String value) {
        try {
            return parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }

    /**
     * Parses a size.
     *
     * @param text the text, for example {@code 16MiB}
     * @return the size in bytes
     * @throws IllegalArgumentException if the text is not a size or lies outside 1 KiB to 1 GiB; the message quotes
     *                                  the text and says what is accepted
     */
    static int parse(String text) {
        Matcher m = SIZE.matcher(text.strip().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a size (expected bytes, or a number with "
                    + "KiB, MiB or GiB, like 16MiB)");
        }
        long unit = switch (m.group(2) == null ? "b" : m.group(2)) {
            case "k", "kib" -> 1024L;
            case "m", "mib" -> 1024L * 1024;
            case "g", "gib" -> 1024L * 1024 * 1024;
            default -> 1L;
        };
        long number;
        try {
            number = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            number = Long.MAX_VALUE;
        }
        if (number > MAX / unit || number * unit < MIN) {
            throw new IllegalArgumentException("'" + text + "' is outside 1KiB to 1GiB");
        }
        return (int) (number * unit);
    }
}
