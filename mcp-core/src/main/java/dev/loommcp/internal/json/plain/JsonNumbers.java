package dev.loommcp.internal.json.plain;

import java.math.BigDecimal;
import java.util.regex.Pattern;

/**
 * The one lenient rule of response ids: a string id holding a JSON number ({@code "7"}, {@code "7.0"}) or a numeric
 * id that was not an integer on the wire ({@code 7.0}, which the codec hands over as its text) stands for the integer
 * it equals exactly. Both the record ({@code RequestId.looselyMatches}) and the codec ({@code Ids.looseInteger}) ask
 * it here, below both of them. Stateless and thread-safe.
 */
public final class JsonNumbers {

    /** A JSON number: what a string id must look like to stand for a number. */
    private static final Pattern JSON_NUMBER = Pattern.compile("-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?");
    /** Longer texts are never one of our ids (a long has at most 20 characters; leave room for "7.000"). */
    private static final int MAX_NUMBER_TEXT = 64;

    private JsonNumbers() {
    }

    /**
     * Returns the integer a text stands for when it is a JSON number equal to a {@code long} exactly.
     *
     * @param text a string id's text, not {@code null}
     * @return the integer it equals, or {@code null} when it equals none ({@code "7.5"}, {@code "abc"}, {@code " 7"},
     *         a number beyond the {@code long} range, a text longer than 64 characters)
     */
    public static Long looseInteger(String text) {
        if (text.isEmpty() || text.length() > MAX_NUMBER_TEXT || !JSON_NUMBER.matcher(text).matches()) {
            return null;
        }
        try {
            return new BigDecimal(text).longValueExact();
        } catch (ArithmeticException | NumberFormatException e) {
            return null; // a fraction, or outside the long range
        }
    }
}
